"""Speed of the diffusion resampler's ensemble score against a per-particle loop, and the headline table.

The core of diffusion resampling is the ensemble score of the noised weighted set, evaluated at every
particle at every ODE step:
  * batched: `ensemble_score`, one (n, n) softmax and one matrix product per set;
  * baseline: the same score written as a Python loop over query particles (one softmax over the
    n centres per particle), the straightforward formulation.
Both give the same numbers (checked: "max diff"). The headline table runs the whole method (`run`,
defaults) for three seeds and prints the three "must show" checks with their numbers.

    python benchmarks/bench_diffusion_resampling.py [--quick]
"""

from __future__ import annotations

import argparse
import math
import sys
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


def headline(seeds: list[int], quick: bool) -> None:
    print("\nHeadline (defaults" + (", quick: N = 32, 128, 512; 4 repeats" if quick else "") + ")")
    for seed in seeds:
        params = Params(seed=seed, moment_repeats=4) if quick else Params(seed=seed)
        start = time.perf_counter()
        result = run(params, lambda f, m="": None)
        print(f"seed {seed} ({time.perf_counter() - start:.1f} s): {result.verdict().label}")
        for check in result.checks:
            print(f"  [{'holds' if check.holds else 'FAILS' if check.holds is False else 'n/a'}] {check.claim}: {check.detail}")
        gradient = ", ".join(f"{n} {g.bias:+.2f}/{g.std:.2f}" for n, g in result.gradient.items())
        print(f"  gradient bias/std vs Kalman {result.kalman_gradient:.3f}: {gradient}")
        estimates = ", ".join(f"{n} {e.final_theta:.3f}" for n, e in result.estimation.items())
        print(f"  estimated theta (Kalman MLE {result.kalman_mle:.3f}): {estimates}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("Ensemble score: batched vs per-particle loop (one set, float32, one thread)")
    for n in (64, 256, 1024):
        speed(n)
    headline([0, 1, 2], args.quick)


if __name__ == "__main__":
    main()
