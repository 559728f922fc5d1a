"""run(params, progress): explain one molecule with TN-SHAP-G on each seed, check it against the exact reference
and shapiq at the same budget; the claims are judged over the seeds."""

from __future__ import annotations

import time

import numpy as np

from models.common import Progress, torch_device
from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.progress import MonotoneProgress, sub_progress
from models.common.seeds import seed_values
from models.shapley_graph.baselines import shapiq_estimates
from models.shapley_graph.claims import CLAIMS
from models.shapley_graph.estimator import TnShapEstimate, check_bond_dim, check_memory, tn_shap_g
from models.shapley_graph.gnn import load_predictor
from models.shapley_graph.indices import GameIndices
from models.shapley_graph.molecules import Molecule, parse_molecule
from models.shapley_graph.oracles import build_game, mobius_oracle
from models.shapley_graph.params import Params
from models.shapley_graph.reference import Reference, exact_reference
from models.shapley_graph.result import BaselineRow, CurvePoint, ExactValues, Result, SeedRow
from models.shapley_graph.summaries import atom_rows, correlation, masking_comparison, pair_rows
from models.shapley_graph.tensor_network import NetworkLayout

__all__ = ["closed_form_indices", "relative_l2", "run"]

CURVE_BUDGETS = (50, 100, 200, 400, 800, 1600, 2400)
LABELS = {"tn_shap_g": "TN-SHAP-G", "KernelSHAP": "KernelSHAP", "PermutationSamplingSV": "Permutation sampling"}


def relative_l2(estimate: np.ndarray, truth: np.ndarray) -> float:
    """||estimate - truth|| / ||truth|| (absolute error when the truth is zero)."""
    scale = float(np.linalg.norm(truth))
    diff = float(np.linalg.norm(estimate - truth))
    return diff / scale if scale > 1e-12 else diff


def closed_form_indices(molecule: Molecule, predictor: str) -> tuple[np.ndarray, np.ndarray] | None:
    """Known Shapley values and SII of the validation games; None for a trained GNN."""
    oracle = mobius_oracle(molecule, predictor)
    if oracle is None:
        return None
    indices = oracle.indices()
    return indices.shapley, indices.sii


def _baselines(molecule: Molecule, params: Params, reference: Reference | None, device: str,
               seed: int) -> list[BaselineRow]:
    budget = min(params.budget, 2**molecule.n_atoms)
    game = build_game(molecule, params.predictor, params.masking, device=device)
    rows = []
    for b in shapiq_estimates(game, budget, seed):
        rows.append(BaselineRow(
            name=b.name, queries=b.queries, seconds=b.seconds,
            shapley_error=relative_l2(b.shapley, reference.indices.shapley)
            if reference is not None and b.shapley is not None else None,
            sii_error=relative_l2(b.sii, reference.indices.sii) if reference is not None and b.sii is not None else None))
    return rows


def _curve(molecule: Molecule, layout: NetworkLayout, params: Params, truth: GameIndices, device: str,
           progress: Progress) -> list[CurvePoint]:
    """Error against exact of TN-SHAP-G and the shapiq estimators over budgets up to params.budget."""
    top = min(params.budget, 2**layout.n)
    budgets = sorted({b for b in CURVE_BUDGETS if b < top} | {top})
    points: list[CurvePoint] = []
    for k, budget in enumerate(budgets):
        progress(k / len(budgets), f"Error curve: budget {budget}")
        game = build_game(molecule, params.predictor, params.masking, device=device)
        est = tn_shap_g(game, layout, budget, params.bond_dim, params.seed, ensemble=params.ensemble, device=device)
        points.append(CurvePoint(method="TN-SHAP-G", budget=budget,
                                 shapley_error=relative_l2(est.indices.shapley, truth.shapley),
                                 sii_error=relative_l2(est.indices.sii, truth.sii)))
        if params.compare_baselines:
            for b in shapiq_estimates(build_game(molecule, params.predictor, params.masking, device=device),
                                      budget, params.seed):
                points.append(CurvePoint(
                    method=b.name, budget=budget,
                    shapley_error=relative_l2(b.shapley, truth.shapley) if b.shapley is not None else None,
                    sii_error=relative_l2(b.sii, truth.sii) if b.sii is not None else None))
    return points


def _exact_values(reference: Reference, estimate: TnShapEstimate, molecule: Molecule,
                  bonded: set[tuple[int, int]]) -> ExactValues:
    truth = reference.indices
    return ExactValues(method=reference.method, atoms=atom_rows(truth, molecule.elements),
                       interactions=pair_rows(truth, bonded), queries=reference.coalitions, seconds=reference.seconds,
                       relative_l2_error=relative_l2(estimate.indices.shapley, truth.shapley),
                       sii_relative_l2_error=relative_l2(estimate.indices.sii, truth.sii))


def _one_seed(molecule: Molecule, layout: NetworkLayout, params: Params, reference: Reference | None, device: str,
              seed: int, progress: Progress) -> tuple[TnShapEstimate, SeedRow]:
    """One seed: its coalitions, the fit (and ensemble), the shapiq estimators at the same budget."""
    progress(0.0, f"Seed {seed}: querying {min(params.budget, 2**molecule.n_atoms)} coalitions and fitting")
    estimate = tn_shap_g(build_game(molecule, params.predictor, params.masking, device=device), layout,
                         params.budget, params.bond_dim, seed, ensemble=params.ensemble, device=device,
                         progress=lambda f: progress(0.8 * f, f"Seed {seed}: fitting the tensor network (ALS sweeps)"))
    baselines: list[BaselineRow] = []
    if params.compare_baselines:
        progress(0.8, f"Seed {seed}: shapiq baselines at the same budget")
        baselines = _baselines(molecule, params, reference, device, seed)
    truth: GameIndices | None = reference.indices if reference is not None else None

    def err(values: np.ndarray, exact: np.ndarray | None) -> float | None:
        return relative_l2(values, exact) if exact is not None else None

    ind = estimate.indices
    row = SeedRow(
        seed=seed, queries=estimate.queries,
        shapley_error=err(ind.shapley, truth.shapley if truth else None),
        sii_error=err(ind.sii, truth.sii if truth else None),
        warm_start_shapley_error=err(estimate.warm_start.shapley, truth.shapley if truth else None),
        warm_start_sii_error=err(estimate.warm_start.sii, truth.sii if truth else None),
        surrogate_r2=estimate.report.heldout_r2,
        efficiency_gap=float(ind.shapley.sum() - (estimate.value_full - estimate.value_empty)),
        fit_seconds=estimate.fit_seconds + estimate.index_seconds, baselines=baselines,
        uniform_shapley_error=err(np.full(molecule.n_atoms, (estimate.value_full - estimate.value_empty) / molecule.n_atoms),
                                  truth.shapley if truth else None))
    return estimate, row


EXACT_ERROR = 1e-6  # a relative L2 error below this is exact to the predictor's float precision: two such tie


def _measure(row: SeedRow, value_range: float) -> dict[str, Measurement]:
    """Each claim's quantity on one seed (None where the run's settings do not test it)."""
    has_ref = row.shapley_error is not None
    shapley = [b.shapley_error for b in row.baselines if b.shapley_error is not None]
    sii = [b.sii_error for b in row.baselines if b.sii_error is not None]
    ours_phi, ours_sii = row.shapley_error or 0.0, row.sii_error or 0.0
    return {
        "shapley": Measurement(row.shapley_error, has_ref, null=row.uniform_shapley_error),
        "sii": Measurement(row.sii_error, has_ref, null=1.0 if has_ref else None),  # all-zero SII: relative L2 = 1
        "vs_sampling": Measurement((1.0 if max(ours_phi, min(shapley)) < EXACT_ERROR else ours_phi / min(shapley))
                                   if has_ref and shapley else None,
                                   len(shapley) == 2,
                                   null=(row.uniform_shapley_error or 0.0) / max(min(shapley), 1e-300)
                                   if has_ref and shapley else None),
        "vs_shapiq_sii": Measurement(ours_sii / max(min(sii), 1e-300) if has_ref and sii else None, bool(sii),
                                     null=1.0 / max(min(sii), 1e-300) if has_ref and sii else None),
        "efficiency": Measurement(abs(row.efficiency_gap) / max(1.0, value_range)),
    }


def _standing(rows: list[SeedRow]) -> Standing | None:
    """Shapley error at equal queries, mean over seeds: TN-SHAP-G, KernelSHAP, permutation sampling."""
    if rows[0].shapley_error is None or not rows[0].baselines:
        return None
    scores: dict[str, list[float]] = {"tn_shap_g": [float(r.shapley_error or 0.0) for r in rows]}
    for name in ("KernelSHAP", "PermutationSamplingSV"):
        values = [b.shapley_error for r in rows for b in r.baselines if b.name == name and b.shapley_error is not None]
        if len(values) == len(rows):
            scores[name] = [float(v) for v in values]
    # errors below 1e-6 (relative L2) are exact to the predictor's float precision: 2e-16 against 6e-11 is a tie
    return Standing(metric="Shapley relative L2 error vs exact at equal queries", lower_is_better=True,
                    method="tn_shap_g", seed_scores=scores, labels=LABELS, floor=EXACT_ERROR)


def _result(molecule: Molecule, params: Params, estimate: TnShapEstimate, reference: Reference | None,
            rows: list[SeedRow], device: str) -> Result:
    """The first seed's indices and figures' data, every seed's errors; claims and standing over the seeds."""
    ind, first = estimate.indices, rows[0]
    bonded = {(min(u, v), max(u, v)) for u, v in molecule.bonds}
    exact = _exact_values(reference, estimate, molecule, bonded) if reference is not None else None
    value_range = abs(estimate.value_full - estimate.value_empty)
    measured = [_measure(r, value_range) for r in rows]
    test_r2 = load_predictor(params.predictor, "cpu")[1].test_r2 if params.predictor in ("gnn", "gnn_global") else None
    return Result(
        name=molecule.name, smiles=molecule.smiles, predictor=params.predictor, masking=params.masking,
        bond_dim=params.bond_dim, ensemble=params.ensemble, n_atoms=molecule.n_atoms,
        elements=list(molecule.elements), bonds=[(int(u), int(v)) for u, v in molecule.bonds],
        bond_orders=list(molecule.bond_orders), coords=[(float(x), float(y)) for x, y in molecule.coords],
        crippen=[float(c) for c in molecule.crippen],
        atoms=atom_rows(ind, molecule.elements, estimate.spread), interactions=pair_rows(ind, bonded, estimate.spread),
        queries_used=estimate.queries, surrogate_r2=estimate.report.heldout_r2,
        surrogate_train_r2=estimate.report.train_r2, fit_sweeps=estimate.report.sweeps,
        n_parameters=estimate.surrogate.network.n_parameters(), value_empty=estimate.value_empty,
        value_full=estimate.value_full, efficiency_gap=first.efficiency_gap, exact=exact,
        relative_l2_error=first.shapley_error, sii_relative_l2_error=first.sii_error,
        warm_start_shapley_error=first.warm_start_shapley_error, warm_start_sii_error=first.warm_start_sii_error,
        crippen_correlation=correlation(ind.shapley, molecule.crippen), baselines=first.baselines,
        predictor_test_r2=test_r2, fit_seconds=estimate.fit_seconds, index_seconds=estimate.index_seconds,
        wall_seconds=0.0, device=device, per_seed=rows,
        claims=evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS},
                               [r.seed for r in rows]),
        standing=_standing(rows),
    )


def run(params: Params, progress: Progress) -> Result:
    """Parse, the exact reference, then per seed fit TN-SHAP-G and shapiq; maskings and the error curve once."""
    wall_start = time.perf_counter()
    monotone = MonotoneProgress(progress)
    monotone(0.0, "Parsing the molecule")
    molecule = parse_molecule(params.smiles, params.name)
    layout = NetworkLayout(molecule.n_atoms, molecule.bonds)
    check_bond_dim(layout, params.bond_dim)
    check_memory(layout, params.bond_dim, params.budget)
    device = torch_device()

    reference_stage = sub_progress(monotone, 0.0, 0.1)
    reference_stage(0.0, "Exact reference values")
    reference = exact_reference(molecule, params.predictor, params.masking, device=device,
                                progress=lambda f: reference_stage(f, "Exact values from receptive fields"))
    seeds = seed_values(params.seed, params.seeds)
    outcomes = []
    for k, seed in enumerate(seeds):
        stage = sub_progress(monotone, 0.1 + 0.6 * k / len(seeds), 0.1 + 0.6 * (k + 1) / len(seeds))
        outcomes.append(_one_seed(molecule, layout, params, reference, device, seed, stage))
    result = _result(molecule, params, outcomes[0][0], reference, [row for _e, row in outcomes], device)
    result.masking_comparison = masking_comparison(molecule, params, reference, device, sub_progress(monotone, 0.7, 0.8))
    if params.error_curve and reference is not None:
        result.error_curve = _curve(molecule, layout, params, reference.indices, device,
                                    sub_progress(monotone, 0.8, 0.98))
    monotone(1.0, "Done")
    result.wall_seconds = time.perf_counter() - wall_start
    return result
