"""Speed of the diffusion resampler's ensemble score against a per-particle loop, and the headline table.

The core of diffusion resampling is the ensemble score of the noised weighted set, evaluated at every
particle at every ODE step:
  * batched: `ensemble_score`, one (n, n) softmax and one matrix product per set;
  * baseline: the same score written as a Python loop over query particles (one softmax over the
    n centres per particle), the straightforward formulation.
Both give the same numbers (checked: "max diff"). The headline runs the whole method (`run`, defaults)
over three seeds and prints every claim per seed; the last line times the defaults against the previous
version of the method (git revision PREVIOUS, run from a temporary copy of models/).

    python benchmarks/bench_diffusion_resampling.py [--quick]
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.diffusion_resampling.diffusion import ensemble_score  # noqa: E402
from models.diffusion_resampling.params import Params  # noqa: E402
from models.diffusion_resampling.run import run  # noqa: E402


def loop_score(y: torch.Tensor, log_w: torch.Tensor, x: torch.Tensor, mean: torch.Tensor, var: torch.Tensor,
               t: float) -> torch.Tensor:
    """The ensemble score one query particle at a time (the baseline)."""
    decay = math.exp(-t)
    sig2 = var * (1 - math.exp(-2 * t))
    centres = mean + decay * (x - mean)
    out = torch.empty_like(y)
    for i in range(y.shape[0]):
        logits = log_w - 0.5 * (((y[i] - centres) ** 2) / sig2).sum(-1)
        r = torch.softmax(logits, 0)
        out[i] = (r @ centres - y[i]) / sig2
    return out


def speed(n: int) -> None:
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, 2, generator=gen)
    log_w = torch.log_softmax(-0.5 * (x[:, 0] - 1) ** 2, 0)
    w = log_w.exp().unsqueeze(-1)
    mean = (w * x).sum(0)
    var = (w * (x - mean) ** 2).sum(0)
    y = torch.randn(n, 2, generator=gen)
    start = time.perf_counter()
    batched = ensemble_score(y[None], log_w[None], x[None], mean[None], var[None], 0.7)[0]
    t_batched = time.perf_counter() - start
    start = time.perf_counter()
    looped = loop_score(y, log_w, x, mean, var, 0.7)
    t_loop = time.perf_counter() - start
    diff = float((batched - looped).abs().max())
    print(f"N = {n:5d}: batched {t_batched * 1e3:8.2f} ms, loop {t_loop * 1e3:8.2f} ms, "
          f"ratio {t_loop / t_batched:7.1f}x, max diff {diff:.1e}")


PREVIOUS = "537caab"  # the reviewed version (issue 40): ODE to t ~ 0, gradient-RMSE claims, untuned rivals


def previous_defaults_seconds(method: str, rev: str = PREVIOUS, extra: tuple[str, ...] = ()) -> float:
    """Wall time of `method`'s defaults at git revision `rev` (models/ extracted to a temporary folder)."""
    root = Path(__file__).resolve().parents[1]
    code = ("import time, torch; torch.set_num_threads(1); from models.common import no_progress; "
            f"from models.{method} import SPEC; t = time.perf_counter(); SPEC.run(SPEC.params_model(), no_progress); "
            "print(time.perf_counter() - t)")
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", rev, "models", *extra], cwd=root, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": tmp}
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def headline(seeds: int) -> None:
    params = Params(seeds=seeds)
    start = time.perf_counter()
    result = run(params, lambda f, m="": None)
    print(f"\nHeadline: defaults over {seeds} seeds ({time.perf_counter() - start:.1f} s): {result.verdict().label}")
    for claim in result.claims:
        notes = "; ".join(f"seed {o.seed}: {o.note or o.value}" for o in claim.seeds)
        interval = claim.test.interval if claim.test is not None else None
        null = f"; null {claim.null.value:+.4g}" if claim.null is not None and claim.null.value is not None else ""
        print(f"  [{claim.holds}] {claim.id}: {claim.ours.text} interval {interval}{null}  ({notes})")
    if result.standing is not None:
        print("  landscape error (mean over seeds):", {k: round(v, 3) for k, v in result.standing.scores.items()})
    print("  tuned:", {g.tuned + "." + g.param: (g.best, "edge" if g.at_edge else "inside") for g in result.grids})
    for s in result.per_seed:
        worst = s.gradient_max_error
        rival = min(v for n, v in worst.items() if n != "diffusion")
        print(f"  seed {s.seed}: largest gradient error diffusion {worst['diffusion']:.2f}, best rival {rival:.2f}")


def tails(seed: int = 53) -> None:
    """The review's case against the previous ODE (run to t ~ 0, as at PREVIOUS) on the same 128 filters."""
    from models.diffusion_resampling.filtering import TRUE_THETA, gradient_stats, kalman_log_likelihood, lgssm
    from models.diffusion_resampling.resamplers import ResamplerSettings, resampler
    from models.diffusion_resampling.run import _generator

    _, ys = lgssm(TRUE_THETA, "cpu").simulate(25, _generator("cpu", seed, 3))
    _, kalman = kalman_log_likelihood(0.3, ys)
    from models.diffusion_resampling.diffusion import T_MIN

    for label, t_min in (("previous: ODE to t ~ 0", 0.0), (f"now: t_min {T_MIN} + Tweedie", T_MIN)):
        stats = gradient_stats(0.3, ys, 32, 128, resampler("diffusion", ResamplerSettings(ode_steps=32, t_min=t_min)),
                               _generator("cpu", seed, 4, 4), kalman, _generator("cpu", seed, 5))
        errors = [abs(g - kalman) for g in stats.gradients]
        print(f"  seed {seed}, {label}: gradient RMSE {stats.rmse:.2f}, largest error {max(errors):.2f}")


def runtime_against_previous() -> None:
    start = time.perf_counter()
    run(Params(), lambda f, m="": None)
    now = time.perf_counter() - start
    before = previous_defaults_seconds("diffusion_resampling")
    print(f"\nDefaults, one thread: now {now:.1f} s (tuning on the reference grids + the LGSSM benchmark + 64 filters) "
          f"against {before:.1f} s at {PREVIOUS} (no tuning, no benchmark, 128 filters): ratio {before / now:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="one seed, no comparison with the previous version")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("Ensemble score: batched vs per-particle loop (one set, float32, one thread)")
    for n in (64, 256, 1024):
        speed(n)
    print("\nGradient tails (the review's seed-53 case, 128 filters):")
    tails()
    headline(1 if args.quick else 3)
    if not args.quick:
        runtime_against_previous()


if __name__ == "__main__":
    main()
