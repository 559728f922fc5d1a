"""Exact refinement of a float Gram proposal (Peyrl & Parrilo 2008): round at increasing precision,
project onto the affine space exactly, LDL^T each block; on a singular proposal, facial reduction
shrinks the basis to the face the Gram matrix lies on."""

from __future__ import annotations

import math
from fractions import Fraction

from .budget import check_time
from .exact import Matrix, ldl_psd, project, round_matrix
from .facial import rational_kernel, reduce_basis
from .gram import GramSystem, build_system
from .polynomial import Polynomial
from .sdp import SdpSolution

__all__ = ["BOUNDARY_MARGIN", "facial_step", "refine"]


BOUNDARY_MARGIN = 1e-6  # normalised margin below which Q is treated as singular (on a face of the cone)


def _denominators(
    size: int, margin: float, scale: float, max_bits: int, snaps_only: bool = False
) -> list[tuple[int, bool]]:
    """Rounding schedule: coarse continued-fraction snaps first (they hit exact boundary solutions),
    then dyadic grids starting where the rounding error n/den falls below the eigenvalue margin."""
    schedule: list[tuple[int, bool]] = [(1, True), (12, True), (720, True)]
    if snaps_only:
        return schedule
    actual = margin * scale
    start_bits = 8 if actual <= 0 else max(8, math.ceil(math.log2(4 * max(size, 1) / actual)))
    bits = min(start_bits, max_bits)
    while bits <= max_bits:
        schedule.append((2**bits, False))
        if bits == max_bits:
            break
        bits = min(bits + 8, max_bits)
    return schedule


def refine(
    system: GramSystem, solution: SdpSolution, max_bits: int, snaps_only: bool = False
) -> tuple[list[list[tuple[Fraction, list[Fraction]]]], list[Matrix], int] | None:
    """Round at increasing precision, project exactly, LDL^T each block; first PSD hit wins. On a
    singular Q (`snaps_only`) fine grids cannot land inside the face, so only coarse snaps are tried."""
    scale = max(float(abs(c)) for c in system.rhs) or 1.0
    size = max(b.size for b in system.blocks)
    for denominator, snap in _denominators(size, solution.margin, scale, max_bits, snaps_only):
        check_time()
        rounded = [round_matrix(g, denominator, snap) for g in solution.grams]
        projected = project(system, rounded)
        if projected is None:
            return None  # the affine space has no rational point near: stop
        factors = []
        for gram in projected:
            ldl = ldl_psd(gram)
            if ldl is None:
                break
            factors.append(ldl)
        else:
            return factors, projected, denominator
    return None


def facial_step(system: GramSystem, solution: SdpSolution) -> GramSystem | None:
    """The system over the reduced face, or None when no block has a rational numerical kernel."""
    new_bases: list[list[Polynomial]] = []
    weights: list[Polynomial | None] = []
    labels: list[tuple[object, ...]] = []
    changed = False
    for block, gram in zip(system.blocks, solution.grams, strict=True):
        kernel = None
        for tol in (1e-7, 1e-5, 1e-3):
            for max_den in (12, 1000):
                kernel = rational_kernel(gram, tol, max_den)
                if kernel is not None:
                    break
            if kernel is not None:
                break
        basis = block.basis
        if kernel is not None:
            rows, pivots = kernel
            basis = reduce_basis(block.basis, rows, pivots)
            changed = True
        if basis:
            new_bases.append(basis)
            weights.append(block.weight)
            labels.append(block.label)
    if not changed or not new_bases:
        return None
    return build_system(system.target, new_bases, weights, labels)
