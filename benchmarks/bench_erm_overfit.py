"""All-ERMs-can-fail benchmarks, run side by side:

* runtime of the default run now (our derived noise term, 3 seeds x 60 training sets, the unique ERM in closed
  form) against the previous version (537caab: Feldman's function with a spread linear term, 3 seeds, one
  certified SOCP per seed), each in a fresh one-thread subprocess: wall and user CPU seconds;
* the unique ERM: the theorem's closed form h-hat against the Clarabel SOCP on the same training sets (time and
  max |difference|);
* the claims over seeds 0, 1, 2 at the default size (the previous version's unique-ERM claim was 0 on every seed).

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

from bench_extra_merge import side_by_side  # noqa: E402

from models.common import no_progress  # noqa: E402
from models.erm_overfit import SPEC  # noqa: E402
from models.erm_overfit.construction import Sample, closed_form_erm, solve_regularised_erm  # noqa: E402
from models.erm_overfit.params import Params  # noqa: E402
from models.erm_overfit.run import Setting  # noqa: E402

PREVIOUS = "537caab"  # the issue-26 version (Feldman's function, the spread linear term)


def closed_form_vs_solver(sets: int) -> None:
    setting = Setting(Params())
    w = setting.code.vectors
    rng = np.random.default_rng(0)
    t_closed = t_solver = 0.0
    worst, checked = 0.0, 0
    for _ in range(sets):
        sample = Sample.draw(rng, 6, w)
        start = time.perf_counter()
        x = closed_form_erm(w, sample, setting.theta, setting.alpha, setting.lam)
        t_closed += time.perf_counter() - start
        start = time.perf_counter()
        solved = solve_regularised_erm(w, sample, setting.theta, setting.alpha, setting.lam).x
        t_solver += time.perf_counter() - start
        if x is not None:
            worst, checked = max(worst, float(np.abs(x - solved).max())), checked + 1
    print(f"\nunique ERM on {sets} training sets (m = 6, d = 36): closed form {t_closed:.3f} s, Clarabel "
          f"{t_solver:.2f} s; closed form applies to {checked}, max |difference| {worst:.1e}")


def headline(seeds: list[int]) -> None:
    print("\nDefault size, claims:")
    result = SPEC.run(Params(seed=seeds[0], seeds=len(seeds)), no_progress)
    for claim in result.claims:
        interval = claim.test.interval if claim.test else None
        print(f"  {claim.id:22s} {claim.holds:9s} {claim.ours.text}  {interval or ''}")
    for s in result.summaries:
        print(f"  seed {s.seed}: overfit rate {s.overfit_rate:.3f} (Clopper-Pearson lower {s.overfit_lower:.3f}), "
              f"without collisions {s.no_collision_rate}, ERM excess {s.erm_excess:.4f}, SGD {s.sgd_excess:.4f}")
    print(f"  verdict: {result.verdict()}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    side_by_side("erm_overfit", {}, {}, PREVIOUS)
    closed_form_vs_solver(5 if args.quick else 20)
    headline([0] if args.quick else [0, 1, 2])


if __name__ == "__main__":
    main()
