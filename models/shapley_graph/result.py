"""Result of a TN-SHAP-G run: per-atom and per-pair indices, fit quality, baselines and downloads."""

from __future__ import annotations

import csv
import io

from pydantic import BaseModel

from models.common import Artifact, MethodResult

__all__ = ["AtomValue", "BaselineRow", "CurvePoint", "ExactValues", "PairValue", "Result"]


class AtomValue(BaseModel):
    """One atom (player): Shapley value, Banzhaf value and the order-1 STII term v({i}) - v(empty)."""

    index: int
    element: str
    shapley: float
    banzhaf: float
    stii: float


class PairValue(BaseModel):
    """One pair of atoms: Shapley interaction index, Shapley-Taylor (order 2) and Banzhaf interaction."""

    i: int
    j: int
    sii: float
    stii: float
    banzhaf: float
    bonded: bool


class ExactValues(BaseModel):
    """Brute-force values over all 2^n coalitions (n <= 16)."""

    atoms: list[AtomValue]
    interactions: list[PairValue]
    queries: int


class BaselineRow(BaseModel):
    """A shapiq estimator at the same budget: relative L2 errors against exact (None when n > 16)."""

    name: str
    queries: int
    shapley_error: float | None = None
    sii_error: float | None = None
    seconds: float


class CurvePoint(BaseModel):
    """Relative L2 error of one estimator at one budget (against exact values)."""

    method: str
    budget: int
    shapley_error: float | None = None
    sii_error: float | None = None


class Result(MethodResult):
    """Indices of the masked game estimated from the tensor-network surrogate, with checks."""

    name: str
    smiles: str
    oracle: str
    baseline: str
    bond_dim: int
    n_atoms: int
    elements: list[str]
    bonds: list[tuple[int, int]]
    bond_orders: list[float]
    coords: list[tuple[float, float]]
    atoms: list[AtomValue]
    interactions: list[PairValue]
    queries_used: int
    surrogate_r2: float | None
    surrogate_train_r2: float
    fit_sweeps: int
    n_parameters: int
    value_empty: float
    value_full: float
    efficiency_gap: float
    exact: ExactValues | None = None
    relative_l2_error: float | None = None
    sii_relative_l2_error: float | None = None
    closed_form_shapley_error: float | None = None
    closed_form_sii_error: float | None = None
    baselines: list[BaselineRow] = []
    error_curve: list[CurvePoint] = []
    gnn_test_r2: float | None = None
    fit_seconds: float
    index_seconds: float
    wall_seconds: float
    device: str

    def metrics(self) -> dict[str, float | int | str]:
        rows: dict[str, float | int | str] = {
            "Heavy atoms (players)": self.n_atoms,
            "Model queries used": self.queries_used,
            "Surrogate held-out R^2 on coalitions": round(self.surrogate_r2, 5) if self.surrogate_r2 is not None else "n/a",
            "Surrogate in-sample R^2": round(self.surrogate_train_r2, 5),
            "Efficiency gap sum(phi) - [v(N) - v(empty)] (logP units)": float(f"{self.efficiency_gap:.3g}"),
        }
        if self.relative_l2_error is not None:
            rows["Shapley relative L2 error vs exact (%)"] = round(100 * self.relative_l2_error, 3)
        if self.sii_relative_l2_error is not None:
            rows["SII relative L2 error vs exact (%)"] = round(100 * self.sii_relative_l2_error, 3)
        if self.closed_form_shapley_error is not None:
            rows["Shapley relative L2 error vs closed form (%)"] = round(100 * self.closed_form_shapley_error, 4)
        for row in self.baselines:
            if row.shapley_error is not None:
                rows[f"{row.name} Shapley error, same budget (%)"] = round(100 * row.shapley_error, 3)
            if row.sii_error is not None:
                rows[f"{row.name} SII error, same budget (%)"] = round(100 * row.sii_error, 3)
        if self.gnn_test_r2 is not None:
            rows["GNN held-out R^2 (logP, test molecules)"] = round(self.gnn_test_r2, 3)
        rows["Surrogate parameters"] = self.n_parameters
        rows["Fit time (s)"] = round(self.fit_seconds, 2)
        rows["Index time, all n + n^2 indices (s)"] = round(self.index_seconds, 3)
        return rows

    def artifacts(self) -> dict[str, Artifact]:
        atoms = io.StringIO()
        writer = csv.writer(atoms)
        writer.writerow(["atom", "element", "phi", "banzhaf", "stii_single"])
        for a in self.atoms:
            writer.writerow([a.index, a.element, f"{a.shapley:.10g}", f"{a.banzhaf:.10g}", f"{a.stii:.10g}"])
        pairs = io.StringIO()
        writer = csv.writer(pairs)
        writer.writerow(["i", "j", "element_i", "element_j", "bonded", "sii", "stii", "banzhaf_interaction"])
        for p in self.interactions:
            writer.writerow(
                [p.i, p.j, self.elements[p.i], self.elements[p.j], int(p.bonded),
                 f"{p.sii:.10g}", f"{p.stii:.10g}", f"{p.banzhaf:.10g}"]
            )
        return {"shapley.csv": Artifact.csv(atoms.getvalue()), "interactions.csv": Artifact.csv(pairs.getvalue())}
