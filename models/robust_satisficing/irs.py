"""IRS's weighting, as the official code trains it: a plain-loss warm-up, then per step the group tilt that
maximises (E_p[l] - tau) / KL(p || p0) at tau tied to the current loss (the training loop is training.py's)."""

from __future__ import annotations

import torch

from models.common.contract import Progress
from models.robust_satisficing.tilted import maximise_along_path
from models.robust_satisficing.training import Fit, PassCount, Problem, train_one

__all__ = ["TAU_FLOOR", "TAU_MULTIPLIER", "WARMUP_SHARE", "IRSWeights", "irs_weights", "train_irs"]

TAU_MULTIPLIER = 1.01  # IRS's active target: tau = max(TAU_MULTIPLIER x the prior-weighted loss, TAU_FLOOR)
TAU_FLOOR = 0.1
WARMUP_SHARE = 0.04  # IRS's plain-loss warm-up: 4 of the official 100 epochs


class IRSWeights:
    """IRS's per-step row weights (the official code's training loss, over groups).

    Group means l_g of the detached losses; source loss L0 = sum_g p0_g l_g with p0 the training group shares;
    active tau = max(TAU_MULTIPLIER L0, TAU_FLOOR); p* = the tilt maximising (E_p[l] - tau) / KL(p || p0);
    objective sum_g p*_g l_g / KL(p* || p0), p* and KL held constant (Danskin), so row i weighs
    p*_{g(i)} / (n_{g(i)} KL). Before `warmup` steps, and while the KL vanishes, plain mean loss.
    """

    def __init__(self, groups: torch.Tensor, n_groups: int, warmup: int, fit: Fit,
                 tau_multiplier: float = TAU_MULTIPLIER) -> None:
        self.groups, self.warmup, self.fit, self.tau_multiplier = groups, warmup, fit, tau_multiplier
        self.counts = torch.bincount(groups, minlength=n_groups).to(torch.float32)
        self.present = torch.nonzero(self.counts > 0).view(-1)
        self.prior = self.counts[self.present] / self.counts.sum()

    def __call__(self, losses: torch.Tensor, step: int) -> torch.Tensor:
        n = losses.shape[0]
        if step < self.warmup or len(self.present) < 2:
            return torch.full_like(losses, 1.0 / n)
        sums = torch.zeros_like(self.counts).index_add_(0, self.groups, losses)
        group_loss = sums[self.present] / self.counts[self.present]
        tau = max(self.tau_multiplier * float(self.prior @ group_loss), TAU_FLOOR)
        point = maximise_along_path(group_loss, self.prior, tau)
        self.fit.fragility.append(point.kappa)
        self.fit.tau.append(tau)
        self.fit.kl.append(point.kl)
        if point.kl <= 1e-12:
            return torch.full_like(losses, 1.0 / n)
        per_group = torch.zeros_like(self.counts)
        per_group[self.present] = point.p.to(self.counts.dtype) / (self.counts[self.present] * point.kl)
        return per_group[self.groups]


def train_irs(problem: Problem, progress: Progress, tau_multiplier: float = TAU_MULTIPLIER) -> Fit:
    """Iterative robust satisficing as the official code runs it: a plain-loss warm-up (WARMUP_SHARE of the
    epochs), then per step the group tilt p* maximising (E_p[l] - tau) / KL(p || p0) at tau tied to the current
    loss, and one backward pass of the tilted group loss scaled by 1 / KL."""
    weighting = irs_weights(problem, tau_multiplier)
    return train_one(problem, weighting, progress, f"IRS (tau = {tau_multiplier:g} x loss)", fit=weighting.fit)


def irs_weights(problem: Problem, tau_multiplier: float = TAU_MULTIPLIER) -> IRSWeights:
    """IRS's weighting with its warm-up (WARMUP_SHARE of the epochs) and a fit that records kappa, tau and KL."""
    warmup = max(1, round(WARMUP_SHARE * problem.epochs))
    return IRSWeights(problem.groups, problem.n_groups, warmup, Fit(torch.nn.Identity(), PassCount()), tau_multiplier)
