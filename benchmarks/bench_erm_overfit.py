"""Cost of the best-case-ERM illustration's core, each against its straightforward formulation:

* coherence of the Gold code from the periodic cross-correlations (FFT, O(S^2 N log N) for S sequences
  of length N) vs the dense Gram matrix of all S N code vectors (O(S^2 N^3));
* one projected-GD subgradient: one matrix-vector product with the code and a masked max over all
  samples (numpy) vs a per-sample Python loop over that sample's members.

Both pairs give identical numbers (checked). A second table runs the default setting for three seeds.

    python benchmarks/bench_erm_overfit.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.erm_overfit import SPEC  # noqa: E402
from models.erm_overfit.code import gold_code  # noqa: E402
from models.erm_overfit.construction import Sample, _subgradient  # noqa: E402
from models.erm_overfit.params import Params  # noqa: E402


def loop_subgradient(x: np.ndarray, code: np.ndarray, sample: Sample, lam: float) -> np.ndarray:
    """The baseline: for each sample, scan its members for the largest inner product."""
    grad = np.zeros_like(x)
    for row in sample.membership:
        best, best_value = -1, -np.inf
        for k in np.nonzero(row)[0]:
            value = float(code[k] @ x)
            if value > best_value:
                best, best_value = k, value
        if best_value > 0.5:
            grad += code[best]
    return grad / sample.membership.shape[0] + sample.noise + lam * x


def coherence_speed() -> None:
    start = time.perf_counter()
    code = gold_code(5)
    t_fft = time.perf_counter() - start
    start = time.perf_counter()
    gram = code.vectors @ code.vectors.T
    np.fill_diagonal(gram, 0.0)
    dense = float(np.abs(gram).max())
    t_dense = time.perf_counter() - start
    print(f"coherence of the n = 5 Gold code ({code.vectors.shape[0]} vectors): FFT {t_fft * 1e3:.1f} ms (code "
          f"construction included), dense Gram {t_dense * 1e3:.1f} ms, same: {abs(dense - code.coherence) < 1e-12}")
    start = time.perf_counter()
    big = gold_code(7)
    t_big = time.perf_counter() - start
    print(f"n = 7 ({big.vectors.shape[0]:,} vectors): FFT {t_big:.2f} s; the dense Gram would hold "
          f"{big.vectors.shape[0] ** 2:,} entries ({big.vectors.shape[0] ** 2 * 8 / 1e9:.1f} GB)")


def subgradient_speed(repeats: int) -> None:
    code = gold_code(7).vectors
    sample = Sample.draw(np.random.default_rng(0), 8, code)
    x = 0.6 * code[np.nonzero(sample.membership[0])[0][0]] + 0.02 * np.random.default_rng(1).normal(size=127)
    start = time.perf_counter()
    for _ in range(repeats):
        fast = _subgradient(x, code, sample, 0.04)
    t_fast = (time.perf_counter() - start) / repeats
    start = time.perf_counter()
    slow = loop_subgradient(x, code, sample, 0.04)
    t_slow = time.perf_counter() - start
    print(f"one GD subgradient (m = 8 samples, 16,383 code vectors, d = 127): numpy {t_fast * 1e3:.2f} ms, "
          f"per-sample loop {t_slow * 1e3:.0f} ms, speed-up {t_slow / t_fast:.0f}x, same: {np.allclose(fast, slow)}")


def headline(seeds: list[int]) -> None:
    print("\nDefault setting (m = 8, d = 127, lambda 0.04, etas 0.01..0.3, T 10..300)")
    print("seed | unseen (expected) | ERM train / min | excess (bound) | GD points between / judged | slope | verdict")
    for seed in seeds:
        r = SPEC.run(Params(seed=seed), no_progress)
        judged = [b for b in r.between() if b is not None]
        print(f"{seed:4d} | {r.unseen_vectors} ({r.expected_unseen:.0f}) | {r.erm_train_loss} / {r.min_train_loss} | "
              f"{r.erm_population_excess:.4f} ({r.excess_lower_bound:.4f}) | {sum(judged)} / {len(judged)} | "
              f"{r.gd_slope:.2f} | {r.verdict().label}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    coherence_speed()
    subgradient_speed(5 if args.quick else 50)
    headline([0] if args.quick else [0, 1, 2])


if __name__ == "__main__":
    main()
