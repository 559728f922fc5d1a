"""The inferred-skill suite: answers, one shared surface form, the learners and their grid, the pool."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from models.common.tiny import ModelStore
from models.skill_moe import learners
from models.skill_moe.pool import PoolNet, expert_mixes, predict, train_pool
from models.skill_moe.wordsuite import LEXICON, SKILLS, TASKS, WORDS, form, make_queries, make_skill_queries

OPS = {"addition": lambda x, y: (x + y) % 10, "multiplication": lambda x, y: x * y % 10,
       "difference": lambda x, y: abs(x - y), "maximum": max, "minimum": min, "modulo": lambda x, y: x % (y + 1),
       "square": lambda x, y: (x * x + y) % 10, "average": lambda x, y: (x + y) // 2}
OWNER = {w: s for s in SKILLS for w in LEXICON[s]}


def _recompute(text: str) -> int:
    """The answer from the text alone: digits, then cue words looked up in the lexicon."""
    m = re.fullmatch(r"(\d) (\d) ([a-z]{4})(?: ([a-z]{4}))?", text)
    assert m, text
    x, y = int(m[1]), int(m[2])
    return sum(OPS[OWNER[w]](x, y) for w in (m[3], m[4]) if w) % 10


def test_answers_match_an_independent_recomputation() -> None:
    queries = make_queries(3000, np.random.default_rng(5))
    assert all(_recompute(q.text) == q.answer and 0 <= q.answer <= 9 for q in queries)
    assert {len(q.skills) for q in queries} == {1, 2} and all(set(q.skills) <= set(TASKS[q.task]) for q in queries)
    assert 0.2 < np.mean([len(q.skills) == 2 for q in queries]) < 0.3
    assert len(set(WORDS)) == len(WORDS) and all(len(w) == 4 for w in WORDS)


def test_every_skill_shares_one_surface_form() -> None:
    forms = {s: {form(q.text) for q in make_skill_queries(s, 200, np.random.default_rng(1))} for s in SKILLS}
    assert all(f == {"d d wwww"} for f in forms.values())
    assert form("3 8 kobu tena") == "d d wwww wwww"


def _form_tagger_accuracy(queries_val: list, queries_test: list, features) -> float:  # type: ignore[no-untyped-def,type-arg]
    y = np.zeros((len(queries_val), len(SKILLS)))
    for i, q in enumerate(queries_val):
        y[i, [SKILLS.index(s) for s in q.skills]] = 1
    model = learners.Logistic(features(queries_val), y, 1e-3, 0)
    named = learners.tag(model.probabilities(features(queries_test)))
    return float(np.mean([set(n) == set(q.skills) for n, q in zip(named, queries_test, strict=True)]))


def test_a_tagger_reading_only_the_form_is_at_chance_and_one_reading_the_words_is_not() -> None:
    rng = np.random.default_rng(2)
    val, test = make_queries(800, rng), make_queries(800, rng)
    chance = max(np.mean([q.skills == (s,) for q in test]) for s in SKILLS)  # always naming the commonest skill
    assert _form_tagger_accuracy(val, test, learners.form_features) <= chance + 0.03
    assert _form_tagger_accuracy(val, test, learners.features) > 0.7

    def leaky(queries):  # type: ignore[no-untyped-def]  # a broken suite whose form gave the skill away
        out = learners.form_features(queries)
        return np.hstack([out, np.eye(len(SKILLS))[[SKILLS.index(q.skill) for q in queries]]])

    assert _form_tagger_accuracy(val, test, leaky) > chance + 0.3


def test_tag_names_skills_above_one_half_or_the_likeliest() -> None:
    p = np.array([[0.9, 0.8, 0.7] + [0.0] * 5, [0.2, 0.4, 0.1] + [0.0] * 5, [0.1, 0.6, 0.0] + [0.0] * 5])
    assert learners.tag(p) == [(SKILLS[0], SKILLS[1]), (SKILLS[1],), (SKILLS[1],)]


def test_the_grid_picks_the_best_cross_validated_value_and_brackets_it() -> None:
    rng = np.random.default_rng(3)
    x = (rng.random((200, 30)) < 0.2).astype(float)
    y = (x[:, :3] + 0.3 * rng.standard_normal((200, 3)) > 0.5).astype(float)
    calls: list[float] = []

    def score(model: learners.Logistic, rows: np.ndarray) -> float:
        calls.append(float(np.abs(model.weights).sum()))
        return float(np.mean((model.probabilities(x[rows]) > 0.5) == y[rows]))

    model, report = learners.fit_on_grid("toy", x, y, score, 0)
    assert len(calls) == len(learners.L2_GRID) * learners.FOLDS
    assert sorted(report.values) == sorted(learners.L2_GRID) and report.best == report.values[int(np.argmax(report.scores))]
    assert np.mean((model.probabilities(x) > 0.5) == y) > 0.9
    assert min(learners.L2_GRID) < report.best < max(learners.L2_GRID) or report.at_edge


def test_a_stronger_penalty_shrinks_the_weights() -> None:
    rng = np.random.default_rng(4)
    x = (rng.random((100, 10)) < 0.3).astype(float)
    y = x[:, :2].copy()
    norms = [np.abs(learners.Logistic(x, y, l2, 0).weights).sum() for l2 in (1e-4, 1e-1, 10.0)]
    assert norms[0] > norms[1] > norms[2]


def test_the_pool_is_seeded_has_overlapping_strengths_and_reads_from_disk(tmp_path: Path) -> None:
    pool = train_pool(tmp_path / "a", seed=0)
    again = train_pool(tmp_path / "b", seed=0)
    queries = make_queries(300, np.random.default_rng(6))
    truth = np.array([q.answer for q in queries])
    accuracy = {}
    for name in ("expert_00", "expert_05"):
        a, b = predict(pool.store.get(name), queries), predict(again.store.get(name), queries)
        assert np.array_equal(a, b)
        accuracy[name] = a == truth
    assert pool.store.loads == 2 and (tmp_path / "a" / "expert_00.pt").exists()
    assert not np.array_equal(accuracy["expert_00"], accuracy["expert_05"])
    shares = [sum(1 for m in expert_mixes() if s in m) for s in SKILLS]
    assert shares == [8] * len(SKILLS)  # every skill is in the mix of 8 of the 16 experts
    own = make_skill_queries("addition", 300, np.random.default_rng(7))
    right = predict(pool.store.get("expert_00"), own) == np.array([q.answer for q in own])
    assert right.mean() > 0.3  # expert_00 trains mostly on addition: far above the 10% of a guess


def test_a_two_word_query_is_the_sum_of_the_expert_s_two_answers() -> None:
    model = PoolNet().eval()
    q2 = make_queries(200, np.random.default_rng(8), mixed_share=1.0)
    for q in q2[:20]:
        parts = [make_skill_queries(s, 1, np.random.default_rng(0))[0] for s in q.skills]
        singles = [type(p)(q.x, q.y, (w,), (s,), "", 0) for p, w, s in zip(parts, q.words, q.skills, strict=True)]
        assert predict(model, [q])[0] == sum(predict(model, singles)) % 10


def test_store_reads_pool_files(tmp_path: Path) -> None:
    ModelStore.save(PoolNet(), tmp_path / "x.pt")
    store = ModelStore(tmp_path, lambda _n: PoolNet())
    store.get("x")
    assert store.loads == 1
    with pytest.raises(FileNotFoundError):
        store.get("y")
