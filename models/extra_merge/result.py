"""Result of an Extra-Merge run: per seed and phase, test losses of every method; the first seed's curves."""

from __future__ import annotations

import io
from typing import Literal

from pydantic import BaseModel, Field

from models.common.contract import Artifact, MethodResult

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
    """Every method's test loss (nats/token) on the checkpoints saved up to `step`."""

    phase: str = Field(description="'falling' (mid-training) or 'plateau' (end of training).")
    step: int
    still_falling: bool
    loss_last: float
    loss_merge: float
    loss_ema: float
    ema_k: int = Field(description="EMA horizon k (decay 1 - 1/k per checkpoint), chosen on validation.")
    loss_lawa: float
    lawa_k: int = Field(description="Checkpoints averaged by LAWA, chosen on validation.")
    loss_extrapolated: float
    beta: float
    top1_raw: float
    top1_merged: float
    pca_steps: int
    floor: float

    best_baseline: float = Field(description="min(merge, EMA, LAWA) test loss.")
    gain: float = Field(description="Extra-Merge's gain over the best merging baseline (nats/token; > 0: better).")
    gain_share: float = Field(description="The gain as a share of the best baseline's gap to the loss floor.")


class SeedSummary(BaseModel):
    seed: int
    falling: CutSummary
    plateau: CutSummary


class Result(MethodResult):
    seeds_run: list[SeedSummary]
    betas: list[BetaPoint] = Field(description="First seed, falling phase: the beta sweep.")
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

    def metrics(self) -> dict[str, float | int | str]:
        first = self.seeds_run[0]
        out: dict[str, float | int | str] = {}
        for cut in (first.falling, first.plateau):
            label = f"{cut.phase}, step {cut.step}"
            out[f"Test loss, Extra-Merge ({label}, nats/token)"] = round(cut.loss_extrapolated, 4)
            out[f"Test loss, best merging baseline ({label}, nats/token)"] = round(cut.best_baseline, 4)
            out[f"Test loss, last checkpoint ({label}, nats/token)"] = round(cut.loss_last, 4)
            out[f"Gain as share of the gap to the floor ({label})"] = round(cut.gain_share, 3)
        out["Loss floor: exact Bayes predictor of the HMM (nats/token)"] = round(self.floor, 4)
        out["Unigram loss (nats/token)"] = round(self.unigram_loss, 4)
        out[f"Seconds per step ({self.optimizer}, first seed)"] = round(self.seconds_per_step, 4)
        out["Model parameters"] = self.parameters
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {"losses_per_seed.csv": Artifact.csv(self.seeds_csv()), "beta_sweep.csv": Artifact.csv(self.beta_csv()),
                "training_curve.csv": Artifact.csv(self.training_csv())}

    def seeds_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("seed,phase,step,still_falling,last,merge,ema,ema_k,lawa,lawa_k,extrapolated,beta,"
                     "top1_raw,top1_merged,floor\n")
        for s in self.seeds_run:
            for c in (s.falling, s.plateau):
                buffer.write(f"{s.seed},{c.phase},{c.step},{c.still_falling},{c.loss_last:.6f},{c.loss_merge:.6f},"
                             f"{c.loss_ema:.6f},{c.ema_k},{c.loss_lawa:.6f},{c.lawa_k},{c.loss_extrapolated:.6f},"
                             f"{c.beta:g},{c.top1_raw:.4f},{c.top1_merged:.4f},{c.floor:.6f}\n")
        return buffer.getvalue()

    def beta_csv(self) -> str:
        rows = "".join(f"{p.beta:g},{p.val_loss:.6f},{p.test_loss:.6f}\n" for p in self.betas)
        return "beta,val_loss,test_loss\n" + rows

    def training_csv(self) -> str:
        rows = "".join(f"{s},{v:.6f},{f:.4f}\n" for s, v, f in
                       zip(self.checkpoint_steps, self.val_loss, self.learning_rate, strict=True))
        return "step,val_loss,lr_factor\n" + rows
