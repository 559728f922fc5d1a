"""Speed of the batched Stein direction against a per-particle double loop, and the headline table.

The core of SDG's correction is the SVGD direction phi(x_i) = 1/n sum_j k(x_j, x_i) score_j +
grad_{x_j} k(x_j, x_i) for all particles of all guidance scales:
  * batched: `stein_direction`, one (S, n, n) kernel and two matrix products;
  * baseline: the textbook double loop over i and j in Python.
Both give the same numbers (checked: "max diff"). The headline table runs the whole method (`run`,
defaults) for three seeds and prints the on-manifold fractions at the matched hit rate.

    python benchmarks/bench_stein_guidance.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common.sampling import median_bandwidth, stein_direction  # noqa: E402
from models.stein_guidance.params import Params  # noqa: E402
from models.stein_guidance.run import run  # noqa: E402


def loop_direction(x: torch.Tensor, score: torch.Tensor, h: float) -> torch.Tensor:
    n = x.shape[0]
    out = torch.zeros_like(x)
    for i in range(n):
        for j in range(n):
            k = torch.exp(-((x[j] - x[i]) ** 2).sum() / h)
            out[i] += k * score[j] + 2.0 / h * (x[i] - x[j]) * k
    return out / n


def speed(n: int) -> None:
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, 2, generator=gen, dtype=torch.float64)
    score = -x
    h = median_bandwidth(x)
    start = time.perf_counter()
    batched = stein_direction(x, score, h)
    t_batched = time.perf_counter() - start
    start = time.perf_counter()
    looped = loop_direction(x, score, float(h))
    t_loop = time.perf_counter() - start
    diff = float((batched - looped).abs().max())
    print(f"n = {n:4d}: batched {t_batched * 1e3:8.2f} ms, loop {t_loop * 1e3:9.1f} ms, "
          f"ratio {t_loop / t_batched:8.0f}x, max diff {diff:.1e}")


def headline(seeds: list[int], quick: bool, dimension: int) -> None:
    print(f"\nHeadline ({dimension}-D, defaults" + (", quick: 100 particles, 40 steps" if quick else "") + ")")
    for seed in seeds:
        params = Params(seed=seed, dimension=dimension, **({"particles": 100, "steps": 40} if quick else {}))
        start = time.perf_counter()
        result = run(params, lambda f, m="": None)
        m = result.at_matched_hit_rate
        fractions = ", ".join(f"{n} {'-' if v is None else f'{v:.3f}'}" for n, v in m.on_manifold.items())
        print(f"seed {seed} ({time.perf_counter() - start:.1f} s): hit rate {m.hit_rate:.2f}: {fractions}; "
              f"exact {m.exact_posterior:.3f}; unguided {result.unguided_on_manifold:.3f} -> {result.verdict().label}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("Stein direction: batched vs double loop (float64, one thread)")
    for n in (32, 64, 128):
        speed(n)
    for dimension in (2, 8):
        headline([0, 1, 2], args.quick, dimension)


if __name__ == "__main__":
    main()
