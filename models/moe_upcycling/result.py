"""Result of a selective-upcycling run: per-learner metrics, accuracy matrices, CKA drift and the search."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = ["LABELS", "LearnerMetrics", "Result", "SearchSummary", "SeedMetrics"]

LABELS = {
    "naive": "Naive fine-tuning",
    "replay": "Replay only",
    "lwf": "LwF (distillation)",
    "full_upcycling": "Full upcycling (+ replay)",
    "selective": "Selective upcycling (CKA + NAS, + replay)",
}


class LearnerMetrics(BaseModel):
    """Avalanche-style stream metrics of one learner (fractions) and the parameters it added."""

    average_accuracy: float = Field(description="mean_j R[T-1, j]")
    forgetting: float = Field(description="mean_{j<T-1} R[j, j] - R[T-1, j]")
    backward_transfer: float = Field(description="-forgetting")
    added_parameters: int
    seconds: float = Field(default=0.0, description="training time of this learner through the stream")


class SearchSummary(BaseModel):
    """The outer loop's outcome: CKA probe, candidate layers, keep probabilities, kept copies and its cost."""

    keep_probability: list[list[float]] = Field(description="final sigmoid(a) of every layer's copies")
    kept_blocks: list[list[int]]
    expected_kept_trace: list[float]
    candidate_blocks: int
    probe_drift: list[float] = Field(description="1 - CKA per block after the one-pass probe on the new task")
    candidate_layers: list[int] = Field(description="CKA-favoured layers (1-based): their copies start at P(keep) 0.6")
    decided: float = Field(description="min over all blocks of |P(keep) - 1/2|")
    outer_steps: int
    search_seconds: float


class SeedMetrics(BaseModel):
    seed: int
    methods: dict[str, LearnerMetrics]
    kept_copies: int
    decided: float


class Result(MethodResult):
    tasks: list[str] = Field(description="the first seed's task split")
    methods: dict[str, LearnerMetrics] = Field(description="the first seed's learners")
    per_seed: list[SeedMetrics]
    accuracy_matrix: dict[str, list[list[float]]]
    cka_drift: dict[str, float] = Field(description="naive fine-tuning: layer -> mean over tasks of 1 - CKA(before, after)")
    cka_drift_by_method: dict[str, dict[str, float]]
    cka_per_transition: dict[str, list[list[float]]]
    search: SearchSummary
    seconds: float

    def mean(self, name: str, metric: str) -> float:
        values = [float(getattr(s.methods[name], metric)) for s in self.per_seed]
        return sum(values) / len(values)

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for name in self.methods:
            label = LABELS.get(name, name)
            out[f"{label}: average accuracy (%)"] = round(100 * self.mean(name, "average_accuracy"), 1)
            out[f"{label}: forgetting (points)"] = round(100 * self.mean(name, "forgetting"), 1)
            out[f"{label}: added parameters"] = round(self.mean(name, "added_parameters"))
        out["Search: outer steps (first seed)"] = self.search.outer_steps
        out["Search: time (s, first seed)"] = round(self.search.search_seconds, 1)
        out["Seeds"] = len(self.per_seed)
        out["Run time (s)"] = round(self.seconds, 1)
        return out

    def tables(self) -> list[Table]:
        """The learners after the last task (means over seeds), then the first seed's search."""
        n = len(self.per_seed)
        learners = [Column(key="learner", label="learner", fmt="text"),
                    Column(key="average_accuracy", label="average accuracy", unit="%", digits=3),
                    Column(key="forgetting", label="forgetting", unit="points", digits=3),
                    Column(key="added_parameters", label="added parameters", digits=3),
                    Column(key="seconds", label="training time", unit="s", digits=3)]
        rows: list[dict[str, Cell]] = [
            {"learner": label, "average_accuracy": 100 * self.mean(name, "average_accuracy"),
             "forgetting": 100 * self.mean(name, "forgetting"), "added_parameters": self.mean(name, "added_parameters"),
             "seconds": self.mean(name, "seconds")} for name, label in LABELS.items() if name in self.methods]
        s = self.search
        search = (f"CKA probe drift per block {', '.join(number(v, 2) for v in s.probe_drift)}; CKA-favoured blocks "
                  f"(mask starts at P(keep) 0.6) {', '.join(str(c) for c in s.candidate_layers)}; {s.outer_steps} outer "
                  f"steps in {number(s.search_seconds, 2)} s.")
        seeds = [Column(key="seed", label="seed"), Column(key="kept_copies", label="copies kept"),
                 Column(key="decided", label="min |P(keep) - 1/2|", digits=2)]
        return [Table(title=f"Learners after the last task (mean over {n} seed{'s' if n > 1 else ''})",
                      columns=learners, rows=rows,
                      caption="Average accuracy = mean_j R[T, j]; forgetting = mean over earlier tasks of "
                      "R[j, j] - R[T, j] (Avalanche's StreamForgetting)."),
                Table(title="Search (first seed)", columns=seeds, caption=search,
                      rows=[p.model_dump(include={"seed", "kept_copies", "decided"}) for p in self.per_seed])]

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "methods.csv": Artifact.csv(self.methods_csv()),
            "accuracy_matrix.csv": Artifact.csv(self.matrix_csv()),
            "cka_drift.csv": Artifact.csv(self.cka_csv()),
            "search.csv": Artifact.csv(self.search_csv()),
        }

    def methods_csv(self) -> str:
        buf = io.StringIO()
        buf.write("seed,method,average_accuracy,forgetting,backward_transfer,added_parameters,seconds\n")
        for s in self.per_seed:
            for name, m in s.methods.items():
                buf.write(f"{s.seed},{name},{m.average_accuracy:.6f},{m.forgetting:.6f},{m.backward_transfer:.6f},"
                          f"{m.added_parameters},{m.seconds:.2f}\n")
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
