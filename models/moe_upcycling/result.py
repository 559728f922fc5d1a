"""Result of a selective-upcycling run: per-learner metrics, accuracy matrices, CKA drift and the search."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["LearnerMetrics", "Result", "SearchSummary"]

LABELS = {
    "naive": "Naive fine-tuning",
    "replay": "Replay only",
    "full_upcycling": "Full upcycling (+ replay)",
    "selective": "Selective upcycling (CKA + NAS, + replay)",
}


class LearnerMetrics(BaseModel):
    """Avalanche-style stream metrics of one learner (fractions) and the parameters it added."""

    average_accuracy: float = Field(description="mean_j R[T-1, j]")
    forgetting: float = Field(description="mean_{j<T-1} R[j, j] - R[T-1, j]")
    backward_transfer: float = Field(description="-forgetting")
    added_parameters: int


class SearchSummary(BaseModel):
    """The outer loop's outcome: keep probabilities and kept copies per layer, and its trace."""

    keep_probability: list[list[float]]
    kept_blocks: list[list[int]]
    expected_kept_trace: list[float]
    candidate_blocks: int


class Checks(BaseModel):
    parameters_at_most_half: bool
    accuracy_within_two_points: bool
    forgetting_at_most_half_of_naive: bool
    parameter_ratio: float
    accuracy_gap: float
    forgetting_ratio: float


class Result(MethodResult):
    tasks: list[str]
    methods: dict[str, LearnerMetrics]
    accuracy_matrix: dict[str, list[list[float]]]
    cka_drift: dict[str, float] = Field(description="naive fine-tuning: layer -> mean over tasks of 1 - CKA(before, after)")
    cka_drift_by_method: dict[str, dict[str, float]]
    cka_per_transition: dict[str, list[list[float]]]
    search: SearchSummary
    checks: Checks
    seconds: float

    def verdict(self) -> Verdict:
        c = self.checks
        detail = (
            f"selective adds {c.parameter_ratio:.0%} of full upcycling's parameters (claim <= 50%), "
            f"average accuracy {c.accuracy_gap * 100:+.1f} points vs full upcycling (claim >= -2), "
            f"forgetting {c.forgetting_ratio:.0%} of naive fine-tuning's (claim <= 50%)"
        )
        held = [c.parameters_at_most_half, c.accuracy_within_two_points, c.forgetting_at_most_half_of_naive]
        if all(held):
            return Verdict("Claim holds", "success", detail)
        return Verdict(f"Claim holds in {sum(held)} of 3 parts", "warning", detail)

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for name, m in self.methods.items():
            label = LABELS.get(name, name)
            out[f"{label}: average accuracy (%)"] = round(100 * m.average_accuracy, 1)
            out[f"{label}: forgetting (points)"] = round(100 * m.forgetting, 1)
            out[f"{label}: added parameters"] = m.added_parameters
        out["Selective / full added parameters"] = round(self.checks.parameter_ratio, 3)
        out["Run time (s)"] = round(self.seconds, 1)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "methods.csv": Artifact.csv(self.methods_csv()),
            "accuracy_matrix.csv": Artifact.csv(self.matrix_csv()),
            "cka_drift.csv": Artifact.csv(self.cka_csv()),
            "search.csv": Artifact.csv(self.search_csv()),
        }

    def methods_csv(self) -> str:
        buf = io.StringIO()
        buf.write("method,average_accuracy,forgetting,backward_transfer,added_parameters\n")
        for name, m in self.methods.items():
            buf.write(f"{name},{m.average_accuracy:.6f},{m.forgetting:.6f},{m.backward_transfer:.6f},{m.added_parameters}\n")
        return buf.getvalue()

    def matrix_csv(self) -> str:
        buf = io.StringIO()
        buf.write("method,trained_task,evaluated_task,accuracy\n")
        for name, rows in self.accuracy_matrix.items():
            for i, row in enumerate(rows):
                for j, value in enumerate(row):
                    buf.write(f"{name},{i + 1},{j + 1},{value:.6f}\n")
        return buf.getvalue()

    def cka_csv(self) -> str:
        buf = io.StringIO()
        buf.write("method,after_task,layer,cka\n")
        for name, transitions in self.cka_per_transition.items():
            for t, row in enumerate(transitions):
                for layer, value in enumerate(row):
                    buf.write(f"{name},{t + 2},{layer + 1},{value:.6f}\n")
        return buf.getvalue()

    def search_csv(self) -> str:
        buf = io.StringIO()
        buf.write("outer_step,expected_kept_blocks\n")
        for step, value in enumerate(self.search.expected_kept_trace):
            buf.write(f"{step + 1},{value:.6f}\n")
        return buf.getvalue()
