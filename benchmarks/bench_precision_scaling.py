"""One-pass SGD throughput: all model sizes and seeds in one vectorised loop vs one (seed, size) at a time.

The baseline is the straightforward implementation: for every seed and every model size, sketch the
quantised features and run SGD sample by sample on that size alone. Both use the same problems, the
same quantised features (same generator) and the same step sizes, so they produce the same risks
(checked). Then the default run's time now against the previous version (537caab), and the default setting
over three seeds: kappa from the risk fit (this version's headline) beside the trace formula (the previous one).

    python benchmarks/bench_precision_scaling.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_extra_merge import side_by_side  # noqa: E402

from models.common import no_progress  # noqa: E402
from models.precision_scaling import SPEC  # noqa: E402
from models.precision_scaling.params import Params  # noqa: E402
from models.precision_scaling.quantise import quantise  # noqa: E402
from models.precision_scaling.simulation import ADDITIVE_RANGE, Problem, make_problem, sgd_risk  # noqa: E402

PREVIOUS = "537caab"  # the turn-4 version (trace-formula model size, rounding at d = 512, N = 4000)


def loop_sgd(problem: Problem, sizes: list[int], features: np.ndarray, gammas: np.ndarray) -> list[float]:
    """The baseline: one size at a time, sample by sample; risk of the average of iterates n/2..n."""
    n = features.shape[0]
    out = []
    for k, m in enumerate(sizes):
        sketch = problem.sketch_of(m)
        z = features @ sketch.T
        v, total = np.zeros(m), np.zeros(m)
        for t in range(n):
            v -= gammas[k] * (z[t] @ v - problem.labels[t]) * z[t]
            if t + 1 > n // 2:
                total += v
        residual = sketch.T @ (total / (n - n // 2)) - problem.target
        out.append(float(residual @ (problem.spectrum * residual)))
    return out


def speed(samples: int, seeds: int, sizes: list[int]) -> None:
    problems = [make_problem(np.random.default_rng(s), dimension=512, exponent=2.0, max_size=max(sizes),
                             samples=samples, label_noise=0.1) for s in range(seeds)]
    start = time.perf_counter()
    fast = sgd_risk(problems, sizes, "additive", 6, [np.random.default_rng(100 + s) for s in range(seeds)])
    t_fast = time.perf_counter() - start
    start = time.perf_counter()
    slow = []
    for s, p in enumerate(problems):
        features = quantise(p.features, "additive", 6, ADDITIVE_RANGE, np.random.default_rng(100 + s))
        slow.append(loop_sgd(p, sizes, features, fast.step_sizes[s]))
    t_slow = time.perf_counter() - start
    same = np.allclose(fast.risk[:, :, -1], np.array(slow), rtol=1e-8)
    steps = samples * seeds * len(sizes)
    print(f"one-pass SGD, additive 6 bits, {seeds} seeds x {len(sizes)} sizes x N = {samples} (d = 512)")
    print(f"  vectorised over sizes and seeds: {t_fast:.2f} s ({steps / t_fast:,.0f} sample-updates/s)")
    print(f"  baseline, one (seed, size) at a time: {t_slow:.2f} s ({steps / t_slow:,.0f} sample-updates/s)")
    print(f"  speed-up {t_slow / t_fast:.1f}x, same risks: {same}")


def headline(base_seed: int) -> None:
    print(f"\nDefault setting (the paper's noise models at level 0.5, M = 4..128, N = 20000, d = 256, seeds "
          f"{base_seed}..{base_seed + 2})")
    start = time.perf_counter()
    r = SPEC.run(Params(seed=base_seed), no_progress)
    print(f"run time {time.perf_counter() - start:.1f} s")
    print("seed | noise ratio | kappa mult / add (risk fit) | kappa on R_inf | trace m_eff/M (previous headline) | N_eff/N")
    for p in r.per_seed:
        n_eff = " / ".join("n/a" if p.n_eff_fraction[s] is None else f"{p.n_eff_fraction[s]:.3f}" for s in ("multiplicative", "additive"))
        print(f"{p.seed:4d} | {p.noise_ratio:.2f} | {p.kappa['multiplicative']:.3f} / {p.kappa['additive']:.3f} | "
              f"{p.kappa_infinite_data['multiplicative']:.3f} / {p.kappa_infinite_data['additive']:.3f} | "
              f"{p.m_eff_fraction['multiplicative']:.3f} / {p.m_eff_fraction['additive']:.3f} | {n_eff}")
    for c in r.claims:
        interval = c.test.interval if c.test else None
        print(f"  {c.id}: {c.holds} ({c.ours.text}) {interval or ''}")
    print(f"verdict: {r.verdict()}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        speed(500, 1, [8, 16, 32])
    else:
        speed(4000, 3, [8, 16, 32, 64, 128, 256])
        side_by_side("precision_scaling", {}, {}, PREVIOUS)
    headline(0)


if __name__ == "__main__":
    main()
