"""The generated suite's answers against an independent recomputation, and the symbolic skill rules."""

from __future__ import annotations

import re

import numpy as np
import pytest

from models.skill_moe.skills import symbolic_skill
from models.skill_moe.suite import ALPHABET, MAX_LEN, SKILLS, TASKS, make_queries, make_skill_queries


def _recompute(text: str) -> int:
    """The answer of a query, recomputed from its text alone."""
    if m := re.fullmatch(r"(\d+)\+(\d+)", text):
        return (int(m[1]) + int(m[2])) % 10
    if m := re.fullmatch(r"(\d+)\*(\d+)", text):
        return (int(m[1]) * int(m[2])) % 10
    if m := re.fullmatch(r"(\d+)%(\d+)", text):
        return int(m[1]) % int(m[2])
    if m := re.fullmatch(r"srt:(\d{4})", text):
        return sorted(int(c) for c in m[1])[1]
    if m := re.fullmatch(r"rev:(\d+)@(\d)", text):
        return int(m[1][len(m[1]) - int(m[2])])
    if m := re.fullmatch(r"(\d+)min>h", text):
        return int(m[1]) // 60
    if m := re.fullmatch(r"cnt:([abc]+)", text):
        return m[1].count("a")
    assert re.fullmatch(r"[TF]([&|^][TF]){2}", text), text
    value = text[0] == "T"
    for op, lit in zip(text[1::2], text[2::2], strict=True):
        other = lit == "T"
        value = value and other if op == "&" else value or other if op == "|" else value != other
    return int(value)


@pytest.mark.parametrize("skill", SKILLS)
def test_answers_match_an_independent_recomputation(skill: str) -> None:
    for q in make_skill_queries(skill, 300, np.random.default_rng(5)):
        assert 0 <= q.answer <= 9
        assert _recompute(q.text) == q.answer, q
        assert len(q.text) <= MAX_LEN and set(q.text) <= set(ALPHABET)


def test_the_symbolic_rules_name_every_skill() -> None:
    queries = make_queries(2000, np.random.default_rng(1))
    assert all(symbolic_skill(q.text) == q.skill for q in queries)
    assert {q.skill for q in queries} == set(SKILLS)
    assert symbolic_skill("hello") is None


def test_queries_come_from_their_task_and_are_seeded() -> None:
    a = make_queries(500, np.random.default_rng(3))
    assert all(q.skill in TASKS[q.task] for q in a)
    assert a == make_queries(500, np.random.default_rng(3))
    assert a != make_queries(500, np.random.default_rng(4))
