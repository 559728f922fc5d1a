"""Whole runs on the shipped experts: reproducibility, exact load counts, claims, the tagger, bad input."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from models.common import MethodInputError, no_progress
from models.common.tiny import ModelStore
from models.skill_moe.evaluate import BASELINES, STRATEGIES
from models.skill_moe.experts import ExpertNet
from models.skill_moe.params import Params
from models.skill_moe.result import CurvePoint, Result
from models.skill_moe.run import _break_even, run

run_module = importlib.import_module("models.skill_moe.run")  # the module, not the function
SMALL = {"queries": 80, "k": 3, "validation_per_skill": 20, "seeds": 1}


def _numbers(result: Result) -> dict[str, object]:
    """Everything but the measured times."""
    dumped = result.model_dump()
    for key in ("cost", "naive", "skill_inference_s"):
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
    assert [c.id for c in result.claims] == ["gain", "runtime", "robust"]
    assert all(len(c.seeds) == 2 for c in result.claims)
    assert result.standing is not None and "oracle router (true skill)" not in result.standing.scores
    gain = next(c for c in result.claims if c.id == "gain")
    for row, outcome in zip(result.per_seed, gain.seeds, strict=True):
        best = max(row.accuracy[b] for b in BASELINES)
        assert outcome.value == pytest.approx(100 * (row.accuracy["instance_routing"] - best))
    if result.verdict().tone == "success":
        assert not result.standing.beaten_by()


def test_with_exact_skills_skill_moe_is_the_oracle_and_the_curve_starts_there() -> None:
    result = run(Params(**SMALL), no_progress)
    assert result.skill_inference_accuracy == 1.0
    assert result.accuracy["instance_routing"] == result.accuracy["oracle_routing"]
    assert result.curve[0].realised_accuracy == 1.0
    assert result.curve[0].instance_routing == pytest.approx(result.accuracy["oracle_routing"])


def test_the_tagger_run_uses_the_curve_s_errors() -> None:
    result = run(Params(**{**SMALL, "skill_inference": "tagger", "tagger_accuracy": 0.8}), no_progress)
    point = next(p for p in result.curve if p.tagger_accuracy == 0.8)
    assert result.skill_inference_accuracy == pytest.approx(point.realised_accuracy)
    assert result.accuracy["instance_routing"] == pytest.approx(point.instance_routing)
    assert result.accuracy["instance_routing"] <= result.accuracy["oracle_routing"] + 0.05


def test_break_even_is_the_last_point_of_the_leading_run() -> None:
    def curve(gains: list[float]) -> list[CurvePoint]:
        return [CurvePoint(tagger_accuracy=a, realised_accuracy=a, instance_routing=0.5, best_baseline=0.5,
                           gain_points=g) for a, g in zip([1.0, 0.9, 0.8, 0.7], gains, strict=True)]

    assert _break_even(curve([3, 2, -1, 1])) == 0.9
    assert _break_even(curve([0, 2, 3, 4])) is None
    assert _break_even(curve([1, 1, 1, 1])) == 0.7


def test_strategies_are_all_reported() -> None:
    result = run(Params(**SMALL), no_progress)
    assert set(result.accuracy) == set(STRATEGIES)
    assert all(0.0 <= v <= 1.0 for v in result.accuracy.values())
    assert np.isclose(sum(g.queries for g in result.per_skill), SMALL["queries"])


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_headline_instance_routing_beats_task_level_by_5_points(seed: int) -> None:
    result = run(Params(seed=seed, seeds=1), no_progress)
    assert result.accuracy["instance_routing"] - result.accuracy["task_top_k"] >= 0.05, result.accuracy


def test_bounds_are_enforced() -> None:
    for bad in ({"k": 9}, {"queries": 5}, {"skill_inference": "llm"}, {"extra": 1}, {"seeds": 0}, {"seeds": 7},
                {"tagger_accuracy": 0.1}):
        with pytest.raises(ValidationError):
            Params(**bad)


def test_missing_weights_name_the_experts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_module, "expert_store", lambda device: ModelStore(tmp_path, lambda _n: ExpertNet()))
    with pytest.raises(MethodInputError, match="expert_00"):
        run(Params(**SMALL), no_progress)
