"""Result of an RC-FCL run: per seed, stream metrics of every method and detection rates; the first seed's maps."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = ["METHOD_LABELS", "ClientDrift", "Detection", "MethodSummary", "Result", "SeedSummary"]

METHOD_LABELS = {"rc_fcl": "RC-FCL", "fedavg": "FedAvg", "fedprox": "FedProx",
                 "drift_aware": "Drift-aware FedAvg (loss-triggered)", "fedavg_replay": "FedAvg + replay (real samples)",
                 "fedavg_genreplay": "FedAvg + generator replay (no detection)"}


class Detection(BaseModel):
    """Event-level true-positive rate and client-round false-positive rate, with 95% Wilson intervals."""

    events: int
    detected_events: int
    true_positive_rate: float | None
    tpr_interval: list[float]
    negatives: int
    false_positives: int
    false_positive_rate: float | None
    fpr_interval: list[float]


class MethodSummary(BaseModel):
    """Avalanche stream metrics (fractions) and the accuracy matrix over the experiences reached."""

    average_accuracy: float
    forgetting: float | None
    final_concept_accuracy: list[float]
    matrix: list[list[float]]


class SeedSummary(BaseModel):
    seed: int
    methods: dict[str, MethodSummary]
    detection: dict[str, Detection] = Field(description="rc_fcl and drift_aware")
    experience_ends: list[int] = Field(description="server rounds (1-based) ending each experience")


class ClientDrift(BaseModel):
    client: int
    examples: int
    classes: int
    drift_rounds: list[int] = Field(description="local rounds (1-based, own clock) of C0 -> C1 and C1 -> C2")
    magnitude: float
    prior_shift_round: int


class Result(MethodResult):
    concepts: list[str]
    per_seed: list[SeedSummary]
    concept_accuracy: dict[str, list[list[float]]] = Field(description="first seed: method -> rounds x concepts")
    aggregation_share: dict[str, list[list[float]]] = Field(description="first seed: method -> rounds x clients")
    drift_score: list[list[float | None]] = Field(description="first seed, RC-FCL: rounds x clients")
    detected: list[list[bool | None]]
    calibrating: list[list[bool]]
    truth: list[list[bool | None]]
    clients: list[ClientDrift]
    seconds: float

    def mean(self, name: str, metric: str) -> float | None:
        values = [getattr(s.methods[name], metric) for s in self.per_seed]
        kept = [v for v in values if v is not None]
        return sum(kept) / len(kept) if kept else None

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for name, label in METHOD_LABELS.items():
            acc, forget = self.mean(name, "average_accuracy"), self.mean(name, "forgetting")
            out[f"{label}: average accuracy (%)"] = "—" if acc is None else round(100 * acc, 1)
            out[f"{label}: forgetting (points)"] = "—" if forget is None else round(100 * forget, 1)
        for name in ("rc_fcl", "drift_aware"):
            d = self.per_seed[0].detection[name]
            out[f"{METHOD_LABELS[name]}: drift events found, first seed"] = f"{d.detected_events} of {d.events}"
            out[f"{METHOD_LABELS[name]}: false alarms, first seed"] = f"{d.false_positives} of {d.negatives}"
        out["Seeds"] = len(self.per_seed)
        out["Run time (s)"] = round(self.seconds, 1)
        return out

    def tables(self) -> list[Table]:
        """Methods after the last round (means over seeds), drift detection per seed, the first seed's clients."""
        n = len(self.per_seed)
        methods: list[dict[str, Cell]] = [
            {"method": label, "accuracy": _percent(self.mean(name, "average_accuracy")),
             "forgetting": _percent(self.mean(name, "forgetting"))} for name, label in METHOD_LABELS.items()]
        detection: list[dict[str, Cell]] = [
            {"seed": s.seed, "detector": METHOD_LABELS[name], "found": f"{d.detected_events} of {d.events}",
             "tpr": _rate(d.true_positive_rate, d.tpr_interval), "alarms": f"{d.false_positives} of {d.negatives}",
             "fpr": _rate(d.false_positive_rate, d.fpr_interval)} for s in self.per_seed for name, d in s.detection.items()]
        clients: list[dict[str, Cell]] = [
            {**c.model_dump(include={"client", "examples", "classes", "magnitude", "prior_shift_round"}),
             "drift": ", ".join(str(d) for d in c.drift_rounds) or "none"} for c in self.clients]
        return [
            Table(title=f"Methods after the last round (mean over {n} seed{'s' if n > 1 else ''})", rows=methods,
                  columns=[_text("method", "method"), Column(key="accuracy", label="average accuracy", unit="%", digits=3),
                           Column(key="forgetting", label="forgetting", unit="points", digits=3)],
                  caption=f"Concepts: {' → '.join(self.concepts)}. Avalanche's average accuracy over the concepts and "
                  "forgetting R[j, j] - R[T, j]."),
            Table(title="Drift detection, per seed", rows=detection,
                  columns=[Column(key="seed", label="seed"), _text("detector", "detector"), _text("found", "events found"),
                           _text("tpr", "TPR [95% interval]"), _text("alarms", "false alarms"),
                           _text("fpr", "FPR [95% interval]")],
                  caption="A drift event is found when flagged within 2 local rounds; negatives are all other scored "
                  "client-rounds (fresh batches, one class-prior shift per client). Wilson intervals."),
            Table(title="Clients (first seed)", rows=clients,
                  columns=[Column(key="client", label="client"), Column(key="examples", label="examples"),
                           Column(key="classes", label="classes (5+ examples)"),
                           _text("drift", "drift rounds (own clock)"), Column(key="magnitude", label="magnitude", digits=2),
                           Column(key="prior_shift_round", label="prior shift at round")]),
        ]

    def artifacts(self) -> dict[str, Artifact]:
        return {"methods.csv": Artifact.csv(self.methods_csv()), "accuracy_per_round.csv": Artifact.csv(self.curves_csv()),
                "drift_map.csv": Artifact.csv(self.drift_csv())}

    def methods_csv(self) -> str:
        buf = io.StringIO()
        buf.write("seed,method,average_accuracy,forgetting\n")
        for s in self.per_seed:
            for name, m in s.methods.items():
                forgetting = "" if m.forgetting is None else f"{m.forgetting:.6f}"
                buf.write(f"{s.seed},{name},{m.average_accuracy:.6f},{forgetting}\n")
        return buf.getvalue()

    def curves_csv(self) -> str:
        buf = io.StringIO()
        buf.write("method,round," + ",".join(self.concepts) + "\n")
        for name, rows in self.concept_accuracy.items():
            for r, row in enumerate(rows):
                buf.write(f"{name},{r + 1}," + ",".join(f"{v:.6f}" for v in row) + "\n")
        return buf.getvalue()

    def drift_csv(self) -> str:
        buf = io.StringIO()
        buf.write("round,client,participated,true_drift,score,flagged,calibrating\n")
        for r, (scores, flags, truth, cal) in enumerate(zip(self.drift_score, self.detected, self.truth,
                                                            self.calibrating, strict=True)):
            for k, (s, f, t, c) in enumerate(zip(scores, flags, truth, cal, strict=True)):
                buf.write(f"{r + 1},{k + 1},{int(t is not None)},{'' if t is None else int(t)},"
                          f"{'' if s is None else f'{s:.4f}'},{'' if f is None else int(f)},{int(c)}\n")
        return buf.getvalue()


def _rate(rate: float | None, interval: list[float]) -> str:
    """A rate with its 95% interval, as text ("—" when nothing was scored)."""
    if rate is None:
        return "—"
    return f"{number(rate, 2)} [{number(interval[0], 2)}, {number(interval[1], 2)}]"


def _percent(value: float | None) -> float | None:
    return None if value is None else 100 * value


def _text(key: str, label: str) -> Column:
    return Column(key=key, label=label, fmt="text")
