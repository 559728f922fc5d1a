"""The outer loop of selective upcycling: a Gumbel-Softmax (binary concrete) mask over (layer, expert) blocks.

Each candidate copy e of layer l has a logit a_{l,e}; a relaxed keep-mask is drawn as
m = sigmoid((a + log u - log(1 - u)) / tau), u ~ U(0, 1) (Maddison et al. 2017; the two-class
Gumbel-Softmax). The outer objective, on held-out data of the new task plus replay, is

    L_val(w, m) + lambda * sum_{l,e} sigmoid(a_{l,e}) cost_{l,e} / cost_full,

the task loss plus the expected added parameters as a fraction of full upcycling's; the inner loop
trains the weights w with m drawn but a held fixed (first-order alternating updates, as in DARTS).
After the search a block is kept iff sigmoid(a) > 1/2.
"""

from __future__ import annotations

import torch

__all__ = ["ExpertMask"]


class ExpertMask(torch.nn.Module):
    """Keep-logits of the (layer, copy) blocks and their relaxed samples."""

    def __init__(self, layers: int, copies: int, temperature: float = 0.5) -> None:
        super().__init__()
        self.logits = torch.nn.Parameter(torch.zeros(layers, copies))
        self.temperature = temperature

    def keep_probability(self) -> torch.Tensor:
        return torch.sigmoid(self.logits)

    def sample(self, generator: torch.Generator) -> torch.Tensor:
        """One relaxed mask in (0, 1)^(layers x copies), differentiable in the logits."""
        u = torch.rand(self.logits.shape, generator=generator).clamp(1e-6, 1 - 1e-6).to(self.logits.device)
        noise = torch.log(u) - torch.log1p(-u)
        return torch.sigmoid((self.logits + noise) / self.temperature)

    def expected_cost_fraction(self, block_cost: float, full_cost: float) -> torch.Tensor:
        return self.keep_probability().sum() * block_cost / full_cost

    def kept(self) -> list[list[int]]:
        """For each layer, the kept copies as expert indices 1..E-1."""
        keep = (self.keep_probability() > 0.5).cpu().tolist()
        return [[e + 1 for e, k in enumerate(row) if k] for row in keep]
