"""run(params, progress): moments and shift derivatives, filter gradients, then estimation by ascent."""

from __future__ import annotations

import numpy as np
import torch

from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.diffusion_resampling.claims import evaluate_claims
from models.diffusion_resampling.filtering import (
    TRUE_THETA,
    gradient_ascent,
    gradient_stats,
    kalman_log_likelihood,
    kalman_mle,
    lgssm,
)
from models.diffusion_resampling.moments import (
    draw_weighted_sets,
    graph_length,
    importance_errors,
    posterior_problem,
    run_moment_cell,
)
from models.diffusion_resampling.params import MAX_GRAPH_ENTRIES, MAX_MOMENT_WORK, Params
from models.diffusion_resampling.resamplers import RESAMPLER_LABELS, ResamplerSettings, resampler
from models.diffusion_resampling.result import (
    DerivativePoint,
    EstimationSummary,
    GradientSummary,
    MomentPoint,
    Result,
)

__all__ = ["ESTIMATION_START", "run"]

ESTIMATION_START = 0.1  # theta where gradient ascent starts (the true value is 0.5)
_STAGES = {"moments": (0.0, 0.45), "gradient": (0.45, 0.6), "estimation": (0.6, 1.0)}


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
    settings = _settings(params)
    longest = max(graph_length(name, settings) for name in params.resamplers)
    entries = max(params.particles) ** 2 * longest
    if entries > MAX_GRAPH_ENTRIES:
        raise MethodInputError(
            f"max(particles)^2 x (2 x ode_steps or 2 x sinkhorn_iterations) = {entries:,} is above the limit of "
            f"{MAX_GRAPH_ENTRIES:,} (the autograd graph of one resampling): lower the largest N, ode_steps or "
            "sinkhorn_iterations"
        )


def _settings(params: Params) -> ResamplerSettings:
    return ResamplerSettings(
        params.soft_alpha, params.ot_epsilon, params.sinkhorn_iterations, params.ode_steps, params.diffusion_time
    )


def _moments(
    params: Params, device: str, progress: Progress
) -> tuple[dict[str, list[MomentPoint]], list[MomentPoint], dict[str, list[DerivativePoint]]]:
    problem = posterior_problem(device)
    settings = _settings(params)
    errors: dict[str, list[MomentPoint]] = {name: [] for name in params.resamplers}
    importance: list[MomentPoint] = []
    derivatives: dict[str, list[DerivativePoint]] = {name: [] for name in params.resamplers}
    cells = len(params.particles) * len(params.resamplers)
    done = 0
    for n in params.particles:
        log_w, x = draw_weighted_sets(problem, n, params.moment_repeats, _generator(device, params.seed, 1, n))
        rmse, mean_rmse, cov_rmse = importance_errors(problem, log_w, x)
        importance.append(MomentPoint(n=n, rmse=rmse, mean_rmse=mean_rmse, cov_rmse=cov_rmse))
        for index, name in enumerate(params.resamplers):
            cell = run_moment_cell(problem, log_w, x, name, settings, _generator(device, params.seed, 2, n, index))
            errors[name].append(MomentPoint(n=n, rmse=cell.rmse, mean_rmse=cell.mean_rmse, cov_rmse=cell.cov_rmse))
            derivatives[name].append(
                DerivativePoint(n=n, value=cell.derivative, std=cell.derivative_std, estimator=cell.estimator)
            )
            done += 1
            progress(done / cells, f"moments: {name} at N = {n}")
    return errors, importance, derivatives


def run(params: Params, progress: Progress) -> Result:
    """Experiment 1 (moments, shift derivative), 2 (filter gradients), 3 (estimation), then the claims."""
    _check_budget(params)
    _check_graph(params)
    device = torch_device()
    monotone = MonotoneProgress(progress)
    moment_error, importance, derivatives = _moments(params, device, monotone.stage(*_STAGES["moments"]))

    gradient_progress = monotone.stage(*_STAGES["gradient"])
    _, observations = lgssm(TRUE_THETA, device).simulate(params.filter_steps, _generator(device, params.seed, 3))
    kalman_ll, kalman_grad = kalman_log_likelihood(params.theta_eval, observations)
    settings = _settings(params)
    gradient: dict[str, GradientSummary] = {}
    for index, name in enumerate(params.resamplers):
        stats = gradient_stats(
            params.theta_eval, observations, params.filter_particles, params.gradient_repeats,
            resampler(name, settings), _generator(device, params.seed, 4, index), kalman_grad,
        )
        gradient[name] = GradientSummary(
            bias=stats.bias, std=stats.std, rmse=stats.rmse, mean_log_likelihood=stats.mean_log_likelihood,
            samples=stats.gradients,
        )
        gradient_progress((index + 1) / len(params.resamplers), f"filter gradient: {name}")

    mle = kalman_mle(observations)
    estimation_progress = monotone.stage(*_STAGES["estimation"])
    estimation: dict[str, EstimationSummary] = {}
    total = max(params.estimation_iterations * len(params.resamplers), 1)
    for index, name in enumerate(params.resamplers):
        if params.estimation_iterations == 0:
            break

        def tick(iteration: int, index: int = index, name: str = name) -> None:
            step = index * params.estimation_iterations + iteration + 1
            estimation_progress(step / total, f"estimation: {name}, Adam step {iteration + 1}")

        path = gradient_ascent(
            ESTIMATION_START, observations, params.filter_particles, params.estimation_repeats,
            resampler(name, settings), params.seed * 7919 + index, params.estimation_iterations,
            params.learning_rate, tick,
        )
        final = float(np.mean(path[-1]))
        estimation[name] = EstimationSummary(final_theta=final, error_to_mle=abs(final - mle), path=path)
    monotone(1.0, "done")
    return Result(
        particles=params.particles,
        resamplers=list(params.resamplers),
        labels={name: RESAMPLER_LABELS[name] for name in params.resamplers},
        moment_error=moment_error,
        importance_error=importance,
        mean_shift_derivative=derivatives,
        theta_eval=params.theta_eval,
        kalman_log_likelihood=kalman_ll,
        kalman_gradient=kalman_grad,
        gradient=gradient,
        true_theta=TRUE_THETA,
        kalman_mle=mle,
        estimation=estimation,
        filter_steps=params.filter_steps,
        filter_particles=params.filter_particles,
        checks=evaluate_claims(moment_error, derivatives, gradient),
    )
