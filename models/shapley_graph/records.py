"""The records a TN-SHAP-G run reports: atom and pair indices, the exact reference, baselines, seeds."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

__all__ = ["AtomValue", "BaselineRow", "CurvePoint", "ExactValues", "MaskingRow", "PairValue", "SeedRow"]


class AtomValue(BaseModel):
    """One atom (player): Shapley value (and its spread over the ensemble), Banzhaf, order-1 STII term."""

    index: int
    element: str
    shapley: float
    banzhaf: float
    stii: float
    shapley_std: float | None = None


class PairValue(BaseModel):
    """One pair of atoms: Shapley interaction index (and spread), Shapley-Taylor (order 2), Banzhaf interaction."""

    i: int
    j: int
    sii: float
    stii: float
    banzhaf: float
    bonded: bool
    sii_std: float | None = None


class ExactValues(BaseModel):
    """The exact reference: how it was computed, how many coalitions it needed, and this run's errors against it."""

    method: Literal["brute_force", "receptive_field", "closed_form"]
    atoms: list[AtomValue]
    interactions: list[PairValue]
    queries: int
    seconds: float
    relative_l2_error: float
    sii_relative_l2_error: float


class BaselineRow(BaseModel):
    """A shapiq estimator at the same budget: its own wall time and relative L2 errors (None without a reference)."""

    name: str
    queries: int
    seconds: float
    shapley_error: float | None = None
    sii_error: float | None = None


class CurvePoint(BaseModel):
    """Relative L2 error of one estimator at one budget (against the exact reference)."""

    method: str
    budget: int
    shapley_error: float | None = None
    sii_error: float | None = None


class MaskingRow(BaseModel):
    """One masking choice: what phi means, the exact phi's correlation with the Crippen atom contributions."""

    masking: str
    meaning: str
    crippen_correlation: float
    value_empty: float
    reference: str


class SeedRow(BaseModel):
    """One seed: its own coalitions, fit and shapiq runs, and their errors against the (seed-free) exact reference."""

    seed: int
    queries: int
    shapley_error: float | None = None
    sii_error: float | None = None
    warm_start_shapley_error: float | None = None
    warm_start_sii_error: float | None = None
    surrogate_r2: float | None = None
    efficiency_gap: float
    fit_seconds: float
    baselines: list[BaselineRow] = []
    uniform_shapley_error: float | None = None  # the trivial reference: phi_u = (v(N) - v(empty)) / n for every u
