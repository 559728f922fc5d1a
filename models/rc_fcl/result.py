"""Result of an RC-FCL run: drift detection rates, per-method accuracies, curves and the drift maps."""

from __future__ import annotations

import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["ClientDrift", "Detection", "MethodCurves", "MethodSummary", "Result", "METHOD_LABELS"]

METHOD_LABELS = {"rc_fcl": "RC-FCL", "fedavg": "FedAvg", "fedprox": "FedProx"}


class Detection(BaseModel):
    """Rates over the client-rounds RC-FCL's detector scored (None when there is no positive / negative)."""

    true_positive_rate: float | None
    false_positive_rate: float | None
    positives: int
    negatives: int
    true_positives: int
    false_positives: int


class MethodSummary(BaseModel):
    """Fractions after the last round: mean over clients on their current concept, original concept, new concepts."""

    final_accuracy: float
    old_concept_accuracy: float
    new_concept_accuracy: float | None


class MethodCurves(BaseModel):
    old_accuracy: list[float]
    new_accuracy: list[float | None]
    aggregation_share: list[list[float]]


class ClientDrift(BaseModel):
    client: int
    examples: int
    classes: int
    drift: str
    kind: str
    magnitude: float
    drift_round: int | None  # local round (1-based) on the client's own clock


class Result(MethodResult):
    detection: Detection
    methods: dict[str, MethodSummary]
    curves: dict[str, MethodCurves]
    drift_score: list[list[float | None]]  # rounds x clients
    detected: list[list[bool | None]]
    truth: list[list[bool | None]]
    participates: list[list[bool]]
    clients: list[ClientDrift]
    seconds: float

    def gain_over_fedavg(self) -> float:
        return self.methods["rc_fcl"].final_accuracy - self.methods["fedavg"].final_accuracy

    def verdict(self) -> Verdict:
        d = self.detection
        if d.true_positive_rate is None or d.false_positive_rate is None:
            return Verdict("No drift to detect", "info", "drift magnitude 0 or no scored client-round with drift")
        detect = d.true_positive_rate >= 0.8 and d.false_positive_rate <= 0.1
        gain = self.gain_over_fedavg()
        better = gain >= 0.03
        detail = (
            f"detection TPR {d.true_positive_rate:.2f} at FPR {d.false_positive_rate:.2f} (claim >= 0.8 at <= 0.1); "
            f"final accuracy {100 * self.methods['rc_fcl'].final_accuracy:.1f}% vs FedAvg "
            f"{100 * self.methods['fedavg'].final_accuracy:.1f}% ({100 * gain:+.1f} points, claim >= +3)"
        )
        if detect and better:
            return Verdict("Claim holds", "success", detail)
        return Verdict(f"Claim holds in {int(detect) + int(better)} of 2 parts", "warning", detail)

    def metrics(self) -> dict[str, float | int | str]:
        d = self.detection
        out: dict[str, float | int | str] = {
            "Drift detection: true-positive rate": "n/a" if d.true_positive_rate is None else round(d.true_positive_rate, 3),
            "Drift detection: false-positive rate": "n/a" if d.false_positive_rate is None else round(d.false_positive_rate, 3),
            "Scored client-rounds with / without drift": f"{d.positives} / {d.negatives}",
        }
        for name, m in self.methods.items():
            label = METHOD_LABELS[name]
            out[f"{label}: final accuracy (%)"] = round(100 * m.final_accuracy, 1)
            out[f"{label}: original-concept accuracy (%)"] = round(100 * m.old_concept_accuracy, 1)
            out[f"{label}: new-concept accuracy (%)"] = (
                "n/a" if m.new_concept_accuracy is None else round(100 * m.new_concept_accuracy, 1)
            )
        out["Run time (s)"] = round(self.seconds, 1)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "accuracy_per_round.csv": Artifact.csv(self.curves_csv()),
            "drift_map.csv": Artifact.csv(self.drift_csv()),
            "clients.csv": Artifact.csv(self.clients_csv()),
        }

    def curves_csv(self) -> str:
        buf = io.StringIO()
        buf.write("method,round,original_concept_accuracy,new_concept_accuracy\n")
        for name, c in self.curves.items():
            for r, (old, new) in enumerate(zip(c.old_accuracy, c.new_accuracy, strict=True)):
                buf.write(f"{name},{r + 1},{old:.6f},{'' if new is None else f'{new:.6f}'}\n")
        return buf.getvalue()

    def drift_csv(self) -> str:
        buf = io.StringIO()
        buf.write("round,client,participates,true_drift,detected,drift_score,rc_fcl_aggregation_share\n")
        share = self.curves["rc_fcl"].aggregation_share
        for r, row in enumerate(self.drift_score):
            for k, score in enumerate(row):
                truth, det = self.truth[r][k], self.detected[r][k]
                buf.write(
                    f"{r + 1},{k + 1},{int(self.participates[r][k])},{'' if truth is None else int(truth)},"
                    f"{'' if det is None else int(det)},{'' if score is None else f'{score:.6f}'},{share[r][k]:.6f}\n"
                )
        return buf.getvalue()

    def clients_csv(self) -> str:
        buf = io.StringIO()
        buf.write("client,examples,classes,kind,magnitude,drift_round,drift\n")
        for c in self.clients:
            buf.write(f"{c.client},{c.examples},{c.classes},{c.kind},{c.magnitude:.4f},"
                      f"{'' if c.drift_round is None else c.drift_round},{c.drift}\n")
        return buf.getvalue()
