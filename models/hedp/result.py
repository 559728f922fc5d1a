"""Result of an HEDP run: selection and classification accuracy per selector, energies and the confusion."""

from __future__ import annotations

import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["EnergySample", "Result", "SELECTOR_LABELS"]

SELECTOR_LABELS = {
    "hybrid": "Hybrid energy-distance (HEDP)",
    "energy_only": "Energy only",
    "distance_only": "Distance only",
    "nearest_centroid": "Nearest centroid (S-Prompts)",
}


class EnergySample(BaseModel):
    """Energies of prompt d on its own domain's test inputs (matched) and on the other seen domains' (mismatched)."""

    domain: str
    matched: list[float]
    mismatched: list[float]


class Variant(BaseModel):
    """Everything measured for one training variant (with or without the energy regulariser)."""

    selection_accuracy: dict[str, float]
    seen_accuracy: dict[str, float]
    unseen_accuracy: dict[str, float]
    per_domain_accuracy: dict[str, dict[str, float]]
    confusion: list[list[int]]  # rows: true domain (seen..., unseen), columns: chosen prompt (hybrid)
    energies: list[EnergySample]
    oracle_seen_accuracy: float  # each seen domain with its own prompt


class Result(MethodResult):
    domains: list[str]
    seen_domains: list[str]
    unseen_domain: str
    selection_accuracy: dict[str, float]
    seen_accuracy: dict[str, float]
    unseen_accuracy: dict[str, float]
    regularised: Variant
    unregularised: Variant
    energy_weight: float
    seconds: float

    def verdict(self) -> Verdict:
        s, u = self.selection_accuracy, self.unseen_accuracy
        best_single = max(s["energy_only"], s["distance_only"])
        first = s["hybrid"] >= best_single
        second = u["hybrid"] >= u["nearest_centroid"]
        detail = (
            f"hybrid selection {100 * s['hybrid']:.1f}% vs best single cue {100 * best_single:.1f}% "
            f"(energy {100 * s['energy_only']:.1f}%, distance {100 * s['distance_only']:.1f}%); unseen-domain "
            f"accuracy {100 * u['hybrid']:.1f}% vs nearest centroid {100 * u['nearest_centroid']:.1f}%"
        )
        if first and second:
            return Verdict("Claim holds", "success", detail)
        return Verdict(f"Claim holds in {int(first) + int(second)} of 2 parts", "warning", detail)

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for key, label in SELECTOR_LABELS.items():
            out[f"{label}: domain selection (%)"] = round(100 * self.selection_accuracy[key], 1)
            out[f"{label}: seen-domain accuracy (%)"] = round(100 * self.seen_accuracy[key], 1)
            out[f"{label}: unseen-domain accuracy (%)"] = round(100 * self.unseen_accuracy[key], 1)
        out["Oracle prompt, seen domains (%)"] = round(100 * self.regularised.oracle_seen_accuracy, 1)
        out["Hybrid selection without the energy regulariser (%)"] = round(
            100 * self.unregularised.selection_accuracy["hybrid"], 1
        )
        out["Run time (s)"] = round(self.seconds, 1)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "accuracy.csv": Artifact.csv(self.accuracy_csv()),
            "confusion.csv": Artifact.csv(self.confusion_csv()),
            "energies.csv": Artifact.csv(self.energies_csv()),
        }

    def _variants(self) -> dict[str, Variant]:
        return {"regularised": self.regularised, "unregularised": self.unregularised}

    def accuracy_csv(self) -> str:
        buf = io.StringIO()
        buf.write("variant,selector,domain,accuracy\n")
        for vname, v in self._variants().items():
            for selector, per_domain in v.per_domain_accuracy.items():
                for domain, acc in per_domain.items():
                    buf.write(f"{vname},{selector},{domain},{acc:.6f}\n")
            for selector, acc in v.selection_accuracy.items():
                buf.write(f"{vname},{selector},selection (seen domains),{acc:.6f}\n")
        return buf.getvalue()

    def confusion_csv(self) -> str:
        buf = io.StringIO()
        buf.write("variant,true_domain," + ",".join(f"chose {d}" for d in self.seen_domains) + "\n")
        for vname, v in self._variants().items():
            for name, row in zip(self.domains, v.confusion, strict=True):
                buf.write(f"{vname},{name}," + ",".join(str(c) for c in row) + "\n")
        return buf.getvalue()

    def energies_csv(self) -> str:
        buf = io.StringIO()
        buf.write("variant,prompt_domain,inputs,energy\n")
        for vname, v in self._variants().items():
            for sample in v.energies:
                for e in sample.matched:
                    buf.write(f"{vname},{sample.domain},matched,{e:.5f}\n")
                for e in sample.mismatched:
                    buf.write(f"{vname},{sample.domain},mismatched,{e:.5f}\n")
        return buf.getvalue()
