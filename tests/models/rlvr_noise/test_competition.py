"""The within-correct-mode competition: the concentration clock, the replicator inside the correct class, the
decoupling of the incorrect mass, and the claims refusing a broken clock or a winner that does not win."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from models.common import no_progress
from models.common.sweeps import cell_rng
from models.rlvr_noise import SPEC
from models.rlvr_noise.dynamics import (
    Verifier,
    bandit_grpo,
    concentration_clock,
    full_logit_drift,
    logits_from_shares,
    mean_field_path,
    mean_field_policy,
)
from models.rlvr_noise.params import Params

COMP = importlib.import_module("models.rlvr_noise.competition")
SMALL = {"steps": 300, "bandit_seeds": 8, "phase_grid": 5, "j_values": [-0.3, 0.0, 0.3, 0.6], "seeds": 1,
         "learning_rate": 0.5, "group_size": 32}


def _claims(**overrides: object) -> dict:
    result = SPEC.run(Params.model_validate({**SMALL, **overrides}), no_progress)
    return {c.id: c for c in result.claims}


def test_logits_from_shares_give_the_requested_policy() -> None:
    theta = logits_from_shares(0.3, np.array([3.0, 1.0]))
    pi = np.exp(theta) / np.exp(theta).sum()
    assert np.allclose(pi, [0.525, 0.175, 0.15, 0.15])


def test_the_clock_is_the_step_count_for_equal_shares_and_faster_otherwise() -> None:
    equal = mean_field_policy(logits_from_shares(0.5, np.ones(4)), 0.9, 0.3, 50, 0.25)
    assert np.allclose(concentration_clock(equal), np.arange(51))
    unequal = mean_field_policy(logits_from_shares(0.5, np.array([0.6, 0.2, 0.1, 0.1])), 0.9, 0.3, 50, 0.25)
    tau = concentration_clock(unequal)
    assert tau[1] == pytest.approx(2 * (0.42 + 0.25))  # (m/2)(H_good + H_bad) at the start
    assert np.all(np.diff(tau) >= 1.0)


def test_one_expected_step_is_a_replicator_with_fitness_equal_to_the_share() -> None:
    shares, x0, tpr, fpr, lr = np.array([0.5, 0.3, 0.2]), 0.4, 0.85, 0.25, 0.3
    theta = logits_from_shares(x0, shares)
    after = theta + full_logit_drift(theta, tpr, fpr, lr, 3)
    q = (1 - x0) * tpr + x0 * fpr
    sigma = np.sqrt(q * (1 - q))
    for i, j in ((0, 1), (0, 2), (1, 2)):
        change = (after[i] - after[j]) - (theta[i] - theta[j])  # log(s_i / s_j) after minus before
        assert change == pytest.approx(lr * (tpr - fpr) * x0 * (1 - x0) * (shares[i] - shares[j]) / sigma, rel=1e-12)


def test_the_incorrect_mass_follows_the_equal_split_law_on_the_clock_not_on_the_steps() -> None:
    v = Verifier.from_j(0.5, 0.3)
    policy = mean_field_policy(logits_from_shares(0.5, np.array([0.6, 0.2, 0.1, 0.1])), v.tpr, v.fpr, 400, 0.05)
    x, tau = policy[:, 4:].sum(axis=1), concentration_clock(policy)
    equal = mean_field_path(np.array([v.tpr]), np.array([v.fpr]), 0.5, int(tau[-1]) + 2, 0.05, 4)[0]
    on_clock = np.interp(tau, np.arange(equal.size), equal)
    assert np.abs(x - on_clock).max() < 2e-3
    assert np.abs(x - equal[: x.size]).max() > 0.05  # the step clock is far off: the competition matters


def test_bandit_records_the_policy_and_the_favoured_mode_wins() -> None:
    v = Verifier.from_j(0.5, 0.3)
    theta = logits_from_shares(0.5, np.array([0.6, 0.2, 0.1, 0.1]))
    policy = np.empty((4, 301, 8))
    mass = bandit_grpo(v, steps=300, group_size=32, modes=4, lr=0.5, x0=0.5, initial_logits=theta,
                       rngs=[cell_rng(1, 0, r) for r in range(4)], policy_out=policy)
    assert np.allclose(policy[:, :, 4:].sum(axis=2), mass) and np.allclose(policy.sum(axis=2), 1.0)
    assert np.allclose(policy[:, 0, :4] / policy[:, 0, :4].sum(axis=1, keepdims=True), [0.6, 0.2, 0.1, 0.1])
    default = bandit_grpo(v, steps=5, group_size=8, modes=4, lr=0.5, x0=0.5, rngs=[cell_rng(1, 0, 0)])
    equal = bandit_grpo(v, steps=5, group_size=8, modes=4, lr=0.5, x0=0.5, rngs=[cell_rng(1, 0, 0)],
                        initial_logits=logits_from_shares(0.5, np.ones(4)))
    assert np.allclose(default, equal)


def test_decoupling_and_winner_measure_what_they_say() -> None:
    result = SPEC.run(Params.model_validate(SMALL), no_progress)
    claims = {c.id: c for c in result.claims}
    c, decoupling, winner = result.competition, claims["decoupling"], claims["winner"]
    assert decoupling.seeds[0].value == pytest.approx(c.hit_clock / c.rate_law - 1, rel=1e-9)
    assert decoupling.null.value == pytest.approx(c.hit_steps / c.rate_law - 1, rel=1e-9)
    assert decoupling.seeds[0].units == 8 and winner.seeds[0].units == 8  # one unit per GRPO run
    assert winner.seeds[0].value == pytest.approx(c.favoured_bandit[-1], abs=1e-6)
    assert winner.null.value == pytest.approx(c.favoured_neutral[-1], abs=1e-6)


def test_decoupling_fails_when_the_clock_is_the_step_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(COMP, "concentration_clock", lambda policy: np.broadcast_to(
        np.arange(policy.shape[-2], dtype=float), policy.shape[:-1]).copy())
    claims = _claims()
    assert claims["decoupling"].holds == "not_held"


def test_winner_fails_when_the_favoured_mode_is_not_favoured() -> None:
    claims = _claims(favoured_share=0.26, steps=40)
    assert claims["winner"].holds == "not_held"  # barely favoured and few steps: no takeover


def test_shares_must_match_the_correct_modes() -> None:
    with pytest.raises(ValueError, match="not above 1/m"):
        Params(favoured_share=0.25)
    assert Params(favoured_share=0.4).correct_shares() == pytest.approx([0.4, 0.2, 0.2, 0.2])
    assert Params(modes_per_class=1).correct_shares() == [1.0]
    with pytest.raises(ValueError, match="competition_j"):
        Params(fpr=0.6, competition_j=0.5)
