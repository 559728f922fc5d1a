"""Benchmark of the NSPI inequality prover: a global suite against a plain dense cvxpy SOS baseline, a
constrained suite against the unconstrained pipeline, and the time budget on a large instance.

1. Global suite: the full pipeline (parse, refute, fast paths, propose, round + project, both checks;
   Lean off). For each proved instance the baseline solves the same target (p, or D*p when a
   multiplier was needed) as a dense SOS feasibility SDP over *all* monomials of degree <= d/2 (no
   Newton polytope, no pruning, no sparsity) with the same solver; the table shows the ratio.
2. Constrained suite (AM-GM, Schur-type, Cauchy-Schwarz on a simplex, disc constraints, strict claims,
   false claims on a domain) over 3 refuter seeds: success rate, time per stage, and what the
   unconstrained pipeline (the same claim without its hypotheses) answers.
3. Budget: x1^10 + ... + x10^10 + 1 >= 0 with time_budget_s = 5, fast paths off and on (wall time).

    python benchmarks/bench_inequality.py [--quick] [--no-baseline] [--only constrained|global|budget]
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common.contract import no_progress  # noqa: E402
from models.inequality.basis import full_basis  # noqa: E402
from models.inequality.multipliers import multiplier  # noqa: E402
from models.inequality.params import Params  # noqa: E402
from models.inequality.parser import parse_inequality, parse_problem  # noqa: E402
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


def constrained_suite() -> list[tuple[str, str, list[str], dict[str, Any], str]]:
    """(name, problem, hypotheses, extra params, expected status)."""
    nonneg3 = ["x >= 0", "y >= 0", "z >= 0"]
    simplex3 = [*nonneg3, "x + y + z = 1"]
    disc = ["x^2 + y^2 <= 1"]
    return [
        ("AM-GM 3 cubes, x,y,z >= 0", "x^3 + y^3 + z^3 >= 3*x*y*z", nonneg3, {}, "proved"),
        ("AM-GM xy <= 1/4 on x+y=1", "x*y <= 1/4", ["x + y = 1"], {}, "proved"),
        ("AM-GM xyz <= 1/27 simplex", "x*y*z <= 1/27", simplex3, {}, "proved"),
        ("AM-GM 4 vars on simplex", "x*y*z*w <= 1/256", ["x >= 0", "y >= 0", "z >= 0", "w >= 0", "x + y + z + w = 1"],
         {}, "proved"),
        ("Schur t=1, x,y,z >= 0", "x*(x - y)*(x - z) + y*(y - x)*(y - z) + z*(z - x)*(z - y) >= 0", nonneg3,
         {"degree_bound": 6}, "proved"),
        ("Schur t=2, x,y,z >= 0", "x^2*(x - y)*(x - z) + y^2*(y - x)*(y - z) + z^2*(z - x)*(z - y) >= 0", nonneg3,
         {}, "proved"),
        ("C-S x^2+y^2+z^2 >= 1/3 simplex", "x^2 + y^2 + z^2 >= 1/3", ["x + y + z = 1"], {}, "proved"),
        ("power mean cubes on simplex", "x^3 + y^3 + z^3 >= 1/9", simplex3, {}, "proved"),
        ("C-S 3(ax+by+cz)^2 <= ... simplex", "(a*x + b*y + c*z)^2 <= a^2 + b^2 + c^2",
         ["x^2 + y^2 + z^2 = 1"], {}, "proved"),
        ("disc x + y <= 3/2", "x + y <= 3/2", disc, {}, "proved"),
        ("disc x*y <= 1/2", "x*y <= 1/2", disc, {}, "proved"),
        ("disc x^2 - y^2 <= 1", "x^2 - y^2 <= 1", disc, {}, "proved"),
        ("box xy + 1 >= x + y", "x*y + 1 >= x + y", ["x <= 1", "y <= 1"], {}, "proved"),
        ("x + y >= 2 given xy = 1", "x + y >= 2", ["x*y = 1", "x >= 0", "y >= 0"], {"degree_bound": 4}, "proved"),
        ("strict 2 - x^2 - y^2 > 0 disc", "2 - x^2 - y^2 > 0", disc, {}, "proved"),
        ("strict x + y < 3/2 disc", "x + y < 3/2", disc, {}, "proved"),
        ("strict x^2 + y^2 > 0 on x+y=1", "x^2 + y^2 > 0", ["x + y = 1"], {}, "proved"),
        ("strict global x^2-xy+y^2+1 > 0", "x^2 - x*y + y^2 + 1 > 0", [], {}, "proved"),
        ("false strict xy < 1/4 on x+y=1", "x*y < 1/4", ["x + y = 1"], {}, "refuted"),
        ("false xy >= 1/4 on x+y=1", "x*y >= 1/4", ["x + y = 1"], {}, "refuted"),
        ("false x + y <= 1 quarter disc", "x + y <= 1", [*disc, "x >= 0", "y >= 0"], {}, "refuted"),
        ("false x^3 >= x, x >= 0", "x^3 >= x", ["x >= 0"], {}, "refuted"),
    ]


def run_constrained(seeds: tuple[int, ...] = (0, 1, 2)) -> None:
    """The constrained suite over several refuter seeds, with the unconstrained pipeline alongside."""
    cases = constrained_suite()
    header = (f"{'instance':34s} {'n':>2s} {'hyp':>3s} {'expected':9s} " + " ".join(f"{'seed ' + str(s):>9s}" for s in seeds)
              + f" {'median s':>8s} {'route':28s} {'unconstrained':13s} {'unc. s':>6s}")
    print(header)
    print("-" * len(header))
    stage_times: dict[str, list[float]] = {}
    successes = {seed: 0 for seed in seeds}
    for name, problem, hypotheses, extra, expected in cases:
        statuses, times, route = [], [], ""
        for seed in seeds:
            started = time.perf_counter()
            result = run(Params(problem=problem, hypotheses=hypotheses, seed=seed, lean_check=False, **extra), no_progress)
            times.append(time.perf_counter() - started)
            statuses.append(result.status)
            successes[seed] += result.status == expected
            route = route or result.route
            for stage in result.stages:
                key = re.sub(r" \(.*", "", stage.name)
                stage_times.setdefault(key, []).append(stage.seconds)
        started = time.perf_counter()
        free = run(Params(problem=problem, lean_check=False, time_budget_s=30), no_progress)
        free_s = time.perf_counter() - started
        n = len(parse_problem(problem, hypotheses).variables)
        marks = " ".join(f"{s[:9]:>9s}" for s in statuses)
        print(f"{name:34s} {n:2d} {len(hypotheses):3d} {expected:9s} {marks} {statistics.median(times):8.2f} "
              f"{route[:28]:28s} {free.status:13s} {free_s:6.2f}", flush=True)
    print("-" * len(header))
    for seed in seeds:
        print(f"seed {seed}: success rate {successes[seed]}/{len(cases)} ({100.0 * successes[seed] / len(cases):.0f}%)")
    print("median time per stage (s): " + ", ".join(
        f"{stage} {statistics.median(t):.3f} (n={len(t)})" for stage, t in stage_times.items()))


def run_budget() -> None:
    """The issue's case: 52 s at 1.9 GB under a 5 s budget before; now bounded by the budget."""
    problem = " + ".join(f"x{i}^10" for i in range(1, 11)) + " + 1 >= 0"
    for fast in (False, True):
        started = time.perf_counter()
        result = run(Params(problem=problem, time_budget_s=5.0, fast_paths=fast, lean_check=False), no_progress)
        wall = time.perf_counter() - started
        print(f"x1^10+...+x10^10+1 >= 0, budget 5 s, fast paths {'on ' if fast else 'off'}: {result.status} "
              f"({result.route or (result.reason or '')[:60]}), wall {wall:.2f} s, peak RSS of this process "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="run a 10-instance subset")
    parser.add_argument("--no-baseline", action="store_true", help="skip the dense baseline")
    parser.add_argument("--only", choices=["global", "constrained", "budget"], help="run one part")
    args = parser.parse_args()
    if args.only in (None, "budget"):
        run_budget()
    if args.only in (None, "constrained"):
        run_constrained()
    if args.only in (None, "global"):
        run_global(args)


def run_global(args: argparse.Namespace) -> None:
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
