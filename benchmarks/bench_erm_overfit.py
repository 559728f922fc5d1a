"""All-ERMs-can-fail benchmarks, run side by side:

* runtime of the default run now (Feldman's function on a random linear code in d = 6m, 3 seeds, a certified
  SOCP solve per seed) against the previous version (Feldman's function on a Gold code in d = 127, one seed,
  projected GD on a 4 x 4 grid), each in a fresh subprocess with one thread: wall and user CPU seconds;
* the regularised-ERM solver: Clarabel on the epigraph SOCP (certified by the Lagrange dual) against projected
  subgradient descent with step 1/(lambda t) for 2,000 iterations (the textbook method), same objective;
* the claims over seeds 0, 1, 2 at the default size.

    python benchmarks/bench_erm_overfit.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_extra_merge import PREVIOUS, side_by_side  # noqa: E402

from models.common import no_progress  # noqa: E402
from models.erm_overfit import SPEC  # noqa: E402
from models.erm_overfit.code import random_linear_code  # noqa: E402
from models.erm_overfit.construction import Sample, empirical_objective, solve_regularised_erm  # noqa: E402
from models.erm_overfit.params import Params  # noqa: E402


def subgradient_descent(code: np.ndarray, sample: Sample, theta: float, alpha: float, lam: float,
                        iterations: int) -> float:
    """The baseline: projected subgradient descent with step 1/(lambda t); returns the best objective seen."""
    x = np.zeros(code.shape[1])
    best = np.inf
    for t in range(1, iterations + 1):
        inner = code @ x
        masked = np.where(sample.membership, inner[None, :], -np.inf)
        arg = masked.argmax(axis=1)
        active = masked[np.arange(len(arg)), arg] > theta
        grad = code[arg[active]].sum(axis=0) / len(arg) + alpha * sample.noise + lam * x
        x = x - grad / (lam * t)
        norm = np.linalg.norm(x)
        if norm > 1:
            x /= norm
        best = min(best, empirical_objective(x, code, sample, theta, alpha, lam))
    return best


def solver_speed(iterations: int) -> None:
    m = 8
    code = random_linear_code(6 * m, m + 3)
    theta, lam = code.coherence + 0.5 * (1 - code.coherence), m**-1.5
    sample = Sample.draw(np.random.default_rng(0), m, code.vectors)
    start = time.perf_counter()
    sol = solve_regularised_erm(code.vectors, sample, theta, 0.5, lam)
    t_socp = time.perf_counter() - start
    start = time.perf_counter()
    best = subgradient_descent(code.vectors, sample, theta, 0.5, lam, iterations)
    t_sub = time.perf_counter() - start
    print(f"\nregularised ERM, m = {m}, d = {6 * m}, {len(code.vectors):,} codewords:")
    print(f"  Clarabel SOCP:         {t_socp:6.2f} s, objective {sol.objective:.9f}, certified gap {sol.gap:.1e}")
    print(f"  subgradient x {iterations}: {t_sub:6.2f} s, best objective {best:.9f} "
          f"({best - sol.lower_bound:.1e} above the certified bound)")


def headline(seeds: list[int]) -> None:
    print("\nDefault size, claims (mean ± sd over seeds):")
    result = SPEC.run(Params(seed=seeds[0], seeds=len(seeds)), no_progress)
    for claim in result.claims:
        print(f"  {claim.id:22s} {claim.holds:9s} {claim.ours.text}")
    print(f"  verdict: {result.verdict().label}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    side_by_side("erm_overfit", {"seeds": 3}, {}, PREVIOUS)
    solver_speed(200 if args.quick else 2000)
    headline([0] if args.quick else [0, 1, 2])


if __name__ == "__main__":
    main()
