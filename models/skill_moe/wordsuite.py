"""A suite whose skills must be inferred: every query has the same form, two digits and one or two cue words.

A query reads ``"3 8 kobu"``: the skill is named only by its cue word, drawn from a lexicon of
WORDS_PER_SKILL paraphrases per skill (pseudo-words of four letters, fixed), so every skill shares one
surface form and a reader of the form alone is at chance. A mixed-skill query carries two cue words,
``"3 8 kobu tena"``, and its answer is the sum (mod 10) of the two skills' answers on the same digits:
an expert must master both. Tasks ("benchmarks") mix four skills each, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["LEXICON", "MIXED_SHARE", "SKILLS", "TASKS", "WORDS", "WORDS_PER_SKILL", "Query", "answer_of", "form",
           "make_queries", "make_skill_queries"]

SKILLS: tuple[str, ...] = (
    "addition", "multiplication", "difference", "maximum", "minimum", "modulo", "square", "average",
)
TASKS: dict[str, tuple[str, ...]] = {
    "arithmetic": ("addition", "multiplication", "difference", "average"),
    "comparison": ("maximum", "minimum", "modulo", "square"),
    "mixed_a": ("addition", "maximum", "modulo", "average"),
    "mixed_b": ("multiplication", "difference", "minimum", "square"),
}
WORDS_PER_SKILL = 32
MIXED_SHARE = 0.25  # of the test queries (and of each task's queries) carry two skills


def _lexicon() -> dict[str, tuple[str, ...]]:
    """WORDS_PER_SKILL distinct consonant-vowel pseudo-words per skill, fixed for all runs."""
    rng = np.random.default_rng(20250307)
    consonants, vowels = "bdfgklmnprstvz", "aeiou"
    seen: set[str] = set()
    out: dict[str, tuple[str, ...]] = {}
    for skill in SKILLS:
        words: list[str] = []
        while len(words) < WORDS_PER_SKILL:
            w = "".join(rng.choice(list(consonants if i % 2 == 0 else vowels)) for i in range(4))
            if w not in seen:
                seen.add(w)
                words.append(w)
        out[skill] = tuple(words)
    return out


LEXICON: dict[str, tuple[str, ...]] = _lexicon()
WORDS: tuple[str, ...] = tuple(w for s in SKILLS for w in LEXICON[s])


def answer_of(skill: str, x: int, y: int) -> int:
    """The one-digit answer of `skill` on digits x, y."""
    if skill == "addition":
        return (x + y) % 10
    if skill == "multiplication":
        return (x * y) % 10
    if skill == "difference":
        return abs(x - y)
    if skill == "maximum":
        return max(x, y)
    if skill == "minimum":
        return min(x, y)
    if skill == "modulo":
        return x % (y + 1)
    if skill == "square":
        return (x * x + y) % 10
    if skill == "average":
        return (x + y) // 2
    raise ValueError(f"unknown skill {skill!r}")


@dataclass(frozen=True)
class Query:
    """One instance: digits, cue words, the true skills (one or two), its task and answer."""

    x: int
    y: int
    words: tuple[str, ...]
    skills: tuple[str, ...]
    task: str
    answer: int

    @property
    def text(self) -> str:
        return f"{self.x} {self.y} {' '.join(self.words)}"

    @property
    def skill(self) -> str:
        """The first skill (the only one of a single-skill query)."""
        return self.skills[0]


def form(text: str) -> str:
    """The surface form of a query: digits as 'd', letters as 'w' (the same for every skill)."""
    return "".join("d" if c.isdigit() else "w" if c.isalpha() else c for c in text)


def _query(skills: tuple[str, ...], task: str, rng: np.random.Generator) -> Query:
    x, y = (int(v) for v in rng.integers(0, 10, 2))
    words = tuple(LEXICON[s][int(rng.integers(WORDS_PER_SKILL))] for s in skills)
    return Query(x, y, words, skills, task, sum(answer_of(s, x, y) for s in skills) % 10)


def make_skill_queries(skill: str, n: int, rng: np.random.Generator, task: str = "") -> list[Query]:
    """`n` single-skill queries of `skill` (validation sets, expert training)."""
    return [_query((skill,), task, rng) for _ in range(n)]


def make_queries(n: int, rng: np.random.Generator, mixed_share: float = MIXED_SHARE) -> list[Query]:
    """A skill-mixed set: task uniform, skill uniform within the task; a `mixed_share` of the queries add a
    second, different skill of the same task."""
    tasks = list(TASKS)
    out = []
    for _ in range(n):
        task = tasks[int(rng.integers(len(tasks)))]
        pool = TASKS[task]
        first = pool[int(rng.integers(len(pool)))]
        skills: tuple[str, ...] = (first,)
        if rng.random() < mixed_share:
            others = [s for s in pool if s != first]
            skills = (first, others[int(rng.integers(len(others)))])
        out.append(_query(skills, task, rng))
    return out
