"""SDSOS (second-order cone, Clarabel) as the second fast path: it proves what DSOS cannot, and its
certificate is exact (the squares expand to p in rational arithmetic)."""

from __future__ import annotations

from models.inequality.fastpath import dsos_solution, sdsos_solution
from models.inequality.gram import build_system
from models.inequality.parser import parse_inequality
from models.inequality.polynomial import sum_polys
from models.inequality.sos import SosOptions, block_strategies, find_sos

# Quadratic forms (their Gram matrix is unique): [[10, 20], [20, 41]] is PSD (det 10 > 0) but not diagonally
# dominant (10 < 20), so DSOS fails, and every 2x2 PSD matrix is SDSOS; [[10, 20, 0], [20, 42, 1], [0, 1, 1]]
# (det 10) splits into PSD 2x2 blocks on (x, y) and (y, z) with room to spare.
CASES = ["10*x^2 + 40*x*y + 41*y^2 >= 0", "10*x^2 + 40*x*y + 42*y^2 + 2*y*z + z^2 >= 0"]


def _system(text: str):  # type: ignore[no-untyped-def]
    poly = parse_inequality(text).polynomial
    strategies, _ = block_strategies(poly, sparsity=False)
    return poly, build_system(poly, strategies[-1][1])


def test_sdsos_finds_a_margin_where_dsos_has_none() -> None:
    for text in CASES:
        _poly, system = _system(text)
        dsos = dsos_solution(system)
        assert dsos is None or dsos.margin <= 1e-7, text
        sdsos = sdsos_solution(system)
        assert sdsos is not None and sdsos.margin > 1e-6 and sdsos.solver.startswith("sdsos"), text


def test_the_sdsos_path_gives_squares_that_expand_exactly_to_p() -> None:
    for text in CASES:
        poly, _system_ = _system(text)
        outcome = find_sos(poly, SosOptions(sparsity=False))
        assert outcome.squares is not None and outcome.solver.startswith("sdsos"), (text, outcome.solver)
        expanded = sum_polys([s.expand() for s in outcome.squares], poly.variables)
        assert (expanded - poly).is_zero(), text
        assert all(s.coeff > 0 for s in outcome.squares)


def test_sdsos_refuses_a_polynomial_that_is_not_nonnegative() -> None:
    _poly, system = _system("x^2 + 3*x*y + y^2 >= 0")  # Gram [[1, 1.5], [1.5, 1]] is indefinite
    solution = sdsos_solution(system)
    assert solution is None or solution.margin < 0
