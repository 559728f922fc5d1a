"""A reasoning suite generated in code: eight skills, four tasks that mix them, answers in 0..9.

Previous version (skills readable from the form): the run now uses wordsuite.py and pool.py; this module
is kept for scripts/train_skill_moe.py and the shipped weights it writes.

Every query is a short string whose answer is one digit, so each expert is a 10-way classifier.
Queries of one skill share a surface form (``37+85``, ``srt:4721``, ``125min>h``); the symbolic skill
inference reads that form, like the paper's skill tags read the subject of a question.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ALPHABET", "MAX_LEN", "SKILLS", "TASKS", "Query", "make_queries", "make_skill_queries"]

SKILLS: tuple[str, ...] = (
    "addition", "multiplication", "modular", "sorting", "reversal", "conversion", "logic", "counting",
)
# Each task (a "benchmark") mixes four skills; task-level routing sees only the task name.
TASKS: dict[str, tuple[str, ...]] = {
    "arithmetic": ("addition", "multiplication", "modular", "conversion"),
    "algorithmic": ("sorting", "reversal", "logic", "counting"),
    "mixed_a": ("addition", "sorting", "conversion", "logic"),
    "mixed_b": ("multiplication", "modular", "reversal", "counting"),
}
ALPHABET = "0123456789+*%:>&|^@TFabcdehimnorstv"
MAX_LEN = 16


@dataclass(frozen=True)
class Query:
    """One instance: its text, its true skill, the task it came from and its answer digit."""

    text: str
    skill: str
    task: str
    answer: int


def _digits(rng: np.random.Generator, n: int) -> str:
    return "".join(str(d) for d in rng.integers(0, 10, n))


def _one(skill: str, rng: np.random.Generator) -> tuple[str, int]:
    """A (text, answer) pair of `skill`."""
    if skill == "addition":
        a, b = (int(v) for v in rng.integers(0, 100, 2))
        return f"{a}+{b}", (a + b) % 10
    if skill == "multiplication":
        a, b = (int(v) for v in rng.integers(0, 100, 2))
        return f"{a}*{b}", (a * b) % 10
    if skill == "modular":
        a, m = int(rng.integers(0, 100)), int(rng.integers(2, 10))
        return f"{a}%{m}", a % m
    if skill == "sorting":  # the second smallest of four digits
        s = _digits(rng, 4)
        return f"srt:{s}", int(sorted(s)[1])
    if skill == "reversal":  # the p-th digit of the reversed string
        s, p = _digits(rng, int(rng.integers(4, 7))), int(rng.integers(1, 4))
        return f"rev:{s}@{p}", int(s[::-1][p - 1])
    if skill == "conversion":  # minutes to whole hours
        n = int(rng.integers(0, 600))
        return f"{n}min>h", n // 60
    if skill == "logic":  # three literals, two operators, evaluated left to right
        lits = rng.integers(0, 2, 3)
        ops = rng.choice(list("&|^"), 2)
        value = bool(lits[0])
        for op, lit in zip(ops, lits[1:], strict=True):
            value = {"&": value and bool(lit), "|": value or bool(lit), "^": value != bool(lit)}[str(op)]
        text = "TF"[1 - lits[0]] + "".join(f"{op}{'TF'[1 - lit]}" for op, lit in zip(ops, lits[1:], strict=True))
        return text, int(value)
    if skill == "counting":  # how many a's
        s = "".join(rng.choice(list("abc"), int(rng.integers(6, 10))))
        return f"cnt:{s}", s.count("a")
    raise ValueError(f"unknown skill {skill!r}")


def make_skill_queries(skill: str, n: int, rng: np.random.Generator, task: str = "") -> list[Query]:
    """`n` queries of one skill."""
    out = []
    for _ in range(n):
        text, answer = _one(skill, rng)
        out.append(Query(text, skill, task, answer))
    return out


def make_queries(n: int, rng: np.random.Generator) -> list[Query]:
    """A skill-mixed set: each query's task is uniform over TASKS, its skill uniform over the task's skills."""
    tasks = list(TASKS)
    out = []
    for _ in range(n):
        task = tasks[int(rng.integers(len(tasks)))]
        skill = TASKS[task][int(rng.integers(len(TASKS[task])))]
        out.extend(make_skill_queries(skill, 1, rng, task))
    return out
