"""Whole runs on the shipped experts: reproducibility, exact load counts, claims, the tagger, bad input."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from pydantic import ValidationError

from models.common import no_progress
from models.skill_moe.evaluate import BASELINES, STRATEGIES
from models.skill_moe.params import Params
from models.skill_moe.result import Result
from models.skill_moe.run import run

evaluate_module = importlib.import_module("models.skill_moe.evaluate")
SMALL = {"queries": 80, "k": 3, "validation_per_skill": 20, "seeds": 1}


def _numbers(result: Result) -> dict[str, object]:
    """Everything but the measured times."""
    dumped = result.model_dump()
    for key in ("cost", "naive"):
        dumped.pop(key)
    for claim in dumped["claims"]:
        if claim["id"] == "runtime":
            claim.clear()
    return dumped


def test_same_seed_same_numbers_other_seed_other_numbers() -> None:
    a = run(Params(**SMALL, seed=3), no_progress)
    b = run(Params(**SMALL, seed=3), no_progress)
    c = run(Params(**SMALL, seed=4), no_progress)
    assert _numbers(a) == _numbers(b)
    assert _numbers(a) != _numbers(c)


@pytest.mark.parametrize("k", [1, 3, 6])
def test_loads_are_exact_for_every_strategy(k: int) -> None:
    result = run(Params(**{**SMALL, "k": k}, seed=1), no_progress)
    cost = {c.strategy: c for c in result.cost}
    assert cost["best_single"].loads == 1 and cost["majority_vote"].loads == 16
    assert cost["majority_vote"].pairs == 16 * SMALL["queries"]
    assert all(cost[s].pairs == SMALL["queries"] * k for s in ("instance_routing", "task_top_k", "trained_router"))
    used = sum(1 for p in result.experts if p.chosen > 0)
    assert cost["instance_routing"].loads == used  # batched: each chosen expert read from disk once
    assert result.naive.loads == SMALL["queries"] * k  # naive: one read per (query, expert) pair
    assert result.answers_identical
    assert sum(p.chosen for p in result.experts) == SMALL["queries"] * k


def test_claims_one_outcome_per_seed_and_standing_without_the_oracle() -> None:
    result = run(Params(**{**SMALL, "seeds": 2}), no_progress)
    assert [c.id for c in result.claims] == ["gain", "runtime"]
    assert all(len(c.seeds) == 2 for c in result.claims)
    assert result.standing is not None and "oracle router (true skills)" not in result.standing.scores
    gain = next(c for c in result.claims if c.id == "gain")
    for row, outcome in zip(result.per_seed, gain.seeds, strict=True):
        best = max(row.accuracy[b] for b in BASELINES)
        assert outcome.value == pytest.approx(100 * (row.accuracy["instance_routing"] - best))
    if result.verdict().tone == "success":
        assert not result.standing.beaten_by()


def test_where_the_tagger_is_right_skill_moe_routes_as_the_oracle_and_where_wrong_it_does_not() -> None:
    result = run(Params(**{**SMALL, "queries": 200}), no_progress)
    right, wrong = (next(g for g in result.by_tagger if g.group == name) for name in ("tagger right", "tagger wrong"))
    assert right.accuracy["instance_routing"] == right.accuracy["oracle_routing"]  # same skills, same draws
    assert wrong.accuracy["instance_routing"] != wrong.accuracy["oracle_routing"]  # the errors propagate
    assert right.queries + wrong.queries == 200
    assert result.skill_inference_accuracy == pytest.approx(right.queries / 200)
    assert result.form_tagger_accuracy < result.skill_inference_accuracy


def test_the_oracle_bounds_a_tagger_that_is_always_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tagger that names a wrong skill for every query leaves the oracle untouched and Skill-MoE far below it."""
    exact = run(Params(**SMALL), no_progress)
    real_tag = evaluate_module.tag
    monkeypatch.setattr(evaluate_module, "tag", lambda p, most=2: [("square",) if t[0] != "square" else ("addition",)
                                                                   for t in real_tag(p, most)])
    wrong = run(Params(**SMALL), no_progress)
    assert wrong.skill_inference_accuracy < 0.2
    assert wrong.accuracy["oracle_routing"] == exact.accuracy["oracle_routing"]
    assert wrong.accuracy["oracle_routing"] - wrong.accuracy["instance_routing"] > 0.15


def test_the_grids_are_reported_per_seed_for_tagger_and_router() -> None:
    result = run(Params(**{**SMALL, "seeds": 2}), no_progress)
    assert [g.tuned for g in result.grids] == ["skill tagger", "trained router"] * 2
    for g in result.grids:
        assert g.best == g.values[max(range(len(g.values)), key=lambda i: g.scores[i])]


def test_strategies_are_all_reported() -> None:
    result = run(Params(**SMALL), no_progress)
    assert set(result.accuracy) == set(STRATEGIES)
    assert all(0.0 <= v <= 1.0 for v in result.accuracy.values())
    assert np.isclose(sum(g.queries for g in result.per_skill), SMALL["queries"])


def test_bounds_are_enforced() -> None:
    for bad in ({"k": 9}, {"queries": 5}, {"skill_inference": "symbolic"}, {"extra": 1}, {"seeds": 0}, {"seeds": 7},
                {"validation_per_skill": 5}):
        with pytest.raises(ValidationError):
            Params(**bad)
