"""Full-batch training of one model under ERM, group DRO, tilted ERM or JTT (IRS: irs.py), counting every pass.

Every method takes exactly one forward and one backward pass per step: the per-sample losses of the
forward pass feed both the method's weights (group weights, tilted softmax, JTT upweights, IRS's
fragility kappa) and the weighted objective whose gradient is taken once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from models.common.contract import Progress
from models.robust_satisficing.tilted import tilted_weights

__all__ = [
    "DRO_STEP", "GroupDROWeights", "JTT_FRACTION", "JTT_UPWEIGHT", "TERM_TILT", "Fit", "Problem", "PassCount", "jtt_errors",
    "Stacked", "Weighting", "erm_weights", "jtt_weights", "tilted_erm_weights", "train_erm", "train_group_dro",
    "train_jtt", "train_many", "train_one", "train_tilted_erm",
]

DRO_STEP = 0.1  # group DRO's exponentiated-gradient step on the group weights (per full-batch step)
TERM_TILT = 2.0  # tilted ERM's fixed tilt t (= 1 / k): the TERM paper's order of magnitude for classification
JTT_FRACTION = 0.2  # JTT's identification model trains for this share of the epochs
JTT_UPWEIGHT = 6.0  # JTT's lambda_up for the rows the identification model gets wrong
WEIGHT_DECAY = 1e-4


@dataclass
class PassCount:
    """Forward passes, backward passes and optimiser steps taken by one method."""

    forward: int = 0
    backward: int = 0
    steps: int = 0

    @property
    def backward_per_step(self) -> float:
        return self.backward / self.steps if self.steps else 0.0


@dataclass(frozen=True)
class Problem:
    """Training tensors on the device, the number of outputs, and training settings shared by all methods."""

    X: torch.Tensor
    y: torch.Tensor
    groups: torch.Tensor
    n_groups: int
    outputs: int  # classes, or 1 for regression
    regression: bool
    hidden: int
    learning_rate: float
    epochs: int
    seed: int

    @classmethod
    def make(cls, X: np.ndarray, y: np.ndarray, groups: np.ndarray, *, regression: bool, hidden: int,
             learning_rate: float, epochs: int, seed: int, device: str) -> Problem:
        target = torch.tensor(y, dtype=torch.float32 if regression else torch.long, device=device)
        outputs = 1 if regression else int(y.max()) + 1
        return cls(torch.tensor(X, dtype=torch.float32, device=device), target,
                   torch.tensor(groups, dtype=torch.long, device=device), int(groups.max()) + 1, outputs,
                   regression, hidden, learning_rate, epochs, seed)


@dataclass
class Fit:
    """A trained model, its pass counts, and per-step traces (training loss; IRS's k)."""

    model: torch.nn.Module
    passes: PassCount
    train_loss: list[float] = field(default_factory=list)
    fragility: list[float] = field(default_factory=list)  # IRS: kappa per step after the warm-up
    tau: list[float] = field(default_factory=list)  # IRS: the active target per step after the warm-up
    kl: list[float] = field(default_factory=list)  # IRS: KL(p* || prior) per step after the warm-up


def make_model(problem: Problem) -> torch.nn.Module:
    """A linear model (hidden = 0) or one hidden ReLU layer, initialised from the seed (same for every method)."""
    d = problem.X.shape[1]
    layers: list[torch.nn.Module] = (
        [torch.nn.Linear(d, problem.outputs)] if problem.hidden == 0
        else [torch.nn.Linear(d, problem.hidden), torch.nn.ReLU(), torch.nn.Linear(problem.hidden, problem.outputs)]
    )
    model = torch.nn.Sequential(*layers).to(problem.X.device)
    generator = torch.Generator().manual_seed(problem.seed)
    with torch.no_grad():
        for layer in model:
            if isinstance(layer, torch.nn.Linear):
                bound = 1.0 / math.sqrt(layer.in_features)
                layer.weight.copy_((torch.rand(layer.weight.shape, generator=generator) * 2 - 1) * bound)
                layer.bias.zero_()
    return model


def per_sample_losses(model: torch.nn.Module, problem: Problem, X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Cross-entropy per row (classification) or squared error per row (regression)."""
    out = model(X)
    if problem.regression:
        return (out[:, 0] - y) ** 2
    return torch.nn.functional.cross_entropy(out, y, reduction="none")


Weighting = Callable[[torch.Tensor, int], torch.Tensor]  # (detached losses, step) -> per-row weights summing to 1


class Stacked(torch.nn.Module):
    """`copies` networks of `make_model`'s shape trained side by side: weights stacked on a leading axis and
    batched matrix products (X -> (copies, n, outputs)). Every copy starts from the seed's initialisation, and
    Adam, its weight decay and the gradient of a sum of per-copy objectives act element by element, so copy m
    follows the trajectory a training of that copy alone would (tested)."""

    def __init__(self, problem: Problem, copies: int) -> None:
        super().__init__()
        base = [layer for layer in make_model(problem).modules() if isinstance(layer, torch.nn.Linear)]
        self.problem, self.copies = problem, copies
        self.weights = torch.nn.ParameterList(
            [torch.nn.Parameter(layer.weight.detach().t().repeat(copies, 1, 1).contiguous()) for layer in base])
        self.biases = torch.nn.ParameterList(
            [torch.nn.Parameter(layer.bias.detach().repeat(copies, 1, 1).contiguous()) for layer in base])

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        h = X.expand(self.copies, *X.shape)
        for k, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = torch.baddbmm(bias, h, weight)
            if k < len(self.weights) - 1:
                h = torch.relu(h)
        return h

    def member(self, m: int) -> torch.nn.Module:
        """Copy m as a plain network (`make_model`'s layers holding its trained weights)."""
        model = make_model(self.problem)
        with torch.no_grad():
            for layer, weight, bias in zip([x for x in model.modules() if isinstance(x, torch.nn.Linear)], self.weights,
                                           self.biases, strict=True):
                layer.weight.copy_(weight[m].t())
                layer.bias.copy_(bias[m, 0])
        return model


def stacked_losses(out: torch.Tensor, problem: Problem) -> torch.Tensor:
    """Per-row losses of every copy: (copies, n)."""
    copies, n = out.shape[0], out.shape[1]
    if problem.regression:
        return (out[:, :, 0] - problem.y[None, :]) ** 2
    flat = torch.nn.functional.cross_entropy(out.reshape(copies * n, -1), problem.y.repeat(copies), reduction="none")
    return flat.view(copies, n)


def train_many(problem: Problem, weightings: list[Weighting], progress: Progress, label: str, *,
               epochs: int | None = None, fits: list[Fit] | None = None) -> list[Fit]:
    """The shared loop for several methods at once: forward of every copy, each copy's weights from its own
    detached losses, one backward of sum_m sum_i w_mi l_mi (each copy's gradient once), Adam step (cosine-annealed
    learning rate, as the official IRS trainer). Every method takes one forward and one backward pass per step."""
    stacked = Stacked(problem, len(weightings))
    fits = fits or [Fit(torch.nn.Identity(), PassCount()) for _ in weightings]
    optimiser = torch.optim.Adam(stacked.parameters(), lr=problem.learning_rate, weight_decay=WEIGHT_DECAY)
    steps = epochs if epochs is not None else problem.epochs
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=steps)
    report = max(1, steps // 20)
    for step in range(steps):
        losses = stacked_losses(stacked(problem.X), problem)
        detached = losses.detach()
        weights = torch.stack([weighting(detached[m], step) for m, weighting in enumerate(weightings)])
        objective = (weights * losses).sum()
        optimiser.zero_grad(set_to_none=True)
        objective.backward()
        optimiser.step()
        schedule.step()
        for fit, loss in zip(fits, detached.mean(dim=1).tolist(), strict=True):
            fit.passes.forward += 1
            fit.passes.backward += 1
            fit.passes.steps += 1
            fit.train_loss.append(loss)
        if step % report == 0 or step == steps - 1:
            progress((step + 1) / steps, f"{label}: epoch {step + 1}/{steps}")
    for m, fit in enumerate(fits):
        fit.model = stacked.member(m)
    return fits


def train_one(problem: Problem, weighting: Weighting, progress: Progress, label: str, *, epochs: int | None = None,
           fit: Fit | None = None) -> Fit:
    """One method alone (`train_many` with one copy)."""
    return train_many(problem, [weighting], progress, label, epochs=epochs, fits=None if fit is None else [fit])[0]


def erm_weights(problem: Problem) -> Weighting:
    """Empirical risk minimisation: uniform weights 1/n."""
    n = problem.X.shape[0]
    return lambda losses, step: torch.full_like(losses, 1.0 / n)


def train_erm(problem: Problem, progress: Progress) -> Fit:
    """Empirical risk minimisation: uniform weights 1/n."""
    return train_one(problem, erm_weights(problem), progress, "ERM")


class GroupDROWeights:
    """Group DRO's online weights (Sagawa et al. 2020, Algorithm 1): per step log q_g += eta L_g over the groups
    present, q = softmax(log q), row i weighted q_{g(i)} / n_{g(i)} (the objective sum_g q_g L_g)."""

    def __init__(self, groups: torch.Tensor, n_groups: int, eta: float) -> None:
        self.groups, self.eta = groups, eta
        self.counts = torch.bincount(groups, minlength=n_groups).to(torch.float32)
        self.present = self.counts > 0
        self.log_q = torch.where(self.present, torch.zeros_like(self.counts), torch.full_like(self.counts, -math.inf))

    def __call__(self, losses: torch.Tensor, step: int) -> torch.Tensor:
        """`step` (the iteration index) is not used: the update size is eta alone."""
        group_loss = torch.zeros_like(self.counts).index_add_(0, self.groups, losses) / self.counts.clamp(min=1)
        self.log_q = torch.where(self.present, self.log_q + self.eta * group_loss, self.log_q)
        q = torch.softmax(self.log_q, dim=0)
        return (q / self.counts.clamp(min=1))[self.groups]


def train_group_dro(problem: Problem, progress: Progress, eta: float = DRO_STEP) -> Fit:
    """Group DRO (Sagawa et al. 2020): q_g <- q_g exp(eta L_g), objective sum_g q_g L_g (groups known)."""
    weighting = GroupDROWeights(problem.groups, problem.n_groups, eta)
    return train_one(problem, weighting, progress, f"group DRO (eta = {eta:g})")


def tilted_erm_weights(tilt: float) -> Weighting:
    """Tilted ERM (Li et al. 2021) at a fixed tilt t: weights softmax(t l_i)."""
    return lambda losses, step: tilted_weights(losses, 1.0 / tilt)


def train_tilted_erm(problem: Problem, progress: Progress, tilt: float = TERM_TILT) -> Fit:
    """Tilted ERM (Li et al. 2021) at a fixed tilt t: weights softmax(t l_i)."""
    return train_one(problem, tilted_erm_weights(tilt), progress, f"tilted ERM (t = {tilt:g})")


def jtt_errors(problem: Problem, progress: Progress) -> tuple[torch.Tensor, Fit]:
    """JTT's first stage: a short ERM run (JTT_FRACTION of the epochs); the rows it gets wrong (regression: the
    worst-fit fifth) form the error set."""
    first_steps = max(1, round(JTT_FRACTION * problem.epochs))
    first = train_one(problem, erm_weights(problem), progress, "JTT (identification)", epochs=first_steps)
    with torch.no_grad():
        out = first.model(problem.X)
        if problem.regression:
            residual = (out[:, 0] - problem.y) ** 2
            wrong = residual > torch.quantile(residual, 0.8)
        else:
            wrong = out.argmax(dim=1) != problem.y
    return wrong, first


def train_jtt(problem: Problem, progress: Progress, upweight: float = JTT_UPWEIGHT,
              errors: tuple[torch.Tensor, Fit] | None = None) -> Fit:
    """Just Train Twice (Liu et al. 2021): a short ERM run finds its errors, which are upweighted in a second run.

    `errors` reuses a first stage shared by several upweights (its passes are counted in every JTT fit)."""
    errors = errors if errors is not None else jtt_errors(problem, lambda f, m="": progress(0.2 * f, m))
    weighting, fit = jtt_weights(errors, upweight)
    return train_one(problem, weighting, lambda f, m="": progress(0.2 + 0.8 * f, m), f"JTT (upweight {upweight:g})",
                  fit=fit)


def jtt_weights(errors: tuple[torch.Tensor, Fit], upweight: float) -> tuple[Weighting, Fit]:
    """JTT's second-stage weights (the error set upweighted, normalised) and a fit that starts with the first
    stage's passes."""
    wrong, first = errors
    upweights = torch.where(wrong, upweight, 1.0).to(torch.float32)
    upweights = upweights / upweights.sum()
    fit = Fit(torch.nn.Identity(), PassCount(first.passes.forward, first.passes.backward, first.passes.steps))
    return (lambda losses, step: upweights), fit
