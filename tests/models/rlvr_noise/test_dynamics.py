"""The mean field against the full logit flow, the rate law against a closed form, the J = 0 diffusion
against Monte Carlo, and the vectorised GRPO bandit's reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from models.rlvr_noise.dynamics import (
    Verifier,
    bandit_grpo,
    full_logit_drift,
    mean_field_drift,
    mean_field_path,
    neutral_diffusion,
    rate_law_time,
)
from models.rlvr_noise.run import hitting_time


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
    got = mean_field_drift(np.array([x]), np.array([tpr]), np.array([fpr]), lr=0.7, modes=modes)[0]
    assert got == pytest.approx(dpi[modes:].sum(), rel=1e-10)


def test_drift_has_the_sign_of_minus_j() -> None:
    x = np.linspace(0.05, 0.95, 19)
    for tpr, fpr in [(0.9, 0.2), (0.2, 0.5), (0.4, 0.4)]:
        drift = mean_field_drift(x, np.full_like(x, tpr), np.full_like(x, fpr), 1.0, 3)
        assert np.all(np.sign(drift) == -np.sign(tpr - fpr))


def test_mean_field_path_is_the_expected_step_iterated_on_all_logits() -> None:
    tpr, fpr, lr, modes, x0, steps = 0.75, 0.25, 0.6, 3, 0.6, 40
    theta = _symmetric_logits(modes, x0)
    brute = []
    for _ in range(steps + 1):
        pi = np.exp(theta - theta.max())
        brute.append(pi[modes:].sum() / pi.sum())
        theta = theta + full_logit_drift(theta, tpr, fpr, lr, modes)
    path = mean_field_path(np.array([tpr]), np.array([fpr]), x0, steps, lr, modes)[0]
    assert np.allclose(path, brute, atol=1e-12)


def test_rate_law_is_the_closed_form_for_a_clean_verifier() -> None:
    # TPR = 1, FPR = 0: sigma = sqrt(x(1-x)) and the integrand (x(1-x))^(-3/2) has antiderivative 2(2x-1)/sqrt(x(1-x))
    lr, modes, x0, low = 0.5, 3, 0.6, 0.05
    antiderivative = lambda x: 2 * (2 * x - 1) / np.sqrt(x * (1 - x))  # noqa: E731
    exact = modes / (2 * lr) * (antiderivative(x0) - antiderivative(low))
    assert rate_law_time(Verifier(fpr=0.0, fnr=0.0), lr, modes, x0, low) == pytest.approx(exact, rel=1e-9)
    assert rate_law_time(Verifier.from_j(0.0, 0.3), lr, modes, x0, low) is None  # J = 0 never learns
    assert rate_law_time(Verifier.from_j(-0.2, 0.3), lr, modes, x0, low) is None


def test_rate_law_scales_as_one_over_j_times_sigma_and_matches_the_mean_field_at_small_steps() -> None:
    lr, modes, x0 = 0.05, 4, 0.5
    for j in (0.15, 0.5):
        verifier = Verifier.from_j(j, 0.3)
        law = rate_law_time(verifier, lr, modes, x0, 0.05)
        assert law is not None
        path = mean_field_path(np.array([verifier.tpr]), np.array([verifier.fpr]), x0, int(1.2 * law), lr, modes)[0]
        hit = hitting_time(path)
        assert hit is not None and hit == pytest.approx(law, rel=0.01)
    assert rate_law_time(Verifier.from_j(0.3, 0.3), 0.1, 4, 0.5, 0.05) == pytest.approx(
        2 * rate_law_time(Verifier.from_j(0.3, 0.3), 0.2, 4, 0.5, 0.05))  # type: ignore[operator]


@pytest.mark.parametrize(("p", "x0", "modes", "group"), [(0.3, 0.5, 4, 8), (0.6, 0.25, 2, 4)])
def test_j_zero_one_step_variance_is_the_diffusion_limit(p: float, x0: float, modes: int, group: int) -> None:
    lr, runs = 0.02, 4000
    limit = neutral_diffusion(p, x0, lr, modes, group)
    mass = bandit_grpo(Verifier(fpr=p, fnr=1 - p), steps=1, group_size=group, modes=modes, lr=lr, x0=x0,
                       rngs=[np.random.default_rng([9, s]) for s in range(runs)])
    step = mass[:, 1] - x0
    assert step.var() == pytest.approx(limit.variance_per_step, rel=4 * np.sqrt(2 / runs))
    assert abs(step.mean()) < 4 * step.std() / np.sqrt(runs)
    assert neutral_diffusion(p, 0.5, lr, modes, group).drift_per_step == pytest.approx(0.0, abs=1e-15)  # symmetric
    assert neutral_diffusion(0.0, x0, lr, modes, group).variance_per_step == 0.0  # nobody is ever rewarded


def test_bandit_expected_step_matches_the_mean_field_for_large_groups() -> None:
    modes, x0, lr = 2, 0.5, 0.01
    verifier = Verifier.from_j(0.4, 0.2)
    mass = bandit_grpo(verifier, steps=1, group_size=64, modes=modes, lr=lr, x0=x0,
                       rngs=[np.random.default_rng([3, s]) for s in range(4000)])
    step = mass[:, 1] - x0
    predicted = mean_field_drift(np.array([x0]), np.array([verifier.tpr]), np.array([verifier.fpr]), lr, modes)[0]
    assert abs(step.mean() - predicted) < 4 * step.std() / np.sqrt(step.size) + 0.05 * abs(predicted)


def test_bandit_is_reproducible_independent_per_path_and_per_path_verifiers_match() -> None:
    a, b = Verifier.from_j(0.2, 0.3), Verifier.from_j(-0.2, 0.3)
    kwargs = {"steps": 50, "group_size": 4, "modes": 2, "lr": 1.0, "x0": 0.5}
    one = bandit_grpo(a, rngs=[np.random.default_rng(s) for s in range(3)], **kwargs)
    two = bandit_grpo(a, rngs=[np.random.default_rng(s) for s in range(3)], **kwargs)
    alone = bandit_grpo(a, rngs=[np.random.default_rng(1)], chunk=7, **kwargs)  # chunking does not change numbers
    mixed = bandit_grpo([a, b], rngs=[np.random.default_rng(1), np.random.default_rng(2)], **kwargs)
    other = bandit_grpo(b, rngs=[np.random.default_rng(2)], **kwargs)
    assert np.array_equal(one, two) and np.array_equal(one[1], alone[0])
    assert np.array_equal(mixed[0], one[1]) and np.array_equal(mixed[1], other[0])
    assert np.all((one >= 0) & (one <= 1))
    with pytest.raises(ValueError, match="verifiers for"):
        bandit_grpo([a, b], rngs=[np.random.default_rng(1)], **kwargs)
