"""Extra-Merge analysis cost: the top-1 share by a thin SVD of the K x P step matrix vs the dense
P x P covariance eigendecomposition (the textbook PCA), plus the headline table over three seeds.

The thin SVD costs O(K^2 P) for K steps of P parameters; the dense formulation builds the P x P
covariance of the steps and diagonalises it, O(P^3). Both give the same share (checked).

    python benchmarks/bench_extra_merge.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.extra_merge import SPEC  # noqa: E402
from models.extra_merge.merging import top1_share  # noqa: E402
from models.extra_merge.params import Params  # noqa: E402


def dense_top1_share(trajectory: np.ndarray) -> float:
    """The baseline: eigenvalues of the P x P second-moment matrix of the steps."""
    steps = np.diff(trajectory, axis=0)
    eigenvalues = np.linalg.eigvalsh(steps.T @ steps)
    return float(eigenvalues[-1] / eigenvalues.sum())


def speed(parameters: int) -> None:
    rng = np.random.default_rng(0)
    trajectory = np.cumsum(rng.normal(size=(7, parameters)), axis=0)
    start = time.perf_counter()
    thin = top1_share(trajectory)
    t_thin = time.perf_counter() - start
    start = time.perf_counter()
    dense = dense_top1_share(trajectory)
    t_dense = time.perf_counter() - start
    print(f"top-1 share of 6 steps of {parameters} parameters")
    print(f"  thin SVD (K x P):            {t_thin * 1e3:8.2f} ms")
    print(f"  dense covariance eigh (P x P): {t_dense * 1e3:8.2f} ms")
    print(f"  speed-up {t_dense / t_thin:.0f}x, same share: {abs(thin - dense) < 1e-8} ({thin:.6f} vs {dense:.6f})")


def headline(seeds: list[int]) -> None:
    print("\nDefault run (Adam, lr 0.003, 1200 steps, checkpoint every 20, window 8): test loss in nats/token")
    print("seed | last | merged | extrapolated (beta) | EMA | top-1 raw / merged | still falling | s/step | verdict")
    for seed in seeds:
        r = SPEC.run(Params(seed=seed), no_progress)
        print(f"{seed:4d} | {r.loss_last:.4f} | {r.loss_merged:.4f} | {r.loss_extrapolated:.4f} ({r.best_beta:g}) | "
              f"{r.loss_ema:.4f} | {r.top1_share_raw:.3f} / {r.top1_share_merged:.3f} | {r.still_falling} | "
              f"{r.seconds_per_step * 1e3:.2f} ms | {r.verdict().label}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    speed(1000 if args.quick else 3000)
    headline([0] if args.quick else [0, 1, 2])


if __name__ == "__main__":
    main()
