"""Result of an HEDP run: per seed, selection and accuracy of every selector; the first seed in detail."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = ["SELECTOR_LABELS", "EnergySample", "Result", "SeedSummary", "Variant"]

SELECTOR_LABELS = {
    "hybrid": "Hybrid energy-distance (HEDP)",
    "energy_only": "Energy only",
    "distance_only": "Distance only (nearest key, soft)",
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
    temperatures: dict[str, dict[str, float | None]] = Field(
        description="selector -> tau_E, tau_D chosen on held-out images (None: that cue is off; 0: hard arg-min)")
    energy_weight: dict[str, float] = Field(description="selector -> the regulariser weight λ of its prompt set")
    seen_points_per_domain: int


class SeedSummary(BaseModel):
    """One seed's headline numbers (fractions), energy regulariser on, and energy-only selection with it off."""

    seed: int
    selection_accuracy: dict[str, float]
    seen_accuracy: dict[str, float]
    unseen_accuracy: dict[str, float]
    energy_selection_without_regulariser: float
    energy_weight: dict[str, float]  # selector -> λ it chose on held-out images


class Result(MethodResult):
    domains: list[str]
    seen_domains: list[str]
    unseen_domain: str
    per_seed: list[SeedSummary]
    regularised: Variant = Field(description="the first seed, energy regulariser on")
    unregularised: Variant = Field(description="the first seed, energy regulariser off")
    energy_weight: float
    tune_energy_weight: bool
    seconds: float

    def mean(self, metric: str, selector: str) -> float:
        values = [getattr(s, metric)[selector] for s in self.per_seed]
        return sum(values) / len(values)

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for key, label in SELECTOR_LABELS.items():
            out[f"{label}: domain selection (%)"] = round(100 * self.mean("selection_accuracy", key), 1)
            out[f"{label}: seen-domain accuracy (%)"] = round(100 * self.mean("seen_accuracy", key), 1)
            out[f"{label}: unseen-domain accuracy (%)"] = round(100 * self.mean("unseen_accuracy", key), 1)
        out["Oracle prompt, seen domains, first seed (%)"] = round(100 * self.regularised.oracle_seen_accuracy, 1)
        off = sum(s.energy_selection_without_regulariser for s in self.per_seed) / len(self.per_seed)
        out["Energy-only selection without the regulariser (%)"] = round(100 * off, 1)
        out["Seeds"] = len(self.per_seed)
        out["Run time (s)"] = round(self.seconds, 1)
        return out

    def tables(self) -> list[Table]:
        """The selectors with the regulariser on, averaged over seeds (percentages)."""
        n = len(self.per_seed)
        columns = [Column(key="selector", label="selector", fmt="text"),
                   Column(key="selection", label="domain selection, seen", unit="%", digits=3),
                   Column(key="seen", label="accuracy, seen domains", unit="%", digits=3),
                   Column(key="unseen", label=f"accuracy, unseen '{self.unseen_domain}'", unit="%", digits=3),
                   Column(key="weights", label="λ chosen, per seed", digits=3),
                   Column(key="temperatures", label="τ_E, τ_D (first seed)", fmt="text")]
        temps = self.regularised.temperatures
        rows: list[dict[str, Cell]] = [
            {"selector": label, "selection": 100 * self.mean("selection_accuracy", key),
             "seen": 100 * self.mean("seen_accuracy", key), "unseen": 100 * self.mean("unseen_accuracy", key),
             "weights": [s.energy_weight[key] for s in self.per_seed],
             "temperatures": f"{_temperature(temps[key]['energy'])}, {_temperature(temps[key]['distance'])}"}
            for key, label in SELECTOR_LABELS.items()]
        caption = (f"Seen domains: {', '.join(self.seen_domains)}. Each seen domain with its own prompt (oracle, first "
                   f"seed): {number(100 * self.regularised.oracle_seen_accuracy, 3)}%. Each selector's λ and "
                   "temperatures were chosen on held-out images of the seen domains (by its classification accuracy).")
        return [Table(title=f"Selectors, regulariser on (mean over {n} seed{'s' if n > 1 else ''})", columns=columns,
                      rows=rows, caption=caption)]

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "seeds.csv": Artifact.csv(self.seeds_csv()),
            "accuracy.csv": Artifact.csv(self.accuracy_csv()),
            "confusion.csv": Artifact.csv(self.confusion_csv()),
            "energies.csv": Artifact.csv(self.energies_csv()),
        }

    def _variants(self) -> dict[str, Variant]:
        return {"regularised": self.regularised, "unregularised": self.unregularised}

    def seeds_csv(self) -> str:
        buf = io.StringIO()
        buf.write("seed,selector,selection_seen,accuracy_seen,accuracy_unseen\n")
        for s in self.per_seed:
            for key in SELECTOR_LABELS:
                buf.write(f"{s.seed},{key},{s.selection_accuracy[key]:.6f},{s.seen_accuracy[key]:.6f},"
                          f"{s.unseen_accuracy[key]:.6f}\n")
        return buf.getvalue()

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


def _temperature(value: float | None) -> str:
    return "off" if value is None else ("hard arg-min" if value == 0 else number(value, 3))
