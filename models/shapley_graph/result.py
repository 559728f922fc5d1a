"""Result of a TN-SHAP-G run: per-atom and per-pair indices, the exact reference, baselines and downloads."""

from __future__ import annotations

import csv
import io

from pydantic import BaseModel

from models.common import Artifact, MethodResult
from models.common.contract import Table
from models.shapley_graph.depiction import molecule_svg
from models.shapley_graph.records import (
    AtomValue,
    BaselineRow,
    CurvePoint,
    ExactValues,
    MaskingRow,
    PairValue,
    SeedRow,
)
from models.shapley_graph.tables import result_tables

__all__ = [
    "AtomValue",
    "BaselineRow",
    "CurvePoint",
    "ExactValues",
    "MaskingRow",
    "PairValue",
    "Result",
    "SeedRow",
]


def _pct(value: float | None, digits: int = 3) -> float | str:
    return "n/a" if value is None else round(100 * value, digits)


class Result(MethodResult):
    """Indices of the masked game estimated from the tensor-network surrogate, with checks."""

    name: str
    smiles: str
    predictor: str
    masking: str
    bond_dim: int
    ensemble: int
    n_atoms: int
    elements: list[str]
    bonds: list[tuple[int, int]]
    bond_orders: list[float]
    coords: list[tuple[float, float]]
    crippen: list[float]
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
    warm_start_shapley_error: float | None = None
    warm_start_sii_error: float | None = None
    crippen_correlation: float | None = None
    masking_comparison: list[MaskingRow] = []
    baselines: list[BaselineRow] = []
    error_curve: list[CurvePoint] = []
    per_seed: list[SeedRow] = []
    predictor_test_r2: float | None = None
    fit_seconds: float
    index_seconds: float
    wall_seconds: float
    device: str

    def metrics(self) -> dict[str, float | int | str]:
        rows: dict[str, float | int | str] = {
            "Heavy atoms (players)": self.n_atoms,
            "Model queries used": self.queries_used,
            "Prediction v(all atoms) (logP units)": round(self.value_full, 4),
            "v(no atom) under this masking (logP units)": round(self.value_empty, 4),
            "Surrogate held-out R^2 on coalitions": round(self.surrogate_r2, 5) if self.surrogate_r2 is not None else "n/a",
            "Surrogate in-sample R^2": round(self.surrogate_train_r2, 5),
            "Efficiency gap sum(phi) - [v(N) - v(empty)] (logP units)": float(f"{self.efficiency_gap:.3g}"),
        }
        if self.exact is not None:
            rows["Exact reference"] = f"{self.exact.method} ({self.exact.queries:,} coalitions)"
            rows["Shapley relative L2 error vs exact (%)"] = _pct(self.relative_l2_error)
            rows["SII relative L2 error vs exact (%)"] = _pct(self.sii_relative_l2_error)
            rows["Warm start only: Shapley error (%)"] = _pct(self.warm_start_shapley_error)
            rows["Warm start only: SII error (%)"] = _pct(self.warm_start_sii_error)
        for row in self.baselines:
            if row.shapley_error is not None:
                rows[f"{row.name} Shapley error, same budget (%)"] = _pct(row.shapley_error)
            if row.sii_error is not None:
                rows[f"{row.name} SII error, same budget (%)"] = _pct(row.sii_error)
        if self.crippen_correlation is not None:
            rows["Correlation of phi with Crippen atom contributions"] = round(self.crippen_correlation, 3)
        if self.predictor_test_r2 is not None:
            rows["Predictor held-out R^2 (logP, test molecules)"] = round(self.predictor_test_r2, 3)
        rows["Ensemble fits"] = self.ensemble
        rows["Surrogate parameters"] = self.n_parameters
        rows["Fit time (s)"] = round(self.fit_seconds, 2)
        rows["Index time, all n + n^2 indices (s)"] = round(self.index_seconds, 3)
        return rows

    def tables(self) -> list[Table]:
        return result_tables(self)

    def artifacts(self) -> dict[str, Artifact]:
        exact_atoms = {a.index: a for a in self.exact.atoms} if self.exact else {}
        exact_pairs = {(p.i, p.j): p for p in self.exact.interactions} if self.exact else {}
        atoms = io.StringIO()
        writer = csv.writer(atoms)
        writer.writerow(["atom", "element", "phi", "phi_std", "phi_exact", "banzhaf", "stii_single", "crippen"])
        for a in self.atoms:
            exact = exact_atoms.get(a.index)
            writer.writerow([a.index, a.element, f"{a.shapley:.10g}", _num(a.shapley_std),
                             _num(exact.shapley if exact else None), f"{a.banzhaf:.10g}", f"{a.stii:.10g}",
                             f"{self.crippen[a.index]:.10g}"])
        pairs = io.StringIO()
        writer = csv.writer(pairs)
        writer.writerow(["i", "j", "element_i", "element_j", "bonded", "sii", "sii_std", "sii_exact", "stii",
                         "banzhaf_interaction"])
        for p in self.interactions:
            ex = exact_pairs.get((p.i, p.j))
            writer.writerow([p.i, p.j, self.elements[p.i], self.elements[p.j], int(p.bonded), f"{p.sii:.10g}",
                             _num(p.sii_std), _num(ex.sii if ex else None), f"{p.stii:.10g}", f"{p.banzhaf:.10g}"])
        files = {"shapley.csv": Artifact.csv(atoms.getvalue()), "interactions.csv": Artifact.csv(pairs.getvalue()),
                 "molecule.svg": Artifact.text(molecule_svg(self.smiles, {a.index: a.shapley for a in self.atoms},
                                                                  {(p.i, p.j): p.sii for p in self.interactions}), "image/svg+xml")}
        tables: dict[str, list[BaseModel]] = {"baselines.csv": list(self.baselines),
                                              "error_curve.csv": list(self.error_curve),
                                              "masking.csv": list(self.masking_comparison)}
        for file_name, rows in tables.items():
            if rows:
                files[file_name] = Artifact.csv(_table(rows))
        return files


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.10g}"


def _table(rows: list[BaseModel]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0].model_dump()))
    writer.writeheader()
    for row in rows:
        writer.writerow(row.model_dump())
    return out.getvalue()
