"""Result of an Extra-Merge run: per seed and phase, test losses of every method; the first seed's curves."""

from __future__ import annotations

import csv
import io
from typing import Literal

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = ["BetaPoint", "CutSummary", "Result", "SeedSummary", "TrajectoryKind", "TrajectoryPoint"]

TrajectoryKind = Literal["raw", "merged", "extrapolated"]


class BetaPoint(BaseModel):
    """Losses (nats/token) of theta(beta) = merged + beta * step."""

    beta: float
    val_loss: float
    test_loss: float


class TrajectoryPoint(BaseModel):
    """A parameter vector projected on the top two principal axes of the raw checkpoints."""

    kind: TrajectoryKind
    step: float  # training step (merged: the block's last step; extrapolated: beta)
    pc1: float
    pc2: float


class CutSummary(BaseModel):
    """Every method's test loss (nats/token) on the checkpoints saved up to `step`, and the trajectory's shape."""

    phase: str = Field(description="'falling' (the late-stage analysis point) or 'plateau' (end of training).")
    step: int
    still_falling: bool
    loss_last: float
    loss_merge: float
    loss_ema: float
    ema_k: int = Field(description="EMA horizon k (decay 1 - 1/k per checkpoint), chosen on validation.")
    ema_edge: bool = Field(description="EMA's k is the first or last of its grid.")
    loss_lawa: float
    lawa_k: int = Field(description="Checkpoints averaged by LAWA, chosen on validation.")
    lawa_edge: bool
    loss_extrapolated: float
    beta: float
    beta_edge: bool
    loss_shift: float = Field(description="Diagnostic: last merge + gamma x last merged step, gamma on validation.")
    gamma: float
    gamma_edge: bool
    top1_raw: float = Field(description="Top singular direction's share of the raw steps' squared norm.")
    top1_merged: float = Field(description="The same for the merged steps.")
    pca_raw: float = Field(description="First principal component's share of the raw positions' variance.")
    pca_merged: float = Field(description="The same for the merged positions (the paper's measure).")
    pca_random_walk: float = Field(description="pca_merged of a random walk with as many points (no line).")
    regime: bool = Field(description="pca_merged >= 0.8: the paper's near-one-dimensional regime is reached.")
    pca_steps: int
    floor: float
    best_baseline: float = Field(description="min(merge, EMA, LAWA) test loss.")
    best_name: str
    gain: float = Field(description="Extra-Merge's gain over the best merging baseline (nats/token; > 0: better).")
    test_tokens: int


class SeedSummary(BaseModel):
    seed: int
    falling: CutSummary
    plateau: CutSummary


class Result(MethodResult):
    seeds_run: list[SeedSummary]
    betas: list[BetaPoint] = Field(description="First seed, falling phase: the beta sweep.")
    beta_grid: list[float] = Field(description="The grid of beta (and of the shift's gamma).")
    averaging_grid: list[int] = Field(description="The grid of EMA's k and LAWA's k.")
    trajectory: list[TrajectoryPoint] = Field(description="First seed, falling phase: PCA of the late trajectory.")
    checkpoint_steps: list[int]
    val_loss: list[float]
    learning_rate: list[float]
    train_steps: list[int]
    train_loss: list[float]
    floor: float
    unigram_loss: float
    optimizer: str
    seconds_per_step: float
    parameters: int

    def tables(self) -> list[Table]:
        """Test loss of every method per seed and analysis point (nats/token), with the grids' choices."""
        caption = (f"Loss floor (exact Bayes predictor of the corpus): {number(self.floor, 4)} nats/token; unigram model "
                   f"{number(self.unigram_loss, 4)}. Grids, each choice made on validation: beta and gamma "
                   f"{', '.join(number(b, 4) for b in self.beta_grid)}; EMA and LAWA k "
                   f"{', '.join(str(k) for k in self.averaging_grid)}.")
        rows = [_cut_row(s.seed, c) for s in self.seeds_run for c in (s.falling, s.plateau)]
        return [Table(title="Test loss per method (nats/token), per seed and analysis point", columns=list(_CUT_COLUMNS),
                      rows=rows, caption=caption)]

    def metrics(self) -> dict[str, float | int | str]:
        first = self.seeds_run[0]
        out: dict[str, float | int | str] = {}
        for cut in (first.falling, first.plateau):
            label = f"{cut.phase}, step {cut.step}"
            out[f"Test loss, Extra-Merge ({label}, nats/token)"] = round(cut.loss_extrapolated, 4)
            out[f"Test loss, best merging baseline: {cut.best_name} ({label}, nats/token)"] = round(cut.best_baseline, 4)
            out[f"Test loss, last checkpoint ({label}, nats/token)"] = round(cut.loss_last, 4)
            out[f"Merged top-1 variance share ({label}; regime from 0.8)"] = round(cut.pca_merged, 3)
        out["Random-walk top-1 variance share (same number of points)"] = round(first.falling.pca_random_walk, 3)
        out["Loss floor: exact Bayes predictor of the HMM (nats/token)"] = round(self.floor, 4)
        out["Unigram loss (nats/token)"] = round(self.unigram_loss, 4)
        out[f"Seconds per step ({self.optimizer}, first seed)"] = round(self.seconds_per_step, 4)
        out["Model parameters"] = self.parameters
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {"losses_per_seed.csv": Artifact.csv(self.seeds_csv()), "beta_sweep.csv": Artifact.csv(self.beta_csv()),
                "training_curve.csv": Artifact.csv(self.training_csv())}

    def seeds_csv(self) -> str:
        columns = ("phase", "step", "still_falling", "loss_last", "loss_merge", "loss_ema", "ema_k", "ema_edge",
                   "loss_lawa", "lawa_k", "lawa_edge", "loss_extrapolated", "beta", "beta_edge", "loss_shift",
                   "gamma", "gamma_edge", "top1_raw", "top1_merged", "pca_raw", "pca_merged", "pca_random_walk",
                   "regime", "best_name", "floor")
        rows = [[s.seed] + [_cell(getattr(c, k)) for k in columns] for s in self.seeds_run for c in (s.falling, s.plateau)]
        return _csv(("seed",) + columns, rows)

    def beta_csv(self) -> str:
        return _csv(("beta", "val_loss", "test_loss"), [[_cell(p.beta), _cell(p.val_loss), _cell(p.test_loss)]
                                                       for p in self.betas])

    def training_csv(self) -> str:
        return _csv(("step", "val_loss", "lr_factor"), [[s, _cell(v), _cell(f)] for s, v, f in
                                                       zip(self.checkpoint_steps, self.val_loss, self.learning_rate,
                                                           strict=True)])


def _cell(value: object) -> object:
    return f"{value:.6g}" if isinstance(value, float) else value


def _csv(header: tuple[str, ...], rows: list[list[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _text(key: str, label: str) -> Column:
    return Column(key=key, label=label, fmt="text")


_CUT_COLUMNS = (Column(key="seed", label="seed"), _text("analysis", "analysis"), _text("loss", "loss"),
                _text("shares", "top-1 variance share: merged / raw / random walk"),
                _text("regime", "regime (merged >= 0.8)"), Column(key="last", label="last", digits=6),
                Column(key="merge", label="merge", digits=6), Column(key="ema", label="EMA", digits=6),
                _text("ema_k", "EMA k"), Column(key="lawa", label="LAWA", digits=6), _text("lawa_k", "LAWA k"),
                Column(key="extra", label="Extra-Merge", digits=6), _text("beta", "beta"),
                Column(key="shift", label="lag shift", digits=6), _text("gamma", "gamma"),
                Column(key="gain", label="gain over best baseline (nats)", digits=2))


def _choice(value: float, edge: bool) -> str:
    return f"{number(value, 4)}{' (grid edge)' if edge else ''}"


def _cut_row(seed: int, c: CutSummary) -> dict[str, Cell]:
    """One analysis point of one seed as a row of the loss table."""
    return {"seed": seed, "analysis": f"{c.phase} (step {c.step})", "loss": "still falling" if c.still_falling else "flat",
            "shares": " / ".join(number(v, 2) for v in (c.pca_merged, c.pca_raw, c.pca_random_walk)),
            "regime": "reached" if c.regime else "not reached", "last": c.loss_last, "merge": c.loss_merge,
            "ema": c.loss_ema, "ema_k": _choice(c.ema_k, c.ema_edge), "lawa": c.loss_lawa,
            "lawa_k": _choice(c.lawa_k, c.lawa_edge), "extra": c.loss_extrapolated, "beta": _choice(c.beta, c.beta_edge),
            "shift": c.loss_shift, "gamma": _choice(c.gamma, c.gamma_edge), "gain": c.gain}
