"""The expert pool: sixteen small character-level classifiers, each trained on its own mix of skills.

Previous version (skills readable from the form): the run now uses wordsuite.py and pool.py; this module
is kept for scripts/train_skill_moe.py and the shipped weights it writes.

Expert `i` of the first family trains mostly on skills (i, i+1), of the second on (i, i+3) (mod 8),
with a small share of a third skill, so every skill has four strong experts and none is good at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn

from models.common.paths import static_path
from models.common.tiny import CharVocab, ModelStore

from .suite import ALPHABET, MAX_LEN, SKILLS

__all__ = ["EXPERT_MIXES", "VOCAB", "ExpertMix", "ExpertNet", "expert_names", "expert_store", "predict"]

VOCAB = CharVocab(ALPHABET)
EMBED = 12
HIDDEN = 160
CLASSES = 10


@dataclass(frozen=True)
class ExpertMix:
    """The training mix of one expert: skill name -> share of its training examples."""

    name: str
    shares: dict[str, float]


def _mixes() -> tuple[ExpertMix, ...]:
    n = len(SKILLS)
    mixes = []
    for family, offset, minor in ((0, 1, 5), (1, 3, 2)):
        for i in range(n):
            a, b, c = SKILLS[i], SKILLS[(i + offset) % n], SKILLS[(i + minor) % n]
            mixes.append(ExpertMix(f"expert_{family * n + i:02d}", {a: 0.45, b: 0.45, c: 0.10}))
    return tuple(mixes)


EXPERT_MIXES: tuple[ExpertMix, ...] = _mixes()


class ExpertNet(nn.Module):
    """Character embeddings at fixed positions, flattened, one hidden ReLU layer, ten logits."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(len(VOCAB), EMBED)
        self.hidden = nn.Linear(EMBED * MAX_LEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, CLASSES)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(self.embed(tokens).flatten(1))))


def expert_names() -> list[str]:
    return [mix.name for mix in EXPERT_MIXES]


def expert_store(device: str = "cpu", capacity: int = 1) -> ModelStore:
    """The shipped experts on disk (static/weights/skill_moe), one resident at a time by default."""
    return ModelStore(static_path("weights", "skill_moe"), lambda _name: ExpertNet(), device=device, capacity=capacity)


def predict(model: nn.Module, texts: Sequence[str], device: str = "cpu") -> torch.Tensor:
    """The predicted answer digit of each text (a long tensor on the CPU)."""
    if not texts:
        return torch.zeros(0, dtype=torch.long)
    with torch.no_grad():
        logits = model(VOCAB.encode(texts, MAX_LEN).to(device))
    return logits.argmax(dim=1).cpu()
