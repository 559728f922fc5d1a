"""Result of an LMNet run: exact match per label count and variant over seeds, gradients, parameter counts."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = ["LABELS", "LabelRow", "Result", "SeedRow"]

LABELS = {"dense": "LMNet (dense edge)", "full": "Same network, every weight fine-tuned", "text": "Text pipeline", "single": "Fine-tuned node A (all weights)",
          "lora": "LoRA on node B (parameter-matched)"}


class LabelRow(BaseModel):
    """Test exact match (share of words entirely right) at one label count: mean and sd over seeds."""

    labels: int
    mean: dict[str, float]
    sd: dict[str, float]
    text_untrained: float = Field(description="the text pipeline before training, mean over seeds")


class SeedRow(BaseModel):
    """One seed at one label count."""

    seed: int
    labels: int
    scores: dict[str, float]
    text_untrained: float
    train_seconds: dict[str, float] = Field(description="variant -> CPU seconds of training (measured)")


class Result(MethodResult):
    variants: list[str]
    rows: list[LabelRow]
    per_seed: list[SeedRow]
    dense_beats_fine_tuning: list[int] = Field(
        description="label counts at which LMNet beats every fine-tuning baseline (the whole network, node A, LoRA) "
                    "on every seed")
    dense_beats_text: list[int] = Field(description="label counts at which LMNet beats the text pipeline on every seed")
    gradients: dict[str, int] = Field(description="last seed's backward pass: edge/frozen tensor counts and flags")
    trainable_parameters: dict[str, int] = Field(description="variant -> trainable parameters")
    lora_rank: int
    frozen_parameters: int = Field(description="parameters of the two frozen nodes")
    text_ceiling: float = Field(description="test words without marks (mean over seeds): the most text can get right")
    test_words: int
    steps: int
    mark_probability: float
    seeds_run: list[int]
    device: str
    seconds: float

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for r in self.rows:
            for key in self.variants:
                out[f"{LABELS[key]}, {r.labels} labels: exact match (%)"] = round(100 * r.mean[key], 1)
        for key in self.variants:
            seconds = [r.train_seconds[key] for r in self.per_seed]
            out[f"{LABELS[key]}: training CPU time per label count (s, mean)"] = round(sum(seconds) / len(seconds), 2)
        for key, count in self.trainable_parameters.items():
            out[f"{LABELS[key]}: trainable parameters"] = count
        out["Frozen node parameters"] = self.frozen_parameters
        out["Text ceiling: unmarked test words (%)"] = round(100 * self.text_ceiling, 1)
        out["Run time (s)"] = round(self.seconds, 1)
        return out

    def tables(self) -> list[Table]:
        """Exact match by label count, trainable parameters, and every seed."""
        every = "the seed" if len(self.seeds_run) == 1 else f"every one of {len(self.seeds_run)} seeds"
        ahead = (f"Label counts where LMNet is ahead on {every}: of every fine-tuned model (the whole network, node A, "
                 f"LoRA): {_counts(self.dense_beats_fine_tuning)}; of the text pipeline: {_counts(self.dense_beats_text)}.")
        if self.standing is not None:
            ahead += (f" Standing on {self.standing.metric} (mean over seeds): " + "; ".join(
                f"{self.standing.labels.get(k, k)} {number(v, 3)}" for k, v in self.standing.scores.items()) + ".")
        variants = [Column(key=k, label=LABELS[k], fmt="text") for k in self.variants]
        match = [Column(key="labels", label="labels"), *variants,
                 Column(key="untrained", label="text pipeline untrained", unit="%", digits=3)]
        rows: list[dict[str, Cell]] = [
            {"labels": r.labels, **{k: f"{number(100 * r.mean[k], 3)} ± {number(100 * r.sd[k], 2)}%" for k in self.variants},
             "untrained": 100 * r.text_untrained} for r in self.rows]
        seeds: list[dict[str, Cell]] = [{"seed": r.seed, "labels": r.labels, **{k: 100 * r.scores[k] for k in self.variants}}
                                        for r in self.per_seed]
        return [
            Table(title="Test exact match by label count (mean ± sd over seeds)", columns=match, rows=rows,
                  caption=f"Exact match = whole word right, on {self.test_words} fresh test words per seed. A text "
                  "interface can get at most the words without marks right: "
                  f"{number(100 * self.text_ceiling, 3)}% here. {ahead}"),
            Table(title="Trainable parameters", columns=[Column(key="variant", label="variant", fmt="text"),
                                                         Column(key="count", label="trainable parameters", fmt="text")],
                  rows=[{"variant": LABELS.get(k, k), "count": f"{v:,}"} for k, v in self.trainable_parameters.items()],
                  caption=f"LoRA rank {self.lora_rank}. Frozen nodes: {self.frozen_parameters:,}."),
            Table(title="Per seed", rows=seeds, columns=[Column(key="seed", label="seed"), Column(key="labels", label="labels"),
                                                         *[Column(key=k, label=LABELS[k], digits=3) for k in self.variants]]),
        ]

    def artifacts(self) -> dict[str, Artifact]:
        buf = io.StringIO()
        buf.write("seed,labels," + ",".join(self.variants) + ",text_untrained\n")
        for r in self.per_seed:
            buf.write(f"{r.seed},{r.labels}," + ",".join(f"{r.scores[v]:.4f}" for v in self.variants)
                      + f",{r.text_untrained:.4f}\n")
        return {"exact_match.csv": Artifact.csv(buf.getvalue())}


def _counts(counts: list[int]) -> str:
    return ", ".join(str(c) for c in counts) if counts else "none of the counts run"
