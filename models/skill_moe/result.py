"""Result of a Skill-MoE run: accuracy and cost per strategy, accuracy by tagger outcome, per-skill rows."""

from __future__ import annotations

import csv
import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = ["CostRow", "ExpertProfile", "GroupRow", "LABELS", "Result", "SeedRow", "TaggerRow"]

LABELS = {
    "instance_routing": "Skill-MoE (instance routing)",
    "oracle_routing": "oracle router (true skills)",
    "trained_router": "trained router (RouteLLM-style)",
    "task_top_k": "task-level top-k",
    "best_single": "best single expert",
    "majority_vote": "vote of all 16 experts",
    "random_k": "random k",
}


def label(strategy: str, k: int) -> str:
    """A strategy's name with its k filled in ("task-level top-3")."""
    return LABELS[strategy].replace("top-k", f"top-{k}").replace("random k", f"random {k}")


class SeedRow(BaseModel):
    """One seed: every strategy's test accuracy, the skill inference's accuracy and Skill-MoE's gain."""

    seed: int
    accuracy: dict[str, float]
    skill_accuracy: float = Field(description="share of test queries whose skill set the tagger names exactly")
    form_accuracy: float = Field(description="the same for the tagger fed only the surface form")
    gain_points: float = Field(description="Skill-MoE minus the best baseline, in points")
    best_baseline: str = Field(description="the baseline with the best accuracy on this seed")
    aggregator: str = Field(description="the aggregation rule chosen on the validation set")
    aggregator_accuracy: dict[str, float] = Field(description="validation accuracy of each aggregation rule")


class CostRow(BaseModel):
    """Answering one strategy's (query, expert) pairs through the on-disk store (first seed)."""

    strategy: str
    loads: int
    pairs: int
    seconds: float


class GroupRow(BaseModel):
    """Accuracy of each strategy on the test queries of one skill or one task (first seed)."""

    group: str
    queries: int
    accuracy: dict[str, float]


class TaggerRow(BaseModel):
    """Accuracy of each strategy on the test queries the tagger names right / wrong (pooled over seeds)."""

    group: str
    queries: int
    accuracy: dict[str, float]


class ExpertProfile(BaseModel):
    """One expert: its training mix, validation accuracy per skill, how often Skill-MoE chose it."""

    expert: str
    training_mix: str
    accuracy: list[float]
    chosen: int


class Result(MethodResult):
    strategies: list[str]
    baselines: list[str]
    accuracy: dict[str, float] = Field(description="strategy -> test accuracy, mean over seeds")
    per_seed: list[SeedRow]
    cost: list[CostRow]
    naive: CostRow
    answers_identical: bool
    by_tagger: list[TaggerRow]
    skills: list[str]
    per_skill: list[GroupRow]
    per_task: list[GroupRow]
    experts: list[ExpertProfile]
    task_experts: dict[str, list[str]]
    best_single_expert: str
    skill_inference: str
    skill_inference_accuracy: float
    form_tagger_accuracy: float
    validation_per_skill: int
    queries: int
    k: int
    seed: int
    seeds_run: list[int]
    device: str

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {
            f"Accuracy, {label(s, self.k)} (%)": round(100 * self.accuracy[s], 1) for s in self.strategies}
        out[f"Skill inference accuracy, {self.skill_inference} tagger (%)"] = round(
            100 * self.skill_inference_accuracy, 1)
        out["Form-only tagger accuracy (%)"] = round(100 * self.form_tagger_accuracy, 1)
        out["Gain over the best baseline (points, mean over seeds)"] = round(
            sum(r.gain_points for r in self.per_seed) / len(self.per_seed), 2)
        out["Loads, Skill-MoE batched"] = next(c.loads for c in self.cost if c.strategy == "instance_routing")
        out["Loads, Skill-MoE naive per-query loop"] = self.naive.loads
        out["Aggregator (first seed, chosen on validation)"] = self.per_seed[0].aggregator
        out["Device"] = self.device
        return out

    def tables(self) -> list[Table]:
        """Accuracy and cost per strategy; per seed; by tagger outcome, skill and task; the experts."""
        return [self._strategy_table(), self._seed_table(), self._group_table(), self._expert_table()]

    def _name(self, strategy: str) -> str:
        return label(strategy, self.k)

    def _strategy_table(self) -> Table:
        cost = {c.strategy: c for c in self.cost}
        rows: list[dict[str, Cell]] = [
            {"strategy": self._name(s), "accuracy": 100 * self.accuracy[s], "loads": cost[s].loads,
             "pairs": cost[s].pairs, "seconds": cost[s].seconds} for s in self.strategies]
        rows.append({"strategy": "Skill-MoE, naive per-query loop", "accuracy": "same answers",
                     "loads": self.naive.loads, "pairs": self.naive.pairs, "seconds": self.naive.seconds})
        gains = ", ".join(number(r.gain_points, 3) for r in self.per_seed)
        caption = (f"Skill inference ({self.skill_inference} tagger): {number(100 * self.skill_inference_accuracy, 3)}% "
                   "of the test queries get exactly their skills; a tagger fed only the surface form (the same for "
                   f"every skill) gets {number(100 * self.form_tagger_accuracy, 3)}%. Skill-MoE - best baseline: "
                   f"{gains} points per seed (the paper: +8.15). Validation: {self.validation_per_skill} queries per "
                   "skill, the same for profiles, tagger and router. Loads and times are from the first seed: every "
                   "strategy answers through the same on-disk store with one expert resident, batched by expert. "
                   "The oracle routes by the true skill (an upper bound, not a competitor).")
        return Table(title="Accuracy and cost per strategy", caption=caption, rows=rows, columns=[
            Column(key="strategy", label="strategy", fmt="text"),
            Column(key="accuracy", label="accuracy, mean over seeds", unit="%", digits=3),
            Column(key="loads", label="expert loads"), Column(key="pairs", label="(query, expert) pairs"),
            Column(key="seconds", label="time", unit="s", digits=2)])

    def _seed_table(self) -> Table:
        rows: list[dict[str, Cell]] = [
            {"seed": r.seed, "tagger": 100 * r.skill_accuracy, "form": 100 * r.form_accuracy,
             "aggregator": r.aggregator, "best": self._name(r.best_baseline), "gain": r.gain_points,
             **{s: 100 * r.accuracy[s] for s in self.strategies}} for r in self.per_seed]
        caption = ("Skill-MoE recruits k experts per query by sampling with replacement, in proportion to each "
                   "expert's net validation score summed over the inferred skills times its global competence (the "
                   "official code's rule); the aggregation rule is the one that scores best on the validation "
                   "queries. The paper's gain over its best baseline is +8.15 points; ours is in the gain column.")
        return Table(title="Per seed", caption=caption, rows=rows, columns=[
            Column(key="seed", label="seed"), Column(key="tagger", label="tagger", unit="%", digits=3),
            Column(key="form", label="form-only tagger", unit="%", digits=3),
            Column(key="aggregator", label="aggregator (chosen on validation)", fmt="text"),
            Column(key="best", label="best baseline", fmt="text"),
            Column(key="gain", label="gain over the best baseline", unit="points", digits=3),
            *(Column(key=s, label=self._name(s), unit="%", digits=3) for s in self.strategies)])

    def _group_table(self) -> Table:
        groups: list[GroupRow | TaggerRow] = [*self.by_tagger, *self.per_skill, *self.per_task]
        rows: list[dict[str, Cell]] = [{"group": g.group, "queries": g.queries,
                                        **{s: 100 * g.accuracy[s] for s in self.strategies}} for g in groups]
        return Table(title="Per tagger outcome, skill and task", rows=rows,
                     caption="By tagger outcome (all seeds), then by first skill and by task (first seed).", columns=[
                         Column(key="group", label="group", fmt="text"), Column(key="queries", label="queries"),
                         *(Column(key=s, label=self._name(s), unit="%", digits=3) for s in self.strategies)])

    def _expert_table(self) -> Table:
        rows: list[dict[str, Cell]] = [{"expert": p.expert, "mix": p.training_mix, "chosen": p.chosen}
                                       for p in self.experts]
        caption = ("Task-level choices: " + "; ".join(f"{t}: {', '.join(e)}" for t, e in self.task_experts.items())
                   + f". Best single expert: {self.best_single_expert}.")
        return Table(title="Experts (first seed)", caption=caption, rows=rows, columns=[
            Column(key="expert", label="expert", fmt="text"), Column(key="mix", label="training mix", fmt="text"),
            Column(key="chosen", label="chosen by Skill-MoE")])

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "per_seed.csv": Artifact.csv(self._csv(["seed", "skill_accuracy", "form_accuracy", *self.strategies],
                                                   [[r.seed, f"{r.skill_accuracy:.4f}", f"{r.form_accuracy:.4f}",
                                                     *(f"{r.accuracy[s]:.4f}" for s in self.strategies)]
                                                    for r in self.per_seed])),
            "by_tagger.csv": Artifact.csv(self._csv(["group", "queries", *self.strategies],
                                                    [[g.group, g.queries, *(f"{g.accuracy[s]:.4f}" for s in
                                                                           self.strategies)] for g in self.by_tagger])),
            "expert_profiles.csv": Artifact.csv(self._csv(["expert", "training_mix", *self.skills, "chosen"],
                                                          [[p.expert, p.training_mix, *(f"{a:.4f}" for a in p.accuracy),
                                                            p.chosen] for p in self.experts])),
        }

    @staticmethod
    def _csv(header: list[str], rows: list[list[object]]) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows(rows)
        return out.getvalue()
