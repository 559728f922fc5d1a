"""Exact SOS search for one target polynomial: basis, SDP proposal, rounding + projection, facial reduction.

This is NSPI's propose-then-refine loop (arXiv 2605.15445) for a single polynomial: the SDP (or any
other proposer) suggests a float Gram matrix; exact refinement (Peyrl & Parrilo 2008) turns it
into a rational one that is checked PSD by LDL^T; singular cases go through facial reduction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .basis import block_strategies
from .certificate import WeightedSquare, squares_from_ldl
from .exact import Matrix
from .fastpath import DSOS_MAX_BASIS, SDSOS_MAX_BASIS, dsos_solution, sdsos_solution
from .gram import GramSystem, build_system
from .polynomial import Polynomial
from .rounding import BOUNDARY_MARGIN, facial_step, refine
from .sdp import SdpSolution, solve_gram_sdp, solve_gram_sdp_fast

__all__ = [
    "GramTooLarge",
    "SosOptions",
    "SosOutcome",
    "block_strategies",
    "find_sos",
    "refine",
    "refine_solution",
    "solve_system",
]


class GramTooLarge(Exception):
    """The reduced basis is still larger than the configured maximum Gram size."""


@dataclass(frozen=True)
class SosOptions:
    """Knobs of the SOS search (all bounded by Params)."""

    sparsity: bool = True
    facial_reduction: bool = True
    max_bits: int = 48
    max_gram: int = 91
    solver: str = "clarabel"
    dsos: bool = True  # a DSOS linear program first (Ahmadi-Majumdar); the SDP only when it fails
    sdsos: bool = True  # then an SDSOS second-order cone program (Clarabel) before the SDP


@dataclass
class SosOutcome:
    """Squares when found, plus what the page shows about the search."""

    squares: list[WeightedSquare] | None
    reason: str = ""
    # (label, squares) per Gram block of the final system: ("sos",), ("product", (i, ...)), ("eq", j, +1 | -1)
    block_squares: list[tuple[tuple[object, ...], list[WeightedSquare]]] = field(default_factory=list)
    basis_size: int = 0
    full_basis_size: int = 0
    block_sizes: list[int] = field(default_factory=list)
    sparsity: str = "dense"
    margin: float = float("nan")
    solver: str = ""
    denominator: int = 0
    facial_rounds: int = 0
    gram_labels: list[str] = field(default_factory=list)
    gram: list[list[float]] = field(default_factory=list)
    seconds_sdp: float = 0.0
    seconds_exact: float = 0.0


def _squares(system: GramSystem, factors: Sequence[Sequence[tuple[Fraction, Sequence[Fraction]]]], outcome: SosOutcome) -> None:
    """Read the squares of every block off its LDL^T factors into `outcome`."""
    squares: list[WeightedSquare] = []
    outcome.block_squares = []
    for block, block_factors in zip(system.blocks, factors, strict=True):
        found = squares_from_ldl(block_factors, block.basis)
        outcome.block_squares.append((block.label, found))
        squares.extend(found)
    outcome.squares = squares


def _dense_gram(system: GramSystem, grams: Sequence[Matrix]) -> tuple[list[str], list[list[float]]]:
    labels = [q.format() for block in system.blocks for q in block.basis]
    n = len(labels)
    dense = [[0.0] * n for _ in range(n)]
    offset = 0
    for gram in grams:
        for i, row in enumerate(gram):
            for j, value in enumerate(row):
                dense[offset + i][offset + j] = float(value)
        offset += len(gram)
    return labels, dense


FAST_BLOCK = 40


def _fast_attempt(
    system: GramSystem, options: SosOptions, outcome: SosOutcome
) -> tuple[SosOutcome | None, SdpSolution | None]:
    """Round from a fast low-accuracy SCS solution; (outcome, None) on success, (None, solution) when
    it shows clear infeasibility (so the accurate solve is skipped), else (None, None)."""
    started = time.perf_counter()
    fast = solve_gram_sdp_fast(system)
    outcome.seconds_sdp += time.perf_counter() - started
    if fast is None:
        return None, None
    if fast.margin < -1e-3:
        return None, fast
    if not fast.feasible:
        return None, None
    started = time.perf_counter()
    refined = refine(system, fast, options.max_bits)
    outcome.seconds_exact += time.perf_counter() - started
    if refined is None:
        return None, None
    factors, grams, denominator = refined
    _squares(system, factors, outcome)
    outcome.denominator, outcome.margin, outcome.solver = denominator, fast.margin, fast.solver
    outcome.gram_labels, outcome.gram = _dense_gram(system, grams)
    return outcome, None


def find_sos(
    target: Polynomial,
    options: SosOptions,
    check_cancel: Callable[[], None] | None = None,
    initial: Callable[[GramSystem], SdpSolution | None] | None = None,
) -> SosOutcome:
    """An exact SOS decomposition of `target`, or the reason none was found. Every block size is
    checked against `max_gram` before its system is built (building is the memory-hungry step)."""
    if target.is_zero():
        return SosOutcome(squares=[], reason="zero polynomial")
    strategies, raw = block_strategies(target, options.sparsity)
    outcome = SosOutcome(squares=None, full_basis_size=raw)
    dense = strategies[-1][1]
    outcome.basis_size = sum(len(b) for b in dense)
    if not dense:
        outcome.reason = "the Newton polytope leaves no basis monomial (p is not a sum of squares)"
        return outcome
    if all(max(len(b) for b in bases) > options.max_gram for _, bases in strategies):
        raise GramTooLarge(f"Gram matrix of size {outcome.basis_size} is above the maximum of {options.max_gram}")
    if options.dsos:
        found = _dsos_attempt(target, strategies, options, outcome, check_cancel)
        if found is not None:
            return found
    solution = SdpSolution([], float("-inf"), "none", "not run")
    system: GramSystem | None = None
    for name, bases in strategies:
        sizes = [len(b) for b in bases]
        if max(sizes) > options.max_gram:
            continue
        if check_cancel is not None:
            check_cancel()
        outcome.block_sizes, outcome.sparsity = sizes, name
        started = time.perf_counter()
        system = build_system(target, bases)
        outcome.seconds_sdp += time.perf_counter() - started
        proposed = initial(system) if initial is not None else None
        if proposed is None and options.solver == "clarabel" and max(sizes) > FAST_BLOCK:
            shortcut, proposed = _fast_attempt(system, options, outcome)
            if shortcut is not None:
                return shortcut
        started = time.perf_counter()
        solution = proposed if proposed is not None else solve_gram_sdp(system, options.solver)
        outcome.seconds_sdp += time.perf_counter() - started
        if solution.feasible:
            break
    assert system is not None
    return refine_solution(system, solution, options, outcome, check_cancel)


def _dsos_attempt(
    target: Polynomial,
    strategies: list[tuple[str, list[list[Polynomial]]]],
    options: SosOptions,
    outcome: SosOutcome,
    check_cancel: Callable[[], None] | None,
) -> SosOutcome | None:
    """The LP first pass on the smallest split that fits: exact squares when p is strictly DSOS there."""
    for name, bases in strategies:
        sizes = [len(b) for b in bases]
        if max(sizes) > min(options.max_gram, DSOS_MAX_BASIS):
            continue
        started = time.perf_counter()
        system = build_system(target, bases)
        solution = dsos_solution(system)
        if (solution is None or solution.margin <= 1e-7) and options.sdsos and max(sizes) <= SDSOS_MAX_BASIS:
            solution = sdsos_solution(system)  # the second fast path: SOCP, still no m x m PSD cone
        outcome.seconds_sdp += time.perf_counter() - started
        if solution is None or solution.margin <= 1e-7:
            return None
        attempt = SosOutcome(squares=None, full_basis_size=outcome.full_basis_size, basis_size=outcome.basis_size,
                             block_sizes=sizes, sparsity=name, seconds_sdp=outcome.seconds_sdp)
        found = refine_solution(system, solution, options, attempt, check_cancel)
        return found if found.squares is not None else None
    return None


def solve_system(
    system: GramSystem, options: SosOptions, check_cancel: Callable[[], None] | None = None
) -> SosOutcome:
    """SDP + exact refinement of an already built (possibly weighted) Gram system."""
    outcome = SosOutcome(squares=None, basis_size=sum(b.size for b in system.blocks))
    outcome.full_basis_size = outcome.basis_size
    outcome.block_sizes, outcome.sparsity = [b.size for b in system.blocks], "weighted"
    if check_cancel is not None:
        check_cancel()
    started = time.perf_counter()
    solution = solve_gram_sdp(system, options.solver)
    outcome.seconds_sdp += time.perf_counter() - started
    return refine_solution(system, solution, options, outcome, check_cancel)


def refine_solution(
    system: GramSystem,
    solution: SdpSolution,
    options: SosOptions,
    outcome: SosOutcome,
    check_cancel: Callable[[], None] | None = None,
) -> SosOutcome:
    """Round + project + LDL^T from a numerical solution, with facial reduction on a singular one."""
    outcome.margin, outcome.solver = solution.margin, solution.solver
    if not solution.feasible:
        outcome.reason = f"the SDP has no PSD Gram matrix (margin {solution.margin:.2e}, {solution.status})"
        return outcome
    for round_index in range(4):
        if check_cancel is not None:
            check_cancel()
        started = time.perf_counter()
        boundary = options.facial_reduction and round_index < 3 and solution.margin < BOUNDARY_MARGIN
        refined = refine(system, solution, options.max_bits, snaps_only=boundary)
        reduced = None
        if refined is None and options.facial_reduction and round_index < 3:
            reduced = facial_step(system, solution)
            if reduced is None and boundary:  # no rational kernel: fall back to fine grids
                refined = refine(system, solution, options.max_bits)
        outcome.seconds_exact += time.perf_counter() - started
        if refined is not None:
            factors, grams, denominator = refined
            _squares(system, factors, outcome)
            outcome.denominator, outcome.facial_rounds = denominator, round_index
            outcome.gram_labels, outcome.gram = _dense_gram(system, grams)
            return outcome
        if reduced is None:
            break
        system = reduced
        started = time.perf_counter()
        solution = solve_gram_sdp(system, options.solver)
        outcome.seconds_sdp += time.perf_counter() - started
        outcome.margin = solution.margin
        if not solution.feasible:
            break
    outcome.reason = (
        f"rounding up to 2^{options.max_bits} did not give a PSD Gram matrix "
        f"(numerical margin {outcome.margin:.2e}; the Gram matrix is on the boundary of the PSD cone)"
    )
    outcome.gram_labels = [q.format() for block in system.blocks for q in block.basis]
    if solution.grams:
        from scipy.linalg import block_diag

        outcome.gram = np.asarray(block_diag(*solution.grams)).tolist()
    return outcome
