"""Guided scores against closed forms, the sampler against the prior, the exact reference curve."""

from __future__ import annotations

import math

import torch

from models.common.sampling import GaussianMixture, VPSchedule
from models.stein_guidance.claims import measure
from models.stein_guidance.fidelity import energy_distance
from models.stein_guidance.guidance import GuidanceSettings, _corrected_x0, guided_score
from models.stein_guidance.problem import GuidanceProblem, build_problem, exact_posterior_curve, tilted_law
from models.stein_guidance.result import SeedSummary
from models.stein_guidance.sampler import sample


def _gaussian_problem() -> GuidanceProblem:
    prior = GaussianMixture.isotropic(torch.ones(1, dtype=torch.float64), torch.zeros(1, 2, dtype=torch.float64), 0.5)
    return GuidanceProblem(prior, torch.tensor([1.0, 0.5], dtype=torch.float64), 0.6, -10.0)


def test_dps_gradient_matches_the_linear_tweedie_map_of_a_gaussian_prior() -> None:
    # for N(0, s^2 I), Tweedie is x0 = k x_t with k = sqrt(abar) s^2 / (abar s^2 + 1 - abar), so
    # grad_{x_t} lambda r(x0) = lambda k (c - x0)
    problem, schedule, t, s2 = _gaussian_problem(), VPSchedule(), 0.4, 0.25
    x = torch.randn(2, 5, 2, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    scales = torch.tensor([1.0, 3.0], dtype=torch.float64)
    abar = schedule.alpha_bar(t)
    k = math.sqrt(abar) * s2 / (abar * s2 + 1 - abar)
    prior_score = schedule.marginal(problem.prior, t).score(x)
    got = guided_score("dps", problem, schedule, x, t, scales, GuidanceSettings(), torch.Generator())
    expected = prior_score + scales[:, None, None] * k * (problem.target - k * x)
    assert torch.allclose(got, expected, atol=1e-10)


def test_zero_stein_step_renoises_back_to_the_prior_score() -> None:
    problem, schedule = _gaussian_problem(), VPSchedule()
    x = torch.randn(1, 6, 2, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    scales = torch.tensor([5.0], dtype=torch.float64)
    settings = GuidanceSettings(stein_step=0.0, running_cost_weight=0.0)
    got = guided_score("sdg", problem, schedule, x, 0.3, scales, settings, torch.Generator())
    assert torch.allclose(got, schedule.marginal(problem.prior, 0.3).score(x), atol=1e-10)


def test_stein_step_moves_the_score_towards_the_reward() -> None:
    problem, schedule = _gaussian_problem(), VPSchedule()
    x = torch.randn(1, 40, 2, generator=torch.Generator().manual_seed(2), dtype=torch.float64) * 0.3
    scales = torch.tensor([10.0], dtype=torch.float64)
    settings = GuidanceSettings(stein_step=0.5, running_cost_weight=0.0, component_variance=0.25)
    got = guided_score("sdg", problem, schedule, x, 0.2, scales, settings, torch.Generator())
    extra = got - schedule.marginal(problem.prior, 0.2).score(x)
    assert float((extra.mean((0, 1)) * problem.target).sum()) > 0


def test_unguided_sampler_reproduces_the_prior() -> None:
    problem = build_problem(2, "cpu", torch.Generator().manual_seed(0))
    run = sample(None, problem, [0.0], 400, 60, GuidanceSettings(), torch.Generator().manual_seed(1), lambda k: None)
    on = float(problem.on_manifold(run.final).float().mean())
    assert 0.95 <= on <= 1.0
    assert float(problem.hits(run.final).float().mean()) < 0.03
    assert run.trajectories.shape[1] == len(run.times)


def test_exact_curve_starts_at_the_prior_and_trades_manifold_for_hits() -> None:
    problem = build_problem(2, "cpu", torch.Generator().manual_seed(0))
    curve = exact_posterior_curve(problem, [0.0, 8.0, 64.0], torch.Generator().manual_seed(3), draws=50_000)
    assert curve[0][0] < 0.01 and abs(curve[0][1] - 0.99) < 0.01
    assert curve[0][0] < curve[1][0] < curve[2][0]
    assert curve[2][1] < curve[0][1]


def test_threshold_is_the_one_percent_quantile() -> None:
    problem = build_problem(8, "cpu", torch.Generator().manual_seed(0))
    draws = problem.prior.sample(50_000, torch.Generator().manual_seed(9))
    assert abs(float(problem.on_manifold(draws).float().mean()) - 0.99) < 0.003
    # in 2-D the target itself lies outside the 99% region (in 8-D, with the six unobserved
    # coordinates at their mode, it lies just inside it: the 8-D task is easier)
    plane = build_problem(2, "cpu", torch.Generator().manual_seed(0))
    assert not bool(plane.on_manifold(plane.target.unsqueeze(0))[0])
    assert bool(problem.on_manifold(torch.cat([problem.target, torch.zeros(6)]).unsqueeze(0))[0])


def test_tilted_law_is_the_importance_weighted_prior() -> None:
    """The closed-form posterior agrees with brute force: prior draws reweighted by exp(lambda r)."""
    problem = build_problem(2, "cpu", torch.Generator().manual_seed(0))
    law = tilted_law(problem, 8.0)
    x = problem.prior.sample(200_000, torch.Generator().manual_seed(1))
    w = torch.softmax(8.0 * problem.reward(x), dim=0)
    brute = (w[:, None] * x).sum(0)
    assert torch.allclose(law.mean(), brute, atol=0.03)
    assert torch.equal(tilted_law(problem, 0.0).means, problem.prior.means)


def test_energy_distance_is_about_zero_for_the_same_law_and_positive_otherwise() -> None:
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(1, 400, 2, generator=gen), torch.randn(1, 1000, 2, generator=gen)
    same = float(energy_distance(a, b)[0])
    shifted = float(energy_distance(a + 0.5, b)[0])
    assert abs(same) < 0.02 < shifted


def test_claims_on_synthetic_summaries() -> None:
    def summary(sdg: float, no_stein: float, on_sdg: float) -> SeedSummary:
        return SeedSummary(seed=0, energy_distance={"sdg": [sdg, sdg], "dps": [0.05, 0.05], "sdg_no_stein": [no_stein] * 2},
                           dps_tuned=[0.01, 0.01], dps_tuned_scale=[2.0, 2.0], exact_floor=[0.0, 0.0],
                           matched_hit_rate=0.5, on_manifold_at_match={"sdg": on_sdg, "dps": 0.84},
                           exact_at_match=0.89, unguided_on_manifold=0.99)
    good = measure(summary(0.005, 0.008, 0.88))
    assert good["fidelity_tuned"].value is not None and good["fidelity_tuned"].value < 0
    assert good["stein_share"].value is not None and good["stein_share"].value < 0
    assert good["matched"].value is not None and abs(good["matched"].value - 0.8) < 1e-9 and good["matched"].floor_ok
    bad = measure(summary(0.02, 0.008, 0.85))
    assert bad["fidelity_tuned"].value is not None and bad["fidelity_tuned"].value > 0
    assert bad["matched"].value is not None and bad["matched"].value < 0.5
    # the exact posterior itself passes the matched mark
    exact = measure(summary(0.0, 0.008, 0.89))
    assert exact["matched"].value == 1.0


def test_stein_step_is_measured_in_the_local_posterior_scale() -> None:
    """Near t = 0 the posterior of x0 given x_t is narrow, so the Stein step on x0 shrinks with it."""
    problem = _gaussian_problem()
    x = torch.randn(1, 30, 2, generator=torch.Generator().manual_seed(4), dtype=torch.float64) * 0.5
    scales = torch.tensor([16.0], dtype=torch.float64)
    settings = GuidanceSettings(component_variance=0.25)
    moves = []
    for abar in (0.5, 0.999):
        corrected = _corrected_x0("sdg", problem, x, x, abar, scales, settings, torch.Generator())
        moves.append(float((corrected - x).norm(dim=-1).mean()))
    assert moves[1] < 0.05 * moves[0]
