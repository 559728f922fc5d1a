"""The mean-field flow against the full logit flow, quadrature and the bandit's expected step."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import quad

from models.rlvr_noise.dynamics import (
    Verifier,
    bandit_grpo,
    full_logit_drift,
    mean_field_drift,
    mean_field_path,
)


def _symmetric_logits(modes: int, x: float) -> np.ndarray:
    theta = np.zeros(2 * modes)
    theta[modes:] = np.log(x / (1 - x))
    return theta


@pytest.mark.parametrize(("tpr", "fpr", "x", "modes"), [(0.8, 0.3, 0.5, 4), (0.3, 0.6, 0.2, 2), (1.0, 0.0, 0.9, 7)])
def test_one_dimensional_drift_is_the_full_logit_flow_pushed_through_the_softmax(tpr, fpr, x, modes) -> None:
    theta = _symmetric_logits(modes, x)
    pi = np.exp(theta) / np.exp(theta).sum()
    dtheta = full_logit_drift(theta, tpr, fpr, lr=0.7, modes=modes)
    dpi = pi * (dtheta - pi @ dtheta)  # softmax Jacobian
    expected = dpi[modes:].sum()
    got = mean_field_drift(np.array([x]), np.array([tpr]), np.array([fpr]), lr=0.7, modes=modes)[0]
    assert got == pytest.approx(expected, rel=1e-10)


def test_drift_has_the_sign_of_minus_j_and_vanishes_at_j_zero() -> None:
    x = np.linspace(0.05, 0.95, 19)
    for tpr, fpr in [(0.9, 0.2), (0.2, 0.5), (0.4, 0.4)]:
        drift = mean_field_drift(x, np.full_like(x, tpr), np.full_like(x, fpr), 1.0, 3)
        assert np.all(np.sign(drift) == -np.sign(tpr - fpr))


def test_hitting_time_of_the_ode_matches_quadrature() -> None:
    tpr, fpr, lr, modes, x0 = 0.75, 0.25, 0.5, 3, 0.6
    path = mean_field_path(np.array([tpr]), np.array([fpr]), x0, 800, lr, modes)[0]

    def dt_dx(x: float) -> float:
        return -1.0 / mean_field_drift(np.array([x]), np.array([tpr]), np.array([fpr]), lr, modes)[0]

    target = 0.05
    t_exact, _ = quad(dt_dx, target, x0)  # time to go from x0 down to 0.05
    crossing = np.interp(target, path[::-1], np.arange(path.size)[::-1])
    assert crossing == pytest.approx(t_exact, rel=2e-3)


def test_bandit_expected_step_matches_the_mean_field_for_large_groups() -> None:
    modes, x0, lr = 2, 0.5, 0.01
    verifier = Verifier.from_j(0.4, 0.2)
    rngs = [np.random.default_rng([3, s]) for s in range(4000)]
    run = bandit_grpo(verifier, steps=1, group_size=64, modes=modes, lr=lr, x0=x0, rngs=rngs)
    step = run.incorrect_mass[:, 1] - x0
    predicted = mean_field_drift(np.array([x0]), np.array([verifier.tpr]), np.array([verifier.fpr]), lr, modes)[0]
    se = step.std() / np.sqrt(step.size)
    assert abs(step.mean() - predicted) < 4 * se + 0.05 * abs(predicted)


def test_bandit_is_reproducible_and_independent_per_seed() -> None:
    verifier = Verifier.from_j(0.2, 0.3)
    kwargs = {"steps": 50, "group_size": 4, "modes": 2, "lr": 1.0, "x0": 0.5}
    one = bandit_grpo(verifier, rngs=[np.random.default_rng(s) for s in range(3)], **kwargs).incorrect_mass
    two = bandit_grpo(verifier, rngs=[np.random.default_rng(s) for s in range(3)], **kwargs).incorrect_mass
    alone = bandit_grpo(verifier, rngs=[np.random.default_rng(1)], **kwargs).incorrect_mass
    assert np.array_equal(one, two)
    assert np.array_equal(one[1], alone[0])
    assert np.all((one >= 0) & (one <= 1))
