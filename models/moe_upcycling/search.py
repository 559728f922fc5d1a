"""The outer loop of selective upcycling: CKA-guided candidate layers, then a Gumbel-Softmax (binary
concrete) mask over their (layer, expert) blocks, annealed until it decides.

1. CKA guidance: a throw-away copy of the model is fine-tuned for one pass on the new task; per block,
   drift = 1 - linear CKA(old output, probe output) on the replay buffer's inputs (old tasks' data).
   Every layer is searched; the CKA probe sets where the mask starts (the paper's CKA-sensitivity
   initialisation): the copies of layers whose drift is at least the mean start at P(keep) = INIT_HIGH,
   the others at INIT_LOW. The search, not the probe, decides what is kept.
2. Each copy e of layer l has a logit a_{l,e}; a relaxed keep-mask is drawn as
   m = sigmoid((a + log u - log(1 - u)) / tau), u ~ U(0, 1) (Maddison et al. 2017), with tau annealed
   geometrically from TAU_START to TAU_END over the search. The outer objective, on held-out data of the
   new task plus replay, is  L_val(w, m) + lambda * sum sigmoid(a_{l,e}) cost_{l,e} / cost_full  (the
   expected added parameters as a fraction of full upcycling's); the inner loop trains the weights w
   with m drawn and a fixed (first-order alternating updates, as in DARTS), OUTER_STEPS outer steps per
   inner step. A block is kept iff sigmoid(a) > 1/2; the search has *converged* when every keep
   probability is outside [DECIDED, 1 - DECIDED].
"""

from __future__ import annotations

import copy
import math

import torch
import torch.nn.functional as F

from models.common.continual import linear_cka

__all__ = ["DECIDED", "INIT_HIGH", "INIT_LOW", "OUTER_STEPS", "TAU_END", "TAU_START", "ExpertMask", "candidate_layers",
           "cka_probe", "initial_logits", "temperature_at"]

TAU_START, TAU_END = 1.0, 0.05
OUTER_STEPS = 5
DECIDED = 0.1
MASK_LR = 0.2
INIT_HIGH, INIT_LOW = 0.6, 0.4  # initial keep probability of the CKA-favoured layers' copies and of the others


class ExpertMask(torch.nn.Module):
    """Keep-logits of the (layer, copy) blocks and their relaxed samples; rows of non-candidates stay 0."""

    active: torch.Tensor

    def __init__(self, layers: int, copies: int, candidates: list[int] | None = None,
                 init: torch.Tensor | None = None) -> None:
        super().__init__()
        self.logits = torch.nn.Parameter(torch.zeros(layers, copies) if init is None else init.clone())
        rows = list(range(layers)) if candidates is None else candidates
        active = torch.zeros(layers, 1)
        active[rows] = 1.0
        self.register_buffer("active", active)
        self.temperature = TAU_START

    def keep_probability(self) -> torch.Tensor:
        return torch.sigmoid(self.logits) * self.active

    def sample(self, generator: torch.Generator) -> torch.Tensor:
        """One relaxed mask in (0, 1)^(layers x copies), differentiable in the logits (0 off the candidates)."""
        u = torch.rand(self.logits.shape, generator=generator).clamp(1e-6, 1 - 1e-6).to(self.logits.device)
        noise = torch.log(u) - torch.log1p(-u)
        return torch.sigmoid((self.logits + noise) / self.temperature) * self.active

    def expected_cost_fraction(self, block_cost: float, full_cost: float) -> torch.Tensor:
        return self.keep_probability().sum() * block_cost / full_cost

    def kept(self) -> list[list[int]]:
        """For each layer, the kept copies as expert indices 1..E-1."""
        keep = (self.keep_probability() > 0.5).cpu().tolist()
        return [[e + 1 for e, k in enumerate(row) if k] for row in keep]

    def decided(self) -> float:
        """min over candidate blocks of |P(keep) - 1/2| (1/2: every block decided for sure)."""
        p = torch.sigmoid(self.logits)[self.active.squeeze(1) > 0]
        return float((p - 0.5).abs().min()) if p.numel() else 0.5


def temperature_at(step: int, steps: int) -> float:
    """Geometric anneal from TAU_START (step 0) to TAU_END (the last step)."""
    if steps <= 1:
        return TAU_END
    return TAU_START * math.exp(math.log(TAU_END / TAU_START) * step / (steps - 1))


def cka_probe(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor, old_x: torch.Tensor,
              lr: float, batches: list[torch.Tensor]) -> list[float]:
    """Per-block drift 1 - CKA on old inputs after one naive pass of a copy over the new task's batches."""
    probe = copy.deepcopy(model)
    for p in probe.parameters():
        p.requires_grad_(True)
    opt = torch.optim.Adam(probe.parameters(), lr=lr)
    for idx in batches:
        opt.zero_grad()
        F.cross_entropy(probe(x[idx])[0], y[idx]).backward()
        opt.step()
    with torch.no_grad():
        _, before = model(old_x)
        _, after = probe(old_x)
    return [1.0 - float(linear_cka(b.double(), a.double())) for b, a in zip(before, after, strict=True)]


def candidate_layers(drift: list[float]) -> list[int]:
    """The layers whose drift is at least the mean (never empty)."""
    mean = sum(drift) / len(drift)
    return [layer for layer, d in enumerate(drift) if d >= mean - 1e-12]


def initial_logits(drift: list[float], copies: int) -> torch.Tensor:
    """Mask logits at the start of the search: logit(INIT_HIGH) for the copies of the CKA-favoured layers
    (drift at least the mean), logit(INIT_LOW) for the others."""
    favoured = set(candidate_layers(drift))
    high, low = math.log(INIT_HIGH / (1 - INIT_HIGH)), math.log(INIT_LOW / (1 - INIT_LOW))
    return torch.tensor([[high if layer in favoured else low] * copies for layer in range(len(drift))])
