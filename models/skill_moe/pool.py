"""The expert pool of the inferred-skill suite: sixteen small networks, trained in the run, kept on disk.

Expert i trains on its own mix of four skills (shares 40/30/20/10 %, so every skill has experts of
four strengths and strengths overlap), on TRAIN_EXAMPLES queries whose cue words come from its
"dialect" (a DIALECT share of each skill's words, drawn per expert; 1.0 here: every word of its skills).
A two-word query is answered as the expert's two single-skill answers added mod 10 (its own procedure
for a two-part question).

Each expert is trained once per seed (Adam, full batch) and written to a folder; the run then reads it
back through a ModelStore with one model resident, so loads are real reads from disk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.common.tiny import ModelStore

from .wordsuite import LEXICON, SKILLS, WORDS, WORDS_PER_SKILL, Query, answer_of

__all__ = ["DIALECT", "EXPERTS", "HIDDEN", "PoolNet", "expert_mixes", "expert_names", "predict", "train_pool"]

EXPERTS = 16
HIDDEN = 64
DIALECT = 1.0  # share of each skill's cue words an expert is trained on
SHARES = (0.4, 0.3, 0.2, 0.1)
TRAIN_EXAMPLES = 2000
TRAIN_STEPS = 400
BATCH = 128
LEARNING_RATE = 0.02
WORD_INDEX = {w: i for i, w in enumerate(WORDS)}
INPUTS = len(WORDS) + 20


def expert_names() -> list[str]:
    return [f"expert_{i:02d}" for i in range(EXPERTS)]


def expert_mixes() -> list[dict[str, float]]:
    """Expert i: skills i, i+1, i+3, i+6 (mod 8) of the first family, i, i+2, i+5, i+7 of the second, at SHARES."""
    n = len(SKILLS)
    out = []
    for family, offsets in enumerate(((0, 1, 3, 6), (0, 2, 5, 7))):
        for i in range(n):
            out.append({SKILLS[(i + o + family) % n]: share for o, share in zip(offsets, SHARES, strict=True)})
    return out


class PoolNet(nn.Module):
    """One-hot cue word and digits (as a sum of their embeddings: a linear layer on the one-hot input), one
    hidden ReLU layer, ten logits."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden = nn.EmbeddingBag(INPUTS, HIDDEN, mode="sum")
        self.bias = nn.Parameter(torch.zeros(HIDDEN))
        self.out = nn.Linear(HIDDEN, 10)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(ids) + self.bias))


def _encode(words: Sequence[int], xs: Sequence[int], ys: Sequence[int]) -> torch.Tensor:
    """(n, 3) input ids: the word, then x and y after the words."""
    return torch.tensor([[w, len(WORDS) + x, len(WORDS) + 10 + y] for w, x, y in zip(words, xs, ys, strict=True)],
                        dtype=torch.long)


def predict(model: nn.Module, queries: Sequence[Query]) -> np.ndarray:
    """Each query's answer: per cue word the net's digit, summed mod 10."""
    if not queries:
        return np.zeros(0, dtype=np.int64)
    parts = [(i, WORD_INDEX[w], q.x, q.y) for i, q in enumerate(queries) for w in q.words]
    with torch.no_grad():
        digits = model(_encode([p[1] for p in parts], [p[2] for p in parts], [p[3] for p in parts])).argmax(1).numpy()
    out = np.zeros(len(queries), dtype=np.int64)
    np.add.at(out, np.array([p[0] for p in parts]), digits)
    return out % 10


@dataclass(frozen=True)
class Pool:
    """The trained pool: its store (one resident), each expert's mix and the cue words it was trained on."""

    store: ModelStore
    mixes: list[dict[str, float]]
    dialects: list[frozenset[str]]


def _examples(mix: dict[str, float], dialect: dict[str, list[str]], seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """TRAIN_EXAMPLES (input ids, answer) pairs of one expert: skills drawn by its mix, words from its dialect."""
    rng = np.random.default_rng([seed, 41])
    skills = list(mix)
    picks = rng.choice(len(skills), size=TRAIN_EXAMPLES, p=np.array(list(mix.values())))
    digits = rng.integers(0, 10, (TRAIN_EXAMPLES, 2))
    choice = rng.integers(0, len(next(iter(dialect.values()))), TRAIN_EXAMPLES)
    words = [WORD_INDEX[dialect[skills[p]][c]] for p, c in zip(picks, choice, strict=True)]
    answers = [answer_of(skills[p], int(x), int(y)) for p, (x, y) in zip(picks, digits, strict=True)]
    return _encode(words, digits[:, 0].tolist(), digits[:, 1].tolist()), torch.tensor(answers)


def _train_all(data: list[tuple[torch.Tensor, torch.Tensor]], seed: int) -> list[PoolNet]:
    """All experts at once (independent weights stacked on a first axis; the loss is the sum of their mean
    cross-entropies, so each expert's gradient is its own): Adam, TRAIN_STEPS steps of BATCH examples."""
    torch.manual_seed(seed)
    nets = [PoolNet() for _ in data]
    w1 = nn.Parameter(torch.stack([n.hidden.weight.detach() for n in nets]))
    b1 = nn.Parameter(torch.zeros(len(nets), 1, HIDDEN))
    w2 = nn.Parameter(torch.stack([n.out.weight.detach().T for n in nets]))
    b2 = nn.Parameter(torch.stack([n.out.bias.detach() for n in nets])[:, None, :])
    ids = torch.stack([d[0] for d in data])  # (experts, examples, 3)
    targets = torch.stack([d[1] for d in data])
    rows = torch.arange(len(nets))[:, None, None]
    optimizer = torch.optim.Adam([w1, b1, w2, b2], lr=LEARNING_RATE)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(TRAIN_STEPS):
        batch = torch.randint(0, ids.shape[1], (BATCH,), generator=generator)
        optimizer.zero_grad(set_to_none=True)
        hidden = torch.relu(w1[rows, ids[:, batch]].sum(dim=2) + b1)
        logits = torch.bmm(hidden, w2) + b2
        loss = nn.functional.cross_entropy(logits.reshape(-1, 10), targets[:, batch].reshape(-1)) * len(nets)
        loss.backward()
        optimizer.step()
    for e, net in enumerate(nets):
        net.load_state_dict({"hidden.weight": w1[e].detach(), "bias": b1[e, 0].detach(),
                             "out.weight": w2[e].detach().T.contiguous(), "out.bias": b2[e, 0].detach()})
    return nets


def train_pool(folder: Path, seed: int, device: str = "cpu") -> Pool:
    """Train the sixteen experts of `seed` and write them to `folder` (one file each)."""
    mixes = expert_mixes()
    dialects, data = [], []
    for e, mix in enumerate(mixes):
        rng = np.random.default_rng([seed, 43, e])
        keep = round(DIALECT * WORDS_PER_SKILL)
        dialect = {s: [LEXICON[s][int(i)] for i in sorted(rng.choice(WORDS_PER_SKILL, keep, replace=False))]
                   for s in SKILLS}
        data.append(_examples(mix, dialect, seed * 100 + e))
        dialects.append(frozenset(w for s in mix for w in dialect[s]))
    for name, net in zip(expert_names(), _train_all(data, seed), strict=True):
        ModelStore.save(net, folder / f"{name}.pt")
    return Pool(ModelStore(folder, lambda _n: PoolNet(), device=device, capacity=1), mixes, dialects)
