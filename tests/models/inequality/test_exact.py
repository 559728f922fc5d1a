"""Exact linear algebra, bases and sparsity against brute force and known answers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from models.inequality.basis import diagonal_prune, full_basis, newton_basis
from models.inequality.exact import ldl_psd, project, round_matrix, solve_consistent
from models.inequality.gram import build_system
from models.inequality.parser import parse_polynomial
from models.inequality.polynomial import Polynomial
from models.inequality.sparsity import correlative_blocks, term_sparsity_blocks, variable_cliques


def _frac(matrix: np.ndarray) -> list[list[Fraction]]:
    return [[Fraction(int(v)) for v in row] for row in matrix]


@pytest.mark.parametrize("seed", range(6))
def test_ldl_agrees_with_eigenvalues_and_reconstructs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 6
    factor = rng.integers(-3, 4, size=(n, int(rng.integers(2, n + 1))))
    gram = factor @ factor.T  # PSD, possibly singular
    if seed % 2:
        gram[0, 0] -= 50  # make it indefinite
    exact = _frac(gram)
    result = ldl_psd(exact)
    psd = np.linalg.eigvalsh(gram.astype(float)).min() >= -1e-9
    assert (result is not None) == psd
    if result is not None:
        rebuilt = [[sum((d * col[i] * col[j] for d, col in result), Fraction(0)) for j in range(n)] for i in range(n)]
        assert rebuilt == exact
        assert all(d > 0 for d, _ in result)


def test_ldl_rejects_zero_pivot_with_nonzero_column() -> None:
    assert ldl_psd([[Fraction(0), Fraction(1)], [Fraction(1), Fraction(5)]]) is None


@pytest.mark.parametrize("seed", range(4))
def test_solve_consistent_on_rank_deficient_systems(seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, size=(7, 4))
    g = _frac(a @ a.T)  # 7x7, rank <= 4
    x = [Fraction(int(v), 3) for v in rng.integers(-5, 6, size=7)]
    rhs = [sum((g[i][j] * x[j] for j in range(7)), Fraction(0)) for i in range(7)]
    y = solve_consistent(g, rhs)
    assert y is not None
    assert [sum((g[i][j] * y[j] for j in range(7)), Fraction(0)) for i in range(7)] == rhs
    bad = list(rhs)
    null = np.linalg.svd(a.T.astype(float))[2][-1]  # a direction outside the range of g
    bad_vector = [Fraction(round(float(v) * 1000)) for v in null]
    bad = [r + b for r, b in zip(rhs, bad_vector, strict=True)]
    assert solve_consistent(g, bad) is None


def test_projection_lands_exactly_in_the_gram_space() -> None:
    poly = parse_polynomial("x^4 + 2*x^3*y + 5*x^2*y^2 + 7*y^4 + 3*x^2 + 1")
    basis = [Polynomial.monomial(poly.variables, m) for m in newton_basis(poly)]
    system = build_system(poly, [basis])
    rng = np.random.default_rng(0)
    noisy = rng.normal(size=(len(basis), len(basis)))
    rounded = round_matrix(noisy + noisy.T, 64, snap=False)
    projected = project(system, [rounded])
    assert projected is not None
    assert system.polynomial_of(projected) == poly
    assert all(projected[0][i][j] == projected[0][j][i] for i in range(len(basis)) for j in range(len(basis)))


def test_newton_basis_of_motzkin_and_full_basis_size() -> None:
    motzkin = parse_polynomial("x^4*y^2 + x^2*y^4 - 3*x^2*y^2 + 1")
    basis = set(newton_basis(motzkin))
    assert basis == {(0, 0), (1, 1), (2, 1), (1, 2)}
    assert len(full_basis(10, 4)) == 66  # C(12, 2)


def test_diagonal_pruning_drops_monomials_with_no_square() -> None:
    # p = x^2 y^2 + 1: x*y and 1 must stay; x and y have squares x^2, y^2 outside supp(p)
    support = set(parse_polynomial("x^2*y^2 + 1").terms)
    pruned = diagonal_prune([(0, 0), (1, 0), (0, 1), (1, 1)], support)
    assert set(pruned) == {(0, 0), (1, 1)}


def test_term_sparsity_splits_sign_symmetric_polynomials() -> None:
    poly = parse_polynomial("x^4 + y^4 + 1 - x*y")
    basis = newton_basis(poly)
    blocks = term_sparsity_blocks(basis, set(poly.terms))
    assert sorted(len(b) for b in blocks) == [2, 4]
    assert sorted(m for b in blocks for m in b) == sorted(basis)


def test_correlative_cliques_of_a_chain() -> None:
    chain = parse_polynomial("(a - b)^2 + (b - c)^2 + (c - d)^2 + a^4 + d^4")
    cliques = variable_cliques(chain)
    assert sorted(sorted(c) for c in cliques) == [[0, 1], [1, 2], [2, 3]]
    blocks = correlative_blocks(newton_basis(chain), chain)
    assert blocks is not None and max(len(b) for b in blocks) < len(newton_basis(chain))
