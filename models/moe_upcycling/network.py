"""A residual MLP whose FFN blocks can be upcycled into soft mixtures of experts with a router.

Block l: h <- h + FFN_l(h), FFN = Linear(d, 2d) -> ReLU -> Linear(2d, d). Upcycling replaces FFN_l
by experts {FFN_l (frozen), copy_1, ..., copy_{E-1}} and a router r(h) = softmax(W h + b) with
W = 0, b = 0 at creation, so the upcycled model computes exactly what the dense one did
(function-preserving upcycling, Komatsuzaki et al. 2023). A mask m in [0, 1]^(E-1) over the
copies (1 = kept) enters as  out = sum_e g_e m_e FFN_e(h) / sum_e g_e m_e  with m_0 = 1.
Routing is dense (every expert runs): at 8 x 8 digits top-k routing saves nothing.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from models.common.continual import init_linear_

__all__ = ["FFN", "MoEBlock", "UpcycleNet", "ffn_parameters", "router_parameters"]


def ffn_parameters(width: int) -> int:
    """Parameters of one FFN block d -> 2d -> d."""
    return 2 * width * width + 2 * width + 2 * width * width + width


def router_parameters(width: int, experts: int) -> int:
    return width * experts + experts


class FFN(nn.Module):
    def __init__(self, width: int, generator: torch.Generator) -> None:
        super().__init__()
        self.up = init_linear_(nn.Linear(width, 2 * width), generator)
        self.down = init_linear_(nn.Linear(2 * width, width), generator)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return self.down(torch.relu(self.up(h)))


class MoEBlock(nn.Module):
    """An upcycled FFN: the frozen original expert 0, `copies` trainable copies and a zero-initialised router."""

    def __init__(self, original: FFN, copies: int) -> None:
        super().__init__()
        width = original.up.in_features
        self.experts = nn.ModuleList([original] + [copy.deepcopy(original) for _ in range(copies)])
        for p in original.parameters():
            p.requires_grad_(False)
        self.router = nn.Linear(width, copies + 1)
        nn.init.zeros_(self.router.weight)
        nn.init.zeros_(self.router.bias)

    def forward(self, h: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        gates = torch.softmax(self.router(h), dim=1)  # n x E
        if mask is not None:
            keep = torch.cat([torch.ones(1, device=mask.device, dtype=mask.dtype), mask])
            gates = gates * keep
        gates = gates / gates.sum(dim=1, keepdim=True).clamp_min(1e-12)
        outputs = torch.stack([expert(h) for expert in self.experts], dim=1)  # n x E x d
        return (gates.unsqueeze(2) * outputs).sum(dim=1)

    def keep_only(self, kept: list[int]) -> None:
        """Delete the copies not in `kept` (indices 1..E-1) and the matching router rows."""
        rows = [0] + sorted(kept)
        self.experts = nn.ModuleList([self.experts[i] for i in rows])
        old = self.router
        self.router = nn.Linear(old.in_features, len(rows)).to(old.weight.device)
        with torch.no_grad():
            self.router.weight.copy_(old.weight[rows])
            self.router.bias.copy_(old.bias[rows])

    def added_parameters(self) -> int:
        """Parameters this block added over the dense FFN: its copies and its router."""
        width = self.router.in_features
        n = len(self.experts)
        return (n - 1) * ffn_parameters(width) + router_parameters(width, n)


class UpcycleNet(nn.Module):
    """stem (64 -> d, ReLU), L residual FFN/MoE blocks, a 10-way head (one head: class-incremental)."""

    def __init__(self, inputs: int, width: int, layers: int, classes: int, generator: torch.Generator) -> None:
        super().__init__()
        self.stem = init_linear_(nn.Linear(inputs, width), generator)
        self.blocks = nn.ModuleList([FFN(width, generator) for _ in range(layers)])
        self.head = init_linear_(nn.Linear(width, classes), generator)

    def forward(
        self, x: torch.Tensor, masks: list[torch.Tensor | None] | None = None
    ) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Logits and the representation after each block (what CKA compares)."""
        h = torch.relu(self.stem(x))
        reps: list[torch.Tensor] = []
        for layer, block in enumerate(self.blocks):
            if isinstance(block, MoEBlock):
                h = h + block(h, None if masks is None else masks[layer])
            else:
                h = h + block(h)
            reps.append(h)
        return self.head(h), reps

    def upcycle(self, layers: list[int], copies: int) -> None:
        """Turn the FFN of each listed layer into an MoE block with `copies` new experts.

        The original expert is frozen; the stem, the other blocks and the head stay trainable (freezing the
        stem too left full upcycling 2 to 7 points below replay alone: the outside review's finding)."""
        for layer in layers:
            block = self.blocks[layer]
            if isinstance(block, FFN):
                self.blocks[layer] = MoEBlock(block, copies)

    def added_parameters(self) -> int:
        return sum(b.added_parameters() for b in self.blocks if isinstance(b, MoEBlock))

    def frozen_copy(self) -> UpcycleNet:
        twin = copy.deepcopy(self)
        for p in twin.parameters():
            p.requires_grad_(False)
        return twin
