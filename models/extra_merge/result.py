"""Result of an Extra-Merge run: test losses of last / merged / extrapolated, rank-one shares, curves."""

from __future__ import annotations

import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["BetaPoint", "Result", "TrajectoryPoint"]


class BetaPoint(BaseModel):
    """Losses (nats/token) of theta(beta) = merged + beta * step."""

    beta: float
    val_loss: float
    test_loss: float


class TrajectoryPoint(BaseModel):
    """A parameter vector projected on the top two principal axes of the raw checkpoints."""

    kind: str  # "raw", "merged" or "extrapolated"
    step: float  # training step (merged: the block's last step; extrapolated: beta)
    pc1: float
    pc2: float


class Result(MethodResult):
    loss_last: float
    loss_merged: float
    loss_extrapolated: float
    loss_ema: float
    best_beta: float
    top1_share_raw: float
    top1_share_merged: float
    pca_steps: int
    still_falling: bool
    merged_val_losses: list[float]
    betas: list[BetaPoint]
    checkpoint_steps: list[int]
    val_loss: list[float]
    train_steps: list[int]
    train_loss: list[float]
    trajectory: list[TrajectoryPoint]
    entropy_rate: float
    uniform_loss: float
    optimizer: str
    device: str
    seconds_per_step: float
    parameters: int

    def metrics(self) -> dict[str, float | int | str]:
        return {
            "Test loss, last checkpoint (nats/token)": round(self.loss_last, 5),
            "Test loss, merged (nats/token)": round(self.loss_merged, 5),
            "Test loss, extrapolated (nats/token)": round(self.loss_extrapolated, 5),
            "Test loss, EMA (nats/token)": round(self.loss_ema, 5),
            "Best beta (chosen on validation)": self.best_beta,
            f"Top-1 share of the last {self.pca_steps} raw steps": round(self.top1_share_raw, 3),
            f"Top-1 share of the last {self.pca_steps} merged steps": round(self.top1_share_merged, 3),
            "Loss still falling at the end": "yes" if self.still_falling else "no (plateau)",
            "Entropy rate of the chain (loss floor, nats)": round(self.entropy_rate, 4),
            f"Seconds per step ({self.optimizer}, {self.device})": round(self.seconds_per_step, 5),
            "Model parameters": self.parameters,
        }

    def verdict(self) -> Verdict:
        numbers = (
            f"test loss: last {self.loss_last:.4f}, merged {self.loss_merged:.4f}, extrapolated "
            f"{self.loss_extrapolated:.4f} (beta {self.best_beta:g}); top-1 share raw {self.top1_share_raw:.2f}, "
            f"merged {self.top1_share_merged:.2f}"
        )
        order = self.loss_extrapolated < self.loss_merged < self.loss_last
        rank = self.top1_share_merged > self.top1_share_raw
        if not self.still_falling:
            gain = self.loss_merged - self.loss_extrapolated
            return Verdict(
                f"Plateau: extrapolation gains {gain:.4f} nats", "info",
                "The validation loss of the merges has stopped falling, where the paper expects no gain from "
                f"extrapolating. {numbers}.",
            )
        if order and rank:
            return Verdict("Extrapolated < merged < last", "success", numbers + ".")
        failed = []
        if not self.loss_extrapolated < self.loss_merged:
            failed.append("extrapolation did not beat the merge")
        if not self.loss_merged < self.loss_last:
            failed.append("the merge did not beat the last checkpoint")
        if not rank:
            failed.append("the merged trajectory is not closer to rank one")
        return Verdict("Not reproduced: " + "; ".join(failed), "warning", numbers + ".")

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "beta_sweep.csv": Artifact.csv(self.beta_csv()),
            "training_curve.csv": Artifact.csv(self.training_csv()),
            "trajectory_pca.csv": Artifact.csv(self.trajectory_csv()),
        }

    def beta_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("beta,val_loss,test_loss\n")
        for p in self.betas:
            buffer.write(f"{p.beta},{p.val_loss:.6f},{p.test_loss:.6f}\n")
        return buffer.getvalue()

    def training_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("step,train_loss_binned,val_loss_at_checkpoint\n")
        val = dict(zip(self.checkpoint_steps, self.val_loss, strict=True))
        rows = sorted(set(self.train_steps) | set(val))
        train = dict(zip(self.train_steps, self.train_loss, strict=True))
        for step in rows:
            t, v = train.get(step), val.get(step)
            buffer.write(f"{step},{'' if t is None else f'{t:.6f}'},{'' if v is None else f'{v:.6f}'}\n")
        return buffer.getvalue()

    def trajectory_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("kind,step_or_beta,pc1,pc2\n")
        for p in self.trajectory:
            buffer.write(f"{p.kind},{p.step:g},{p.pc1:.6f},{p.pc2:.6f}\n")
        return buffer.getvalue()
