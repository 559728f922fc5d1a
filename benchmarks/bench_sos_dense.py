"""Dense 8-variable quartics: the SOS search with its fast paths (DSOS LP, SDSOS SOCP) against the SDP
alone and against the dense peer (the plain cvxpy + Clarabel SOS feasibility SDP of bench_inequality,
all 45 monomials of degree <= 2, no Newton polytope, no pruning), side by side.

Instances (seeds 0-2 each): `sdd`, p = z^T (D A D) z with A diagonally dominant and D a random positive
diagonal (scaled diagonally dominant); `gram`, p = z^T (L L^T + I) z with L a random integer matrix (generic
PSD); `pairs-quartic`, the sum over 28 pairs of a PSD, not diagonally dominant 2x2 form in (x_i^2, x_j^2)
(DSOS still answers: the cross monomials x_i x_j leave the Gram space room); `pairs-quadratic`, the same in
(x_i, x_j) (degree 2, the Gram matrix is forced and not diagonally dominant: DSOS fails, SDSOS answers). Every certificate we report is
the exact one: its squares expand to p in rational arithmetic (checked here again).

    python benchmarks/bench_sos_dense.py [--seeds 3] [--no-peer]

The SumOfSquares.jl package (Julia) is not installed on this machine, so the peer is the dense cvxpy SDP.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from benchmarks.bench_inequality import dense_baseline  # noqa: E402
from models.inequality.basis import full_basis  # noqa: E402
from models.inequality.polynomial import Polynomial, sum_polys  # noqa: E402
from models.inequality.sos import SosOptions, find_sos  # noqa: E402

N = 8


def instance(kind: str, seed: int) -> Polynomial:
    rng = np.random.default_rng(seed)
    names = tuple(f"x{i + 1}" for i in range(N))
    basis = full_basis(N, 4)
    m = len(basis)
    if kind.startswith("pairs"):
        q = np.zeros((N, N), dtype=int)  # on the squares x_i^2; each pair gets [[a, b], [b, c]] with b > a
        for i in range(N):
            for j in range(i + 1, N):
                a = int(rng.integers(1, 4))
                b = a + int(rng.integers(1, 3))
                c = b * b // a + 1 + int(rng.integers(0, 2))
                q[i, i] += a
                q[j, j] += c
                q[i, j] += b
                q[j, i] += b
        power = 2 if kind == "pairs-quartic" else 1
        mons = [Polynomial.monomial(names, tuple(power if k == i else 0 for k in range(N))) for i in range(N)]
        size = N
    else:
        if kind == "sdd":
            a_mat = np.triu(rng.integers(-3, 4, size=(m, m)), 1)
            a_mat = a_mat + a_mat.T
            a_mat += np.diag(np.abs(a_mat).sum(1) + 1)
            d = rng.integers(1, 6, size=m)
            q = d[:, None] * a_mat * d[None, :]
        else:
            low = rng.integers(-2, 3, size=(m, m))
            q = low @ low.T + np.eye(m, dtype=int)
        mons = [Polynomial.monomial(names, b) for b in basis]
        size = m
    one = (0,) * N
    terms = [mons[i] * mons[j] * Polynomial(names, {one: Fraction(int(q[i, j]))})
             for i in range(size) for j in range(size) if q[i, j]]
    return sum_polys(terms, names)


def timed(poly: Polynomial, options: SosOptions) -> tuple[float, str, bool]:
    started = time.perf_counter()
    outcome = find_sos(poly, options)
    seconds = time.perf_counter() - started
    exact = outcome.squares is not None and sum_polys([s.expand() for s in outcome.squares], poly.variables) == poly
    return seconds, outcome.solver if outcome.squares is not None else "none", exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    configs = {"fast paths (DSOS+SDSOS)": SosOptions(sparsity=False),
               "DSOS only": SosOptions(sparsity=False, sdsos=False),
               "SDP only": SosOptions(sparsity=False, dsos=False, sdsos=False)}
    print(f"{'instance':15s} {'seed':>4s} {'terms':>5s} " + " ".join(f"{c:>34s}" for c in configs)
          + f" {'dense peer s':>13s}")
    ratios: list[float] = []
    for kind in ("sdd", "gram", "pairs-quartic", "pairs-quadratic"):
        for seed in range(args.seeds):
            poly = instance(kind, seed)
            cells, first = [], 0.0
            for k, options in enumerate(configs.values()):
                seconds, solver, exact = timed(poly, options)
                first = seconds if k == 0 else first
                cells.append(f"{seconds:7.2f} s {solver[:18]:18s} {'exact' if exact else 'NONE':5s}")
            peer = ""
            if not args.no_peer:
                peer_s, status, _n = dense_baseline(poly)
                peer = f"{peer_s:8.2f} s {status[:3]}"
                ratios.append(peer_s / first)
            print(f"{kind:15s} {seed:4d} {len(poly.terms):5d} " + " ".join(f"{c:>34s}" for c in cells) + f" {peer:>13s}",
                  flush=True)
    if ratios:
        print(f"dense peer time / our time (fast paths on): median {statistics.median(ratios):.1f}x, "
              f"min {min(ratios):.1f}x, max {max(ratios):.1f}x over {len(ratios)} instances")


if __name__ == "__main__":
    main()
