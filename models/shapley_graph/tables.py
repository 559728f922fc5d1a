"""The result tables of a TN-SHAP-G run as data: estimates beside the exact values, errors per seed, the
other estimators at the same budget, the maskings and the strongest pairs (the page draws them)."""

from __future__ import annotations

from typing import Protocol

from models.common.contract import Cell, Column, Table
from models.shapley_graph.params import MASKING_LABELS
from models.shapley_graph.records import AtomValue, BaselineRow, ExactValues, MaskingRow, PairValue, SeedRow

__all__ = ["COMPARISON", "EXACT", "MASKINGS", "PAIRS", "SEEDS", "result_tables"]

EXACT, SEEDS, COMPARISON = "Estimates beside the exact values", "Errors per seed, at equal queries", \
    "Against other estimators at the same budget (first seed)"
MASKINGS, PAIRS = "What phi means under each masking", "Strongest pair interactions"
_EXACT_NAMES = {"brute_force": "Exact, brute force", "receptive_field": "Exact, receptive fields (GraphSHAP-IQ idea)"}


class ShownRun(Protocol):
    """What the tables read of a run (models.shapley_graph.result.Result)."""

    elements: list[str]
    atoms: list[AtomValue]
    interactions: list[PairValue]
    exact: ExactValues | None
    per_seed: list[SeedRow]
    baselines: list[BaselineRow]
    masking_comparison: list[MaskingRow]
    queries_used: int
    fit_seconds: float
    index_seconds: float
    relative_l2_error: float | None
    sii_relative_l2_error: float | None
    warm_start_shapley_error: float | None
    warm_start_sii_error: float | None


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.3g}"


def _exact(run: ShownRun, exact: ExactValues) -> Table:
    largest = max(abs(a.shapley) for a in exact.atoms) or 1.0
    spread = any(a.shapley_std is not None for a in run.atoms)
    rows: list[dict[str, Cell]] = [
        {"atom": f"{est.element}{est.index + 1}", "shapley": est.shapley, "std": est.shapley_std, "exact": true.shapley,
         "error": est.shapley - true.shapley, "share": 100 * abs(est.shapley - true.shapley) / largest}
        for est, true in zip(run.atoms, exact.atoms, strict=True)]
    columns = [Column(key="atom", label="atom", fmt="text"), Column(key="shapley", label="Shapley (TN-SHAP-G)"),
               *([Column(key="std", label="± std (ensemble)")] if spread else []),
               Column(key="exact", label="Shapley (exact)"), Column(key="error", label="error"),
               Column(key="share", label="|error| / max |phi| (%)", digits=3)]
    return Table(title=EXACT, columns=columns, rows=rows)


def _seeds(run: ShownRun) -> Table:
    columns = [Column(key="seed", label="seed"), Column(key="queries", label="queries"),
               Column(key="shapley", label="TN-SHAP-G Shapley error (%)", fmt="text"),
               Column(key="sii", label="TN-SHAP-G SII error (%)", fmt="text")]
    rows: list[dict[str, Cell]] = []
    for r in run.per_seed:
        row: dict[str, Cell] = {"seed": r.seed, "queries": r.queries, "shapley": _pct(r.shapley_error),
                                "sii": _pct(r.sii_error)}
        for b in r.baselines:
            for kind, value in (("Shapley", b.shapley_error), ("SII", b.sii_error)):
                if value is not None:
                    key = f"{b.name} {kind}"
                    row[key] = _pct(value)
                    if all(c.key != key for c in columns):
                        columns.append(Column(key=key, label=f"{b.name} {kind} error (%)", fmt="text"))
        rows.append(row)
    return Table(title=SEEDS, columns=columns, rows=rows,
                 caption="Every seed draws its own coalitions and runs shapiq with its own seed; the exact reference is "
                 "the same for all. The tables below show the first seed.")


def _comparison(run: ShownRun) -> Table:
    exact = run.exact
    rows: list[dict[str, Cell]] = [{"method": "TN-SHAP-G (this page)", "queries": run.queries_used,
                                    "seconds": f"{run.fit_seconds + run.index_seconds:.3f}",
                                    "shapley": _pct(run.relative_l2_error), "sii": _pct(run.sii_relative_l2_error)}]
    if exact:
        rows.append({"method": "Warm start only (graph-local quadratic, no sweep)", "queries": run.queries_used,
                     "seconds": "(in the fit)", "shapley": _pct(run.warm_start_shapley_error),
                     "sii": _pct(run.warm_start_sii_error)})
    rows += [{"method": b.name, "queries": b.queries, "seconds": f"{b.seconds:.3f}", "shapley": _pct(b.shapley_error),
              "sii": _pct(b.sii_error)} for b in run.baselines]
    if exact and exact.method != "closed_form":
        rows.append({"method": _EXACT_NAMES[exact.method], "queries": exact.queries, "seconds": f"{exact.seconds:.3f}",
                     "shapley": "0", "sii": "0"})
    text = "text"
    return Table(title=COMPARISON, rows=rows,
                 columns=[Column(key="method", label="method", fmt=text), Column(key="queries", label="queries"),
                          Column(key="seconds", label="seconds", fmt=text),
                          Column(key="shapley", label="Shapley error (%)", fmt=text),
                          Column(key="sii", label="SII error (%)", fmt=text)],
                 caption="Relative L2 error against the exact values; the exact rows' queries are the coalitions they need.")


def _maskings(run: ShownRun) -> Table:
    return Table(title=MASKINGS, rows=[{"masking": MASKING_LABELS[r.masking], "meaning": r.meaning,
                                        "correlation": r.crippen_correlation, "empty": r.value_empty,
                                        "reference": r.reference.replace("_", " ")} for r in run.masking_comparison],
                 columns=[Column(key="masking", label="masking", fmt="text"),
                          Column(key="meaning", label="what phi then means", fmt="text"),
                          Column(key="correlation", label="corr(phi, Crippen)", digits=3),
                          Column(key="empty", label="v(no atom)", digits=3),
                          Column(key="reference", label="exact by", fmt="text")])


def _pairs(run: ShownRun) -> Table:
    exact = {(p.i, p.j): p.sii for p in run.exact.interactions} if run.exact else {}
    top = sorted(run.interactions, key=lambda p: -abs(p.sii))[:10]
    spread = any(p.sii_std is not None for p in top)
    rows: list[dict[str, Cell]] = [
        {"pair": f"{run.elements[p.i]}{p.i + 1} – {run.elements[p.j]}{p.j + 1}", "bonded": p.bonded, "sii": p.sii,
         "std": p.sii_std, "ratio": abs(p.sii) / p.sii_std if p.sii_std else None,
         "exact": exact.get((p.i, p.j)), "stii": p.stii, "banzhaf": p.banzhaf} for p in top]
    columns = [Column(key="pair", label="pair", fmt="text"), Column(key="bonded", label="bonded", fmt="mark"),
               Column(key="sii", label="SII"),
               *([Column(key="std", label="± std"), Column(key="ratio", label="|SII| / std", digits=3)] if spread else []),
               *([Column(key="exact", label="SII (exact)")] if exact else []),
               Column(key="stii", label="STII"), Column(key="banzhaf", label="Banzhaf interaction")]
    return Table(title=PAIRS, columns=columns, rows=rows)


def result_tables(run: ShownRun) -> list[Table]:
    """The run's tables in the page's order (the exact and per-seed ones only where they apply)."""
    tables = [_exact(run, run.exact)] if run.exact else []
    if len(run.per_seed) > 1 or run.exact:
        tables.append(_seeds(run))
    tables.append(_comparison(run))
    if run.masking_comparison:
        tables.append(_maskings(run))
    return [*tables, _pairs(run)]
