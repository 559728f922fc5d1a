"""APT operator benchmark: the sparse FV solve against the dense formulation, the fused model against the
solver, and the headline table (shipped checkpoint) over three test seeds.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/bench_apt_operator.py
"""

from __future__ import annotations

import time

import numpy as np

from models.apt_operator import SPEC
from models.apt_operator.data import draw_field
from models.apt_operator.params import Params
from models.apt_operator.solver import assemble, cell_centres, solve_darcy
from models.common import no_progress


def _best(fn, repeats: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    field = draw_field(np.random.default_rng(0))
    print("FV solve: scipy sparse LU vs the dense formulation (numpy.linalg.solve on the same matrix)")
    for n in (32, 48):
        c = cell_centres(n)
        x, y = np.meshgrid(c, c, indexing="ij")
        k, q = np.exp(field.log_k(x, y)), field.source(x, y)
        sparse = _best(lambda: solve_darcy(k, q))  # noqa: B023

        def dense() -> None:
            matrix, rhs = assemble(k, q)  # noqa: B023
            np.linalg.solve(matrix.toarray(), rhs)

        full = _best(dense)
        print(f"  {n} x {n}: sparse {1000 * sparse:.1f} ms, dense {1000 * full:.1f} ms, speed-up {full / sparse:.1f}x")
    print("\nHeadline table, shipped checkpoint, 24 test media per seed (relative L2 of the pressure)")
    print("(null: the FV solve with uniform k = exp(mean ln k); gain: 100 (1 - fused / null), the claims need >= 25)")
    print(f"{'seed':>4} {'mesh':>8} {'fused':>7} {'local':>7} {'global':>7} {'fno':>7} {'null':>7} {'gain %':>7} "
          f"{'SR 32':>7} {'SR 64':>7} "
          f"{'ratio':>6} {'solve ms':>8} {'infer ms':>8}")
    for seed in (0, 1, 2):
        t0 = time.perf_counter()
        r = SPEC.run(Params(seed=seed), no_progress)
        wall = time.perf_counter() - t0
        s = r.per_seed[0].super_resolution
        for m in r.by_mesh:
            print(f"{seed:>4} {m.mesh:>8} {m.fused:7.4f} {m.local_only:7.4f} {m.global_only:7.4f} {m.fno:7.4f} "
                  f"{m.uniform_k:7.4f} {100 * (1 - m.fused / m.uniform_k):7.1f} "
                  f"{s.same_resolution:7.4f} {s.higher_resolution:7.4f} {s.higher_resolution / s.same_resolution:6.2f} "
                  f"{1000 * r.solver_time_s:8.1f} {1000 * r.inference_time_s:8.1f}")
        print(f"     default run wall time {wall:.1f} s")


if __name__ == "__main__":
    main()
