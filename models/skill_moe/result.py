"""Result of a Skill-MoE run: accuracy per strategy, per skill and per task, load counts and wall times."""

from __future__ import annotations

import csv
import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["Accuracy", "ExpertProfile", "GroupRow", "Loads", "Result", "WallTime"]

STRATEGIES = ("instance_routing", "task_top_k", "random_k", "best_single", "majority_vote")
MIN_GAP = 0.05  # the check: instance routing beats task-level top-k by 5 points


class Accuracy(BaseModel):
    """Test accuracy (fraction correct) of each strategy."""

    instance_routing: float
    task_top_k: float
    random_k: float
    best_single: float
    majority_vote: float


class Loads(BaseModel):
    """Expert loads from disk for the instance-routed answers."""

    batched: int
    naive: int
    distinct_experts: int


class WallTime(BaseModel):
    """Seconds spent answering the instance-routed (query, expert) pairs."""

    batched: float
    naive: float


class GroupRow(BaseModel):
    """Accuracy of each strategy on the test queries of one skill or one task."""

    group: str
    queries: int
    instance_routing: float
    task_top_k: float
    random_k: float
    best_single: float
    majority_vote: float


class ExpertProfile(BaseModel):
    """One expert: its training mix, validation accuracy per skill, and how often instance routing chose it."""

    expert: str
    training_mix: str
    accuracy: list[float]
    chosen: int


class Result(MethodResult):
    accuracy: Accuracy
    loads: Loads
    wall_time_s: WallTime
    answers_identical: bool
    profiling_loads: int
    skills: list[str]
    per_skill: list[GroupRow]
    per_task: list[GroupRow]
    experts: list[ExpertProfile]
    task_experts: dict[str, list[str]]
    best_single_expert: str
    skill_inference: str
    skill_inference_accuracy: float
    skill_inference_s: float
    queries: int
    k: int
    seed: int
    device: str

    @property
    def gap(self) -> float:
        return self.accuracy.instance_routing - self.accuracy.task_top_k

    def metrics(self) -> dict[str, float | int | str]:
        a = self.accuracy
        return {
            "Accuracy, instance routing (Skill-MoE) (%)": round(100 * a.instance_routing, 1),
            f"Accuracy, task-level top-{self.k} (%)": round(100 * a.task_top_k, 1),
            f"Accuracy, random {self.k} (%)": round(100 * a.random_k, 1),
            "Accuracy, best single expert (%)": round(100 * a.best_single, 1),
            "Accuracy, majority vote of all 16 (%)": round(100 * a.majority_vote, 1),
            "Instance minus task-level (points)": round(100 * self.gap, 1),
            "Loads, batched (experts read from disk)": self.loads.batched,
            "Loads, naive per-query loop": self.loads.naive,
            "Distinct experts used": self.loads.distinct_experts,
            "Wall time, batched (s)": round(self.wall_time_s.batched, 3),
            "Wall time, naive (s)": round(self.wall_time_s.naive, 3),
            f"Skill inference accuracy, {self.skill_inference} (%)": round(100 * self.skill_inference_accuracy, 1),
            "Device": self.device,
        }

    def checks(self) -> dict[str, bool]:
        return {
            "routing": self.gap >= MIN_GAP,
            "loads": self.loads.batched == self.loads.distinct_experts,
            "identical": self.answers_identical,
        }

    def verdict(self) -> Verdict:
        c = self.checks()
        detail = (f"instance routing {100 * self.accuracy.instance_routing:.1f}% vs task-level top-{self.k} "
                  f"{100 * self.accuracy.task_top_k:.1f}% ({100 * self.gap:+.1f} points, needs +{100 * MIN_GAP:.0f}); "
                  f"batched loads {self.loads.batched} for {self.loads.distinct_experts} distinct experts "
                  f"vs {self.loads.naive} naive")
        if all(c.values()):
            return Verdict("Instance routing wins", "success", detail)
        failed = [name for name, ok in c.items() if not ok]
        return Verdict("Claim not reproduced: " + ", ".join(failed), "warning", detail)

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "per_skill.csv": Artifact.csv(_rows_csv(self.per_skill)),
            "per_task.csv": Artifact.csv(_rows_csv(self.per_task)),
            "expert_profiles.csv": Artifact.csv(self._profiles_csv()),
        }

    def _profiles_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["expert", "training_mix", *self.skills, "chosen"])
        for p in self.experts:
            writer.writerow([p.expert, p.training_mix, *(f"{a:.4f}" for a in p.accuracy), p.chosen])
        return out.getvalue()


def _rows_csv(rows: list[GroupRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["group", "queries", *STRATEGIES])
    for r in rows:
        writer.writerow([r.group, r.queries, *(f"{getattr(r, s):.4f}" for s in STRATEGIES)])
    return out.getvalue()
