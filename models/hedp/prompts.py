"""A feature extractor pre-trained here on clean digits (then frozen) and one prompt per domain.

Backbone f(x) = ReLU(W2 ReLU(W1 x + b1) + b2), 64 -> 128 -> 64, trained once per seed with a linear
classifier on the clean training images (the stand-in for the paper's pre-trained ViT; nothing is
downloaded) and then frozen. Its features f(x) are what the distance cue measures (the official code's
`extract_vector`, without prompts).

The prompt of domain d (the stand-in for a visual prompt): an offset p_d added to the input, a vector
q_d added to the first hidden layer, and a head h_d:
    logits_d(x) = h_d(ReLU(W2 ReLU(W1 (x + p_d) + b1 + q_d) + b2)).
Training domain d touches only (p_d, q_d, h_d): earlier prompts are frozen, so nothing is overwritten.
Free energy at temperature T: E_d(x) = -T logsumexp(logits_d(x) / T) (Liu et al. 2020). The
regulariser of the official code (HEDP's `getLogitLoss`) pulls the mean in-domain energy to a midline
and pushes energies above a border back down:
    L_E = lambda (|mean E - midline| + mean over {E > border} of (E - border)),
so every prompt's own-domain energies sit at one level and energies of different prompts compare.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.common.continual import init_linear_, minibatches, to_tensors
from models.common.contract import Progress

__all__ = ["Backbone", "Prompt", "energy", "energy_regulariser", "pretrain_backbone", "train_prompt"]

HIDDEN = 128
FEATURES = 64
SCALE = 16.0  # logit scale of the cosine head: logits lie in [-SCALE, SCALE]


class Backbone(nn.Module):
    """The two-layer feature extractor; `forward(x, p, q)` applies a prompt's input and hidden offsets."""

    def __init__(self, inputs: int, generator: torch.Generator, hidden: int = HIDDEN, features: int = FEATURES) -> None:
        super().__init__()
        self.first = init_linear_(nn.Linear(inputs, hidden), generator)
        self.second = init_linear_(nn.Linear(hidden, features), generator)

    def forward(self, x: torch.Tensor, offset: torch.Tensor | None = None,
                hidden_offset: torch.Tensor | None = None) -> torch.Tensor:
        h = self.first(x if offset is None else x + offset)
        h = torch.relu(h if hidden_offset is None else h + hidden_offset)
        return torch.relu(self.second(h))

    def freeze(self) -> Backbone:
        for p in self.parameters():
            p.requires_grad_(False)
        return self


def pretrain_backbone(x: np.ndarray, y: np.ndarray, *, epochs: int, seed: int, device: str) -> Backbone:
    """Train the extractor with a throw-away linear classifier on clean images, then freeze it."""
    generator = torch.Generator().manual_seed(seed + 7)
    backbone = Backbone(x.shape[1], generator).to(device)
    classifier = init_linear_(nn.Linear(FEATURES, 10), generator).to(device)
    opt = torch.optim.Adam([*backbone.parameters(), *classifier.parameters()], lr=3e-3)
    xt, yt = to_tensors(x, y, device)
    rng = np.random.default_rng([seed, 99])
    for _ in range(epochs):
        for idx in minibatches(len(yt), 64, rng):
            loss = F.cross_entropy(classifier(backbone(xt[idx])), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return backbone.freeze()


class Prompt(nn.Module):
    def __init__(self, inputs: int, classes: int, generator: torch.Generator) -> None:
        super().__init__()
        self.offset = nn.Parameter(torch.zeros(inputs))
        self.hidden_offset = nn.Parameter(torch.zeros(HIDDEN))
        bound = 1.0 / float(np.sqrt(FEATURES))
        self.classes = nn.Parameter((torch.rand(classes, FEATURES, generator=generator) * 2 - 1) * bound)

    def forward(self, backbone: Backbone, x: torch.Tensor) -> torch.Tensor:
        """Cosine logits, SCALE x cos(feature, class vector), as CLIP's image-text logits (bounded by SCALE)."""
        features = F.normalize(backbone(x, self.offset, self.hidden_offset), dim=1)
        return SCALE * features @ F.normalize(self.classes, dim=1).T


def energy(logits: torch.Tensor, temperature: float = 1.0) -> torch.Tensor:
    """E = -T logsumexp(logits / T) per row."""
    return -temperature * torch.logsumexp(logits / temperature, dim=1)


def energy_regulariser(energies: torch.Tensor, midline: float, border: float) -> torch.Tensor:
    """|mean E - midline| + mean over the rows above the border of (E - border) (0 when none is)."""
    above = energies[energies > border] - border
    border_term = above.mean() if above.numel() else energies.new_zeros(())
    return (energies.mean() - midline).abs() + border_term


def train_prompt(
    backbone: Backbone, prompt: Prompt, x: np.ndarray, y: np.ndarray, *, epochs: int, lr: float,
    energy_weight: float, midline: float, border: float, rng: np.random.Generator, device: str,
    progress: Progress,
) -> list[float]:
    """Cross-entropy (+ energy_weight x the regulariser) on one domain; returns the mean energy per epoch."""
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
                loss = loss + energy_weight * energy_regulariser(e, midline, border)
            opt.zero_grad()
            loss.backward()
            opt.step()
            energies.append(float(e.detach().mean()))
        trace.append(float(np.mean(energies)))
        progress((epoch + 1) / epochs, f"epoch {epoch + 1} of {epochs}")
    return trace
