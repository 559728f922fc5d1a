"""Benchmark of the NSPI inequality prover on a fixed suite, against a plain dense cvxpy SOS baseline.

For every instance the full pipeline runs (parse, refute, propose, round + project, exact check; Lean
off). For each proved instance the baseline solves the same target (p, or D*p when a multiplier was
needed) as a dense SOS feasibility SDP over *all* monomials of degree <= d/2 (no Newton polytope,
no pruning, no sparsity) with the same solver, and the table shows the SDP-time ratio.

    python benchmarks/bench_inequality.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common.contract import no_progress  # noqa: E402
from models.inequality.basis import full_basis  # noqa: E402
from models.inequality.multipliers import multiplier  # noqa: E402
from models.inequality.params import Params  # noqa: E402
from models.inequality.parser import parse_inequality  # noqa: E402
from models.inequality.polynomial import Polynomial, sum_polys  # noqa: E402
from models.inequality.run import run  # noqa: E402


def _random_sos(n: int, degree: int, squares: int, seed: int, support: int = 6) -> str:
    rng = np.random.default_rng(seed)
    names = tuple(f"x{i + 1}" for i in range(n))
    basis = full_basis(n, degree)
    polys = []
    for _ in range(squares):
        picks = rng.choice(len(basis), size=min(support, len(basis)), replace=False)
        q = Polynomial(names, {basis[i]: Fraction(int(rng.integers(1, 4)) * int(rng.choice([-1, 1]))) for i in picks})
        polys.append(q * q)
    return sum_polys(polys, names).format() + " >= 0"


def _chain(n: int) -> str:
    parts = [f"(x{i}^2 - x{i % n + 1}^2 + x{i}*x{(i + 1) % n + 1} - 1)^2" for i in range(1, n + 1)]
    parts += [f"(x{i} - 2*x{i % n + 1})^2" for i in range(1, n + 1)]
    return " + ".join(parts) + " >= 0"


def _rosenbrock(n: int) -> str:
    return " + ".join(f"100*(x{i + 1} - x{i}^2)^2 + (1 - x{i})^2" for i in range(1, n)) + " >= 0"


def suite() -> list[tuple[str, str, str]]:
    """(name, problem, expected status) for 36 instances: 1-10 variables, degrees 2-8."""
    cases = [
        ("1v d2 square", "x^2 - 2*x + 1 >= 0", "proved"),
        ("1v d4", "x^4 - 3*x^2 + 3 >= 0", "proved"),
        ("1v d6", "x^6 - x^2 + 1 >= 0", "proved"),
        ("1v d8", "x^8 + 1 >= x^4 + x^2 - 1", "proved"),
        ("2v AM-GM", "x^2 + y^2 >= 2*x*y", "proved"),
        ("2v quartic", "x^4 + y^4 + 1 >= x*y", "proved"),
        ("2v boundary sin4t", "(x^2 + y^2)^2 >= 4*x*y*(x^2 - y^2)", "proved"),
        ("2v Motzkin (mult.)", "x^4*y^2 + x^2*y^4 + 1 >= 3*x^2*y^2", "proved"),
        ("2v random d8", _random_sos(2, 8, 4, 1), "proved"),
        ("3v AM-GM", "x^2 + y^2 + z^2 >= x*y + y*z + z*x", "proved"),
        ("3v Schur t=2", "x^2*(x - y)*(x - z) + y^2*(y - x)*(y - z) + z^2*(z - x)*(z - y) >= 0", "proved"),
        ("3v Lagrange", "(a^2 + b^2 + c^2)*(x^2 + y^2 + z^2) >= (a*x + b*y + c*z)^2", "proved"),
        ("3v sum (xi-xj)^4", "(x - y)^4 + (y - z)^4 + (z - x)^4 >= 0", "proved"),
        ("3v AM-GM d6", "x^6 + y^6 + z^6 >= 3*x^2*y^2*z^2", "proved"),
        ("3v Robinson (mult.)", "x^6 + y^6 + z^6 + 3*x^2*y^2*z^2 >= x^4*y^2 + x^2*y^4 + x^4*z^2 + x^2*z^4 "
                                "+ y^4*z^2 + y^2*z^4", "proved"),
        ("3v Choi-Lam (mult.)", "x^4*y^2 + y^4*z^2 + z^4*x^2 >= 3*x^2*y^2*z^2", "proved"),
        ("4v AM-GM d4", "x^4 + y^4 + z^4 + w^4 >= 4*x*y*z*w", "proved"),
        ("4v Rosenbrock chain", _rosenbrock(4), "proved"),
        ("4v sum (xi-xj)^4", "(a - b)^4 + (b - c)^4 + (c - d)^4 + (d - a)^4 >= 0", "proved"),
        ("5v quadratic form", "5*(a^2 + b^2 + c^2 + d^2 + e^2) >= (a + b + c + d + e)^2", "proved"),
        ("6v random d4", _random_sos(6, 4, 8, 2), "proved"),
        ("6v chain", _chain(6), "proved"),
        ("8v random d4", _random_sos(8, 4, 10, 3), "proved"),
        ("8v Rosenbrock chain", _rosenbrock(8), "proved"),
        ("10v quadratic form", "10*(" + " + ".join(f"x{i}^2" for i in range(1, 11)) + ") >= ("
                               + " + ".join(f"x{i}" for i in range(1, 11)) + ")^2", "proved"),
        ("10v chain quartic", _chain(10), "proved"),
        ("10v random quartic", _random_sos(10, 4, 12, 4, support=8), "proved"),
        ("false 1v odd", "x^3 >= 0", "refuted"),
        ("false 2v x*y", "x*y >= 0", "refuted"),
        ("false 2v", "x^2 - 2*x*y >= 0", "refuted"),
        ("false 2v 3xy", "x^2 + y^2 >= 3*x*y", "refuted"),
        ("false Motzkin - eps", "x^4*y^2 + x^2*y^4 + 1 >= 3*x^2*y^2 + 1/100", "refuted"),
        ("false 1v d4", "x^4 >= x^3", "refuted"),
        ("false 5v odd", "a^4 + b^4 + c^4 + d^4 + e^4 >= a*b*c*d*e", "refuted"),
        ("false 6v d4", " + ".join(f"x{i}^4" for i in range(1, 7)) + " + 1 >= 2*("
                        + " + ".join(f"x{i}^2" for i in range(1, 7)) + ")", "refuted"),
        ("false 10v d2", " + ".join(f"x{i}^2" for i in range(1, 11)) + " >= 3*x1*x2", "refuted"),
    ]
    return cases


QUICK = {"1v d4", "2v AM-GM", "2v Motzkin (mult.)", "3v Schur t=2", "3v sum (xi-xj)^4", "4v Rosenbrock chain",
         "10v chain quartic", "false 2v x*y", "false 1v odd", "false Motzkin - eps"}


def dense_baseline(target: Polynomial) -> tuple[float, str, int]:
    """Dense SOS feasibility: Q >= 0 over all monomials of degree <= d/2, one equation per monomial."""
    import cvxpy as cp

    basis = full_basis(len(target.variables), target.degree())
    n = len(basis)
    started = time.perf_counter()
    gram = cp.Variable((n, n), symmetric=True)
    groups: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for i in range(n):
        for j in range(n):
            mono = tuple(a + b for a, b in zip(basis[i], basis[j], strict=True))
            groups.setdefault(mono, []).append((i, j))
    monos = sorted(set(groups) | set(target.terms))
    constraints = [gram >> 0]
    for mono in monos:
        entries = groups.get(mono, [])
        coefficient = float(target.terms.get(mono, 0))
        if not entries:
            return time.perf_counter() - started, "infeasible", n
        constraints.append(sum(gram[i, j] for i, j in entries) == coefficient)
    problem = cp.Problem(cp.Minimize(0), constraints)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            problem.solve(solver=cp.CLARABEL)
        except cp.error.SolverError:
            return time.perf_counter() - started, "solver error", n
    return time.perf_counter() - started, str(problem.status), n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="run a 10-instance subset")
    parser.add_argument("--no-baseline", action="store_true", help="skip the dense baseline")
    args = parser.parse_args()
    cases = [c for c in suite() if not args.quick or c[0] in QUICK]
    header = (f"{'instance':24s} {'n':>2s} {'d':>2s} {'status':9s} {'ok':3s} {'k':>1s} {'blocks':>14s} "
              f"{'total s':>8s} {'SDP s':>7s} {'exact s':>7s} {'dense n':>7s} {'dense s':>8s} {'ratio':>6s}")
    print(header)
    print("-" * len(header))
    stage_times: dict[str, list[float]] = {}
    successes, ratios, rows = 0, [], []
    for name, problem, expected in cases:
        poly = parse_inequality(problem).polynomial
        started = time.perf_counter()
        result = run(Params(problem=problem, lean_check=False), no_progress)
        total = time.perf_counter() - started
        ok = result.status == expected
        successes += ok
        for stage in result.stages:
            key = stage.name.split(" (")[0]
            stage_times.setdefault(key, []).append(stage.seconds)
        sdp = sum(s.seconds for s in result.stages if s.name.startswith("propose"))
        exact = sum(s.seconds for s in result.stages if s.name.startswith("round"))
        dense_n, dense_s, ratio = "", "", ""
        if result.status == "proved" and not args.no_baseline:
            target = multiplier(poly, result.multiplier_power).polynomial * poly
            seconds, status, size = dense_baseline(target)
            dense_n, dense_s = str(size), f"{seconds:8.2f}" + ("" if status == "optimal" else "*")
            if sdp > 0:
                ratios.append(seconds / sdp)
                ratio = f"{seconds / sdp:6.1f}"
        blocks = ",".join(str(b) for b in result.block_sizes)[:14]
        row = (f"{name:24s} {len(poly.variables):2d} {poly.degree():2d} {result.status:9s} {'yes' if ok else 'NO':3s} "
               f"{result.multiplier_power:1d} {blocks:>14s} {total:8.2f} {sdp:7.2f} {exact:7.2f} {dense_n:>7s} "
               f"{dense_s:>8s} {ratio:>6s}")
        rows.append(row)
        print(row, flush=True)
    print("-" * len(header))
    print(f"success rate: {successes}/{len(cases)} ({100.0 * successes / len(cases):.0f}%)")
    print("median time per stage (s): " + ", ".join(
        f"{stage} {statistics.median(times):.3f}" for stage, times in stage_times.items()))
    if ratios:
        print(f"dense-baseline SDP time / our SDP time: median {statistics.median(ratios):.1f}x, "
              f"min {min(ratios):.1f}x, max {max(ratios):.1f}x over {len(ratios)} proved instances "
              "(* = baseline not solved to optimality)")


if __name__ == "__main__":
    main()
