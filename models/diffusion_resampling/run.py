"""run(params, progress): per seed, moments and derivatives, the ODE check, filter gradients, estimation."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import torch

from models.common.claims import ClaimResult, Standing, evaluate_claims
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.diffusion_resampling.benchmark import BenchmarkData, benchmark_data, evaluate, grid_reports, tune
from models.diffusion_resampling.claims import CLAIMS, measure
from models.diffusion_resampling.filtering import (
    TRUE_THETA,
    gradient_ascent,
    gradient_stats,
    kalman_log_likelihood,
    kalman_mle,
    lgssm,
    paired_bootstrap,
)
from models.diffusion_resampling.landscape import LandscapeRun
from models.diffusion_resampling.moments import (
    draw_weighted_sets,
    graph_length,
    importance_errors,
    moment_rmse,
    posterior_problem,
    run_moment_cell,
    weighted_set_derivative,
)
from models.diffusion_resampling.params import MAX_GRAPH_ENTRIES, MAX_MOMENT_WORK, Params
from models.diffusion_resampling.resamplers import RESAMPLER_LABELS, ResamplerSettings, resampler
from models.diffusion_resampling.result import (
    BenchmarkScores,
    Convergence,
    DerivativePoint,
    EstimationSummary,
    GradientSummary,
    MomentPoint,
    PairedComparison,
    Result,
    SeedSummary,
    Tuning,
)

__all__ = ["BOOTSTRAP_DRAWS", "ESTIMATION_START", "run"]

ESTIMATION_START = 0.1  # theta where gradient ascent starts (the true value is 0.5)
BOOTSTRAP_DRAWS = 2000
_STAGES = {"moments": (0.0, 0.2), "benchmark": (0.2, 0.45), "gradient": (0.45, 0.9), "estimation": (0.9, 1.0)}
Settings = dict[str, ResamplerSettings]


def _generator(device: str, *key: int) -> torch.Generator:
    """A torch generator seeded from (seed, stage, index...) so cells are independent and reproducible."""
    seed = int(np.random.SeedSequence(list(key)).generate_state(1, dtype=np.uint64)[0] % (2**63 - 1))
    return torch.Generator(device=device).manual_seed(seed)


def _check_budget(params: Params) -> None:
    work = params.moment_repeats * max(params.particles) ** 2
    if work > MAX_MOMENT_WORK:
        raise MethodInputError(
            f"moment_repeats x max(particles)^2 = {work:,} is above the limit of {MAX_MOMENT_WORK:,}: "
            "lower moment_repeats or the largest N"
        )


def _check_graph(params: Params) -> None:
    settings = _moment_settings(params, {})
    longest = max(graph_length(name, settings[name]) for name in params.resamplers)
    entries = max(params.particles) ** 2 * longest
    if entries > MAX_GRAPH_ENTRIES:
        raise MethodInputError(
            f"max(particles)^2 x (2 x ode_steps or 2 x sinkhorn_iterations) = {entries:,} is above the limit of "
            f"{MAX_GRAPH_ENTRIES:,} (the autograd graph of one resampling): lower the largest N, ode_steps or "
            "sinkhorn_iterations"
        )


def _base(params: Params) -> ResamplerSettings:
    return ResamplerSettings(sinkhorn_iterations=params.sinkhorn_iterations)


def _moment_settings(params: Params, tuned: Settings) -> Settings:
    """The tuned settings, but the diffusion of the moment experiment runs the page's ODE steps and T."""
    out: Settings = {name: tuned.get(name, _base(params)) for name in params.resamplers}
    if "diffusion" in out:
        out["diffusion"] = replace(out["diffusion"], ode_steps=params.ode_steps, diffusion_time=params.diffusion_time)
    return out


@dataclass
class _Moments:
    errors: dict[str, list[MomentPoint]]
    importance: list[MomentPoint]
    derivatives: dict[str, list[DerivativePoint]]
    importance_derivative: list[DerivativePoint]
    exact_derivative: float
    convergence: Convergence | None


def _moments(params: Params, tuned: Settings, seed: int, device: str, progress: Progress) -> _Moments:
    problem = posterior_problem(device)
    settings = _moment_settings(params, tuned)
    out = _Moments({name: [] for name in params.resamplers}, [], {name: [] for name in params.resamplers}, [],
                   problem.mean_derivative(), None)
    cells = len(params.particles) * len(params.resamplers)
    done = 0
    for n in params.particles:
        log_w, x = draw_weighted_sets(problem, n, params.moment_repeats, _generator(device, seed, 1, n))
        rmse, mean_rmse, cov_rmse = importance_errors(problem, log_w, x)
        out.importance.append(MomentPoint(n=n, rmse=rmse, mean_rmse=mean_rmse, cov_rmse=cov_rmse))
        own = weighted_set_derivative(problem, x)
        out.importance_derivative.append(DerivativePoint(
            n=n, value=float(own.mean()), rmse=float((own - out.exact_derivative).pow(2).mean().sqrt()),
            estimator="autograd (self-normalised weights)"))
        for index, name in enumerate(params.resamplers):
            cell = run_moment_cell(problem, x, name, settings[name], _generator(device, seed, 2, n, index))
            out.errors[name].append(MomentPoint(n=n, rmse=cell.rmse, mean_rmse=cell.mean_rmse, cov_rmse=cell.cov_rmse))
            out.derivatives[name].append(
                DerivativePoint(n=n, value=cell.derivative, rmse=cell.derivative_rmse, estimator=cell.estimator))
            done += 1
            progress(done / (cells + 1), f"moments: {name} at N = {n}")
        if n == params.particles[-1] and "diffusion" in params.resamplers:
            doubled = replace(settings["diffusion"], ode_steps=2 * params.ode_steps)
            same_draws = _generator(device, seed, 2, n, params.resamplers.index("diffusion"))  # as the cell's
            again = moment_rmse(problem, x, "diffusion", doubled, same_draws)
            now = out.errors["diffusion"][-1].rmse
            out.convergence = Convergence(n=n, steps=params.ode_steps, rmse=now, doubled_rmse=again,
                                          relative_change=abs(now - again) / again)
    progress(1.0, "moments: ODE convergence check")
    return out


@dataclass
class _Gradients:
    observations: torch.Tensor
    kalman_ll: float
    kalman_grad: float
    summaries: dict[str, GradientSummary]
    comparisons: dict[str, PairedComparison]


def _gradients(params: Params, settings: Settings, seed: int, device: str, progress: Progress) -> _Gradients:
    """Every resampler's R filters share the observations and the propagation noise (paired by filter)."""
    _, observations = lgssm(TRUE_THETA, device).simulate(params.filter_steps, _generator(device, seed, 3))
    kalman_ll, kalman_grad = kalman_log_likelihood(params.theta_eval, observations)
    summaries: dict[str, GradientSummary] = {}
    for index, name in enumerate(params.resamplers):
        stats = gradient_stats(
            params.theta_eval, observations, params.filter_particles, params.gradient_repeats,
            resampler(name, settings[name]), _generator(device, seed, 4, index), kalman_grad,
            _generator(device, seed, 5),
        )
        summaries[name] = GradientSummary(
            bias=stats.bias, std=stats.std, rmse=stats.rmse, mean_log_likelihood=stats.mean_log_likelihood,
            samples=stats.gradients,
        )
        progress((index + 1) / len(params.resamplers), f"filter gradient: {name}")
    comparisons: dict[str, PairedComparison] = {}
    if "diffusion" in summaries:
        ours = np.asarray(summaries["diffusion"].samples) - kalman_grad
        for rival in ("ot", "soft"):
            if rival in summaries:
                other = np.asarray(summaries[rival].samples) - kalman_grad
                point, low, high = paired_bootstrap(ours, other, BOOTSTRAP_DRAWS, np.random.default_rng([seed, 6]))
                comparisons[rival] = PairedComparison(rival=rival, point=point, low=low, high=high)
    return _Gradients(observations, kalman_ll, kalman_grad, summaries, comparisons)


def _estimation(params: Params, settings: Settings, seed: int, observations: torch.Tensor, mle: float,
                progress: Progress) -> dict[str, EstimationSummary]:
    estimation: dict[str, EstimationSummary] = {}
    total = max(params.estimation_iterations * len(params.resamplers), 1)
    for index, name in enumerate(params.resamplers):
        if params.estimation_iterations == 0:
            break

        def tick(iteration: int, index: int = index, name: str = name) -> None:
            step = index * params.estimation_iterations + iteration + 1
            progress(step / total, f"estimation: {name}, Adam step {iteration + 1}")

        path = gradient_ascent(
            ESTIMATION_START, observations, params.filter_particles, params.estimation_repeats,
            resampler(name, settings[name]), seed * 7919 + index, params.estimation_iterations,
            params.learning_rate, tick,
        )
        final = float(np.mean(path[-1]))
        estimation[name] = EstimationSummary(final_theta=final, error_to_mle=abs(final - mle), path=path)
    return estimation


@dataclass
class _SeedRun:
    moments: _Moments
    benchmark: dict[str, LandscapeRun]
    data: BenchmarkData
    gradients: _Gradients
    mle: float
    estimation: dict[str, EstimationSummary]
    summary: SeedSummary


def _ratio(ours: list[float], reference: list[float]) -> float | None:
    return ours[-1] / reference[-1] if reference[-1] > 0 else None


def _scores(run: LandscapeRun) -> BenchmarkScores:
    return BenchmarkScores(landscape=run.landscape.tolist(), filtering_kl=run.filtering_kl.tolist(),
                           estimation=run.estimation.tolist(), estimate=run.estimate.tolist())


def _one_seed(params: Params, tuned: Settings, seed: int, device: str, progress: Progress) -> _SeedRun:
    monotone = MonotoneProgress(progress)
    moments = _moments(params, tuned, seed, device, monotone.stage(*_STAGES["moments"]))
    data = benchmark_data(params.data_sets, params.observations, params.grid_points, seed, 8)
    bench = evaluate(list(params.resamplers), tuned, data, params.filter_particles,
                     monotone.stage(*_STAGES["benchmark"]))
    gradients = _gradients(params, _moment_settings(params, tuned), seed, device, monotone.stage(*_STAGES["gradient"]))
    mle = kalman_mle(gradients.observations)
    estimation = _estimation(params, tuned, seed, gradients.observations, mle, monotone.stage(*_STAGES["estimation"]))
    has = "diffusion" in params.resamplers
    kalman = gradients.kalman_grad
    summary = SeedSummary(
        seed=seed, benchmark={name: _scores(r) for name, r in bench.items()},
        gradient_rmse={name: g.rmse for name, g in gradients.summaries.items()},
        gradient_max_error={name: float(np.max(np.abs(np.asarray(g.samples) - kalman)))
                            for name, g in gradients.summaries.items()},
        gradient_errors={name: [v - kalman for v in g.samples] for name, g in gradients.summaries.items()},
        comparisons=gradients.comparisons,
        moment_ratio=_ratio([p.rmse for p in moments.errors["diffusion"]], [p.rmse for p in moments.importance])
        if has else None,
        derivative_ratio=_ratio([p.rmse for p in moments.derivatives["diffusion"]],
                                [p.rmse for p in moments.importance_derivative]) if has else None,
        convergence=moments.convergence,
    )
    return _SeedRun(moments, bench, data, gradients, mle, estimation, summary)


def _tune(params: Params, progress: Progress) -> tuple[Settings, dict[str, Tuning]]:
    data = benchmark_data(params.tuning_data_sets, params.observations, params.grid_points, params.seed, 9)
    return tune(list(params.resamplers), _base(params), data, params.filter_particles, progress)


def run(params: Params, progress: Progress) -> Result:
    """Tune on data of its own; each seed: experiment 1 (moments), the LGSSM benchmark, gradients, estimation."""
    _check_budget(params)
    _check_graph(params)
    device = torch_device()
    monotone = MonotoneProgress(progress)
    tuned, tunings = _tune(params, monotone.stage(0.0, 0.25))
    seeds = seed_values(params.seed, params.seeds)
    runs = run_seeds(seeds, lambda seed, stage: _one_seed(params, tuned, seed, device, stage),
                     MonotoneProgress(monotone.stage(0.25, 1.0)))
    measured = [measure(r.summary, params) for r in runs]
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds)
    monotone(1.0, "done")
    return build_result(params, runs, claims, tunings, seeds)


def _standing(params: Params, runs: list[_SeedRun]) -> Standing | None:
    if "diffusion" not in params.resamplers or len(params.resamplers) < 2:
        return None
    return Standing(
        metric="log-likelihood landscape error to the Kalman filter (RMS over the theta grid)", lower_is_better=True,
        method="diffusion",
        seed_scores={name: [float(np.mean(r.summary.benchmark[name].landscape)) for r in runs]
                     for name in params.resamplers},
        unit_scores={name: [r.summary.benchmark[name].landscape for r in runs] for name in params.resamplers},
        labels={name: RESAMPLER_LABELS[name] for name in params.resamplers},
    )


def build_result(params: Params, runs: list[_SeedRun], claims: list[ClaimResult], tunings: dict[str, Tuning],
                 seeds: list[int]) -> Result:
    """The result: claims over every seed, tables and figures from the first."""
    first = runs[0]
    return Result(
        claims=claims, standing=_standing(params, runs), seeds=seeds, per_seed=[r.summary for r in runs],
        particles=params.particles, resamplers=list(params.resamplers),
        labels={name: RESAMPLER_LABELS[name] for name in params.resamplers},
        tunings=tunings, grids=grid_reports(tunings), thetas=first.data.thetas.tolist(),
        kalman_landscape=first.data.kalman[0][:, 0].tolist(),
        landscape={name: r.log_likelihood[:, 0].tolist() for name, r in first.benchmark.items()},
        observations=params.observations, data_sets=params.data_sets,
        moment_error=first.moments.errors, importance_error=first.moments.importance,
        derivative=first.moments.derivatives, importance_derivative=first.moments.importance_derivative,
        exact_derivative=first.moments.exact_derivative,
        theta_eval=params.theta_eval, kalman_log_likelihood=first.gradients.kalman_ll,
        kalman_gradient=first.gradients.kalman_grad, gradient=first.gradients.summaries,
        true_theta=TRUE_THETA, kalman_mle=first.mle, estimation=first.estimation,
        filter_steps=params.filter_steps, filter_particles=params.filter_particles,
        filters=params.gradient_repeats,
    )
