"""A frozen random-feature backbone and one prompt (input offset + linear head) per domain, with the energy band.

Backbone f(x) = ReLU(W x + b), W and b drawn once from the seed and never trained. The prompt of
domain d is an offset p_d added to the input and a head h_d: logits_d(x) = h_d(f(x + p_d)). Its
free energy is E_d(x) = -logsumexp(logits_d(x)) (Liu et al. 2020; HEDP's Helmholtz analogy).
Training domain d touches only (p_d, h_d): earlier prompts are frozen, so nothing is overwritten.
The regulariser keeps the in-domain energy inside a band [m_low, m_high]:

    L_E = mean( relu(E - m_high)^2 + relu(m_low - E)^2 ),

so no prompt buys confidence by inflating its logits; energies of different prompts stay comparable.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.common.continual import init_linear_, minibatches, to_tensors
from models.common.contract import Progress

__all__ = ["Backbone", "Prompt", "energy", "energy_band_loss", "train_prompt"]


class Backbone(nn.Module):
    """Fixed random ReLU features (never trained)."""

    def __init__(self, inputs: int, features: int, generator: torch.Generator) -> None:
        super().__init__()
        self.proj = init_linear_(nn.Linear(inputs, features), generator)
        with torch.no_grad():
            self.proj.weight.mul_(np.sqrt(3.0))  # unit-variance pre-activations for inputs in [0, 1]
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.proj(x))


class Prompt(nn.Module):
    def __init__(self, inputs: int, features: int, classes: int, generator: torch.Generator) -> None:
        super().__init__()
        self.offset = nn.Parameter(torch.zeros(inputs))
        self.head = init_linear_(nn.Linear(features, classes), generator)

    def forward(self, backbone: Backbone, x: torch.Tensor) -> torch.Tensor:
        return self.head(backbone(x + self.offset))


def energy(logits: torch.Tensor) -> torch.Tensor:
    """E = -logsumexp(logits) per row."""
    return -torch.logsumexp(logits, dim=1)


def energy_band_loss(energies: torch.Tensor, low: float, high: float) -> torch.Tensor:
    return (F.relu(energies - high) ** 2 + F.relu(low - energies) ** 2).mean()


def train_prompt(
    backbone: Backbone, prompt: Prompt, x: np.ndarray, y: np.ndarray, *, epochs: int, lr: float,
    energy_weight: float, band: tuple[float, float], rng: np.random.Generator, device: str,
    progress: Progress,
) -> list[float]:
    """Cross-entropy (+ energy_weight x band loss) on one domain; returns the mean energy per epoch."""
    xt, yt = to_tensors(x, y, device)
    opt = torch.optim.Adam(prompt.parameters(), lr=lr)
    trace: list[float] = []
    for epoch in range(epochs):
        energies: list[float] = []
        for idx in minibatches(len(yt), 64, rng):
            logits = prompt(backbone, xt[idx])
            e = energy(logits)
            loss = F.cross_entropy(logits, yt[idx])
            if energy_weight > 0:
                loss = loss + energy_weight * energy_band_loss(e, *band)
            opt.zero_grad()
            loss.backward()
            opt.step()
            energies.append(float(e.detach().mean()))
        trace.append(float(np.mean(energies)))
        progress((epoch + 1) / epochs, f"epoch {epoch + 1} of {epochs}")
    return trace
