"""Guided scores against closed forms: Lemma 3.3's Stein target, the kernel's averaging set, Part I's running
cost, the baselines; the exact annealed law; the paired energy-distance terms; shared noise."""

from __future__ import annotations

import math

import torch

from models.common.sampling import GaussianMixture, VPSchedule, tweedie_mean
from models.common.sampling.kernels import median_bandwidth as common_bandwidth
from models.stein_guidance.fidelity import energy_distance, energy_units
from models.stein_guidance.guidance import GuidanceSettings, guided_score, median_bandwidth, stein_target
from models.stein_guidance.problem import GuidanceProblem, annealed_tilted_sample, build_problem, tilted_law
from models.stein_guidance.sampler import sample

_SCHEDULE = VPSchedule()


def _gaussian_problem() -> GuidanceProblem:
    prior = GaussianMixture.isotropic(torch.ones(1, dtype=torch.float64), torch.zeros(1, 2, dtype=torch.float64), 0.5)
    return GuidanceProblem(prior, torch.tensor([1.0, 0.5], dtype=torch.float64), 0.6, -10.0)


def _ring() -> GuidanceProblem:
    problem = build_problem(2, "cpu", torch.Generator().manual_seed(0))
    p = problem.prior
    prior = GaussianMixture(p.weights.double(), p.means.double(), p.covariances.double())
    return GuidanceProblem(prior, problem.target.double(), problem.hit_radius, problem.log_density_threshold)


def _score(method: str, problem: GuidanceProblem, x: torch.Tensor, t: float, scales: list[float],
           settings: GuidanceSettings) -> torch.Tensor:
    tensor = torch.tensor(scales, dtype=x.dtype)
    return guided_score(method, problem, _SCHEDULE, x, t, tensor, settings, torch.Generator().manual_seed(5))  # type: ignore[arg-type]


def test_dps_gradient_matches_the_linear_tweedie_map_of_a_gaussian_prior() -> None:
    # for N(0, s^2 I), Tweedie is x0 = k x_t with k = sqrt(abar) s^2 / (abar s^2 + 1 - abar)
    problem, t, s2 = _gaussian_problem(), 0.4, 0.25
    x = torch.randn(2, 5, 2, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    abar = _SCHEDULE.alpha_bar(t)
    k = math.sqrt(abar) * s2 / (abar * s2 + 1 - abar)
    got = _score("dps", problem, x, t, [1.0, 3.0], GuidanceSettings())
    expected = _SCHEDULE.marginal(problem.prior, t).score(x) + torch.tensor([1.0, 3.0])[:, None, None] * k * (
        problem.target - k * x)
    assert torch.allclose(got, expected, atol=1e-10)


def test_stein_target_is_the_exact_posterior_score_at_the_tweedie_point() -> None:
    """Lemma 3.3: s_0(x0) - eta s_t(x_t) equals grad_{x0} log p(x0 | x_t) = s_0(x0) + eta (x_t - eta x0) / gamma^2
    at x0 = Tweedie(x_t); it is particle j's own posterior (its own x_t)."""
    problem, t = _ring(), 0.35
    abar = _SCHEDULE.alpha_bar(t)
    x = 2.0 * torch.randn(1, 50, 2, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    score = _SCHEDULE.marginal(problem.prior, t).score(x)
    x0 = tweedie_mean(x, score, abar)
    exact = problem.prior.score(x0) + math.sqrt(abar) * (x - math.sqrt(abar) * x0) / (1 - abar)
    assert torch.allclose(stein_target(problem, x0, score, abar), exact, atol=1e-8)


def test_running_cost_is_minus_alpha_times_the_prior_score() -> None:
    """Part I: SDG without Stein is DPS at beta plus -alpha s_t (the annealed density p_t^(1-alpha))."""
    problem, t = _ring(), 0.5
    x = torch.randn(2, 30, 2, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    settings = GuidanceSettings(alpha=0.3)
    prior_score = _SCHEDULE.marginal(problem.prior, t).score(x)
    no_stein = _score("sdg_no_stein", problem, x, t, [2.0, 8.0], settings)
    dps = _score("dps", problem, x, t, [2.0, 8.0], settings)
    assert torch.allclose(no_stein - dps, -0.3 * prior_score, atol=1e-10)
    zero_step = GuidanceSettings(alpha=0.3, stein_step=0.0)
    assert torch.allclose(_score("sdg", problem, x, t, [2.0, 8.0], zero_step), no_stein, atol=1e-10)
    assert torch.allclose(_score("sdg_alpha0", problem, x, t, [2.0, 8.0], zero_step), dps, atol=1e-10)


def test_the_reward_does_not_enter_the_stein_target() -> None:
    """Part II (SDG minus SDG without Stein) is the same whatever beta: the Stein step targets p(x0 | x_t) alone."""
    problem, t = _ring(), 0.3
    x = 1.5 * torch.randn(1, 40, 2, generator=torch.Generator().manual_seed(3), dtype=torch.float64).expand(2, -1, -1)
    settings = GuidanceSettings(stein_step=4.0)
    part_two = _score("sdg", problem, x, t, [1.0, 50.0], settings) - _score("sdg_no_stein", problem, x, t, [1.0, 50.0],
                                                                           settings)
    assert float(part_two.abs().max()) > 1e-3
    assert torch.allclose(part_two[0], part_two[1], atol=1e-9)


def test_the_kernel_averages_over_the_particles_of_its_own_run_only() -> None:
    """Moving particle 7 of run 0 changes particle 0's Stein correction in run 0, not in run 1."""
    problem, t = _ring(), 0.3
    x = 1.5 * torch.randn(2, 20, 2, generator=torch.Generator().manual_seed(4), dtype=torch.float64)
    settings = GuidanceSettings(stein_step=4.0)
    moved = x.clone()
    moved[0, 7] += 0.3
    before, after = (_score("sdg", problem, y, t, [4.0, 4.0], settings) for y in (x, moved))
    assert float((before[0, 0] - after[0, 0]).abs().max()) > 1e-6
    assert torch.equal(before[1], after[1])


def test_bandwidth_is_the_median_over_log_n() -> None:
    x = torch.randn(3, 41, 2, generator=torch.Generator().manual_seed(5), dtype=torch.float64)
    common = common_bandwidth(x) * math.log(42) / math.log(41)  # the shared one divides by log(n + 1)
    assert torch.allclose(median_bandwidth(x), common, rtol=1e-10)


def test_annealed_law_matches_importance_sampling() -> None:
    """Exact draws of p^(1-alpha) exp(beta r) against brute force: weights p^(1-alpha) exp(beta r) / proposal."""
    problem = build_problem(2, "cpu", torch.Generator().manual_seed(0))
    draws = annealed_tilted_sample(problem, 0.5, 4.0, 40_000, torch.Generator().manual_seed(1))
    broad = 5.0 * torch.rand(400_000, 2, generator=torch.Generator().manual_seed(2)) * 2 - 5.0  # uniform on [-5, 5]^2
    log_w = 0.5 * problem.prior.log_prob(broad) + 4.0 * problem.reward(broad)
    w = torch.softmax(log_w.double(), 0).float()
    assert torch.allclose(draws.mean(0), (w[:, None] * broad).sum(0), atol=0.03)
    assert abs(float(problem.hits(draws).float().mean()) - float((w * problem.hits(broad).float()).sum())) < 0.01
    same = annealed_tilted_sample(problem, 0.0, 4.0, 40_000, torch.Generator().manual_seed(3))
    assert torch.allclose(same.mean(0), tilted_law(problem, 4.0).mean(), atol=0.03)


def test_energy_units_average_to_the_energy_distance() -> None:
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(300, 2, generator=gen), torch.randn(500, 2, generator=gen) + 0.4
    assert abs(float(energy_units(a, b).mean()) - float(energy_distance(a, b))) < 1e-5
    assert abs(float(energy_distance(a.unsqueeze(0), (b - 0.4).unsqueeze(0))[0])) < 0.02 < float(energy_distance(a, b))


def test_methods_share_start_and_increments() -> None:
    """DPS at lambda = 0 on an equally seeded generator ends exactly where the unguided sampler does."""
    problem, settings = build_problem(2, "cpu", torch.Generator().manual_seed(0)), GuidanceSettings()
    free = sample(None, problem, [0.0], 64, 20, settings, torch.Generator().manual_seed(9), lambda k: None)
    dps = sample("dps", problem, [0.0], 64, 20, settings, torch.Generator().manual_seed(9), lambda k: None,
                 aux=torch.Generator().manual_seed(1))
    assert torch.allclose(free.final, dps.final, atol=1e-5)


def test_unguided_sampler_reproduces_the_prior() -> None:
    problem = build_problem(2, "cpu", torch.Generator().manual_seed(0))
    run = sample(None, problem, [0.0], 400, 60, GuidanceSettings(), torch.Generator().manual_seed(1), lambda k: None)
    assert 0.95 <= float(problem.on_manifold(run.final).float().mean()) <= 1.0
    assert float(problem.successes(run.final).float().mean()) < 0.03
    assert run.trajectories.shape[1] == len(run.times)


def test_threshold_is_the_one_percent_quantile() -> None:
    problem = build_problem(8, "cpu", torch.Generator().manual_seed(0))
    draws = problem.prior.sample(50_000, torch.Generator().manual_seed(9))
    assert abs(float(problem.on_manifold(draws).float().mean()) - 0.99) < 0.003
    plane = build_problem(2, "cpu", torch.Generator().manual_seed(0))
    assert not bool(plane.on_manifold(plane.target.unsqueeze(0))[0])
