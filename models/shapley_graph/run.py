"""run(params, progress): explain one molecule with TN-SHAP-G, check it against the exact reference and shapiq."""

from __future__ import annotations

import time

import numpy as np

from models.common import Progress, torch_device
from models.common.progress import MonotoneProgress, sub_progress
from models.shapley_graph.baselines import EXACT_MAX_ATOMS, exact_game_indices, shapiq_estimates
from models.shapley_graph.estimator import TnShapEstimate, check_bond_dim, check_memory, tn_shap_g
from models.shapley_graph.gnn import load_predictor
from models.shapley_graph.indices import GameIndices
from models.shapley_graph.masking import MASKING_MEANING, MaskingName
from models.shapley_graph.molecules import Molecule, parse_molecule
from models.shapley_graph.oracles import build_game, mobius_oracle
from models.shapley_graph.params import Params
from models.shapley_graph.receptive_field import receptive_field_indices
from models.shapley_graph.reference import Reference, exact_reference
from models.shapley_graph.result import (
    AtomValue,
    BaselineRow,
    CurvePoint,
    ExactValues,
    MaskingRow,
    PairValue,
    Result,
)
from models.shapley_graph.tensor_network import NetworkLayout

__all__ = ["closed_form_indices", "relative_l2", "run"]

CURVE_BUDGETS = (50, 100, 200, 400, 800, 1600)


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


def _atoms(indices: GameIndices, elements: tuple[str, ...], spread: GameIndices | None = None) -> list[AtomValue]:
    return [
        AtomValue(index=i, element=e, shapley=float(indices.shapley[i]), banzhaf=float(indices.banzhaf[i]),
                  stii=float(indices.stii_single[i]),
                  shapley_std=float(spread.shapley[i]) if spread is not None else None)
        for i, e in enumerate(elements)
    ]


def _pairs(indices: GameIndices, bonded: set[tuple[int, int]], spread: GameIndices | None = None) -> list[PairValue]:
    n = len(indices.shapley)
    return [
        PairValue(i=i, j=j, sii=float(indices.sii[i, j]), stii=float(indices.stii[i, j]),
                  banzhaf=float(indices.banzhaf_pair[i, j]), bonded=(i, j) in bonded,
                  sii_std=float(spread.sii[i, j]) if spread is not None else None)
        for i in range(n) for j in range(i + 1, n)
    ]


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    if np.std(a) < 1e-12 or np.std(b) < 1e-12:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def _masking_comparison(molecule: Molecule, params: Params, reference: Reference | None, device: str,
                        progress: Progress) -> list[MaskingRow]:
    """Exact phi under each masking choice and its correlation with the Crippen atom contributions."""
    if params.predictor not in ("gnn", "gnn_global"):
        return []
    if params.predictor == "gnn_global" and molecule.n_atoms > EXACT_MAX_ATOMS:
        return []
    rows = []
    choices: tuple[MaskingName, ...] = ("baseline", "delete", "mean")
    for k, masking in enumerate(choices):
        progress(k / 3, f"Exact Shapley values with masking '{masking}'")
        empty = float(build_game(molecule, params.predictor, masking, device)(np.zeros(molecule.n_atoms, bool))[0])
        if masking == params.masking and reference is not None:
            phi, how = reference.indices.shapley, reference.method
        elif molecule.n_atoms <= EXACT_MAX_ATOMS:
            phi, how = exact_game_indices(build_game(molecule, params.predictor, masking, device))[0].shapley, "brute_force"
        else:
            try:
                phi, how = receptive_field_indices(molecule, masking, device=device).indices.shapley, "receptive_field"
            except ValueError:
                continue
        rows.append(MaskingRow(masking=masking, meaning=MASKING_MEANING[masking],
                               crippen_correlation=_correlation(phi, molecule.crippen), value_empty=empty,
                               reference=how))
    return rows


def _baselines(molecule: Molecule, params: Params, reference: Reference | None, device: str) -> list[BaselineRow]:
    budget = min(params.budget, 2**molecule.n_atoms)
    game = build_game(molecule, params.predictor, params.masking, device=device)
    rows = []
    for b in shapiq_estimates(game, budget, params.seed):
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
        est = tn_shap_g(game, layout, budget, params.bond_dim, params.seed, device=device)
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
    return ExactValues(method=reference.method, atoms=_atoms(truth, molecule.elements),
                       interactions=_pairs(truth, bonded), queries=reference.coalitions, seconds=reference.seconds,
                       relative_l2_error=relative_l2(estimate.indices.shapley, truth.shapley),
                       sii_relative_l2_error=relative_l2(estimate.indices.sii, truth.sii))


def run(params: Params, progress: Progress) -> Result:
    """Parse, build the masked game, fit TN-SHAP-G, then the exact reference, maskings and shapiq baselines."""
    wall_start = time.perf_counter()
    monotone = MonotoneProgress(progress)
    monotone(0.0, "Parsing the molecule")
    molecule = parse_molecule(params.smiles, params.name)
    layout = NetworkLayout(molecule.n_atoms, molecule.bonds)
    check_bond_dim(layout, params.bond_dim)
    check_memory(layout, params.bond_dim, params.budget)
    device = torch_device()
    bonded = {(min(u, v), max(u, v)) for u, v in molecule.bonds}

    fit_stage = sub_progress(monotone, 0.05, 0.45)
    fit_stage(0.0, f"Querying {min(params.budget, 2**molecule.n_atoms)} coalitions and fitting the tensor network")
    estimate = tn_shap_g(build_game(molecule, params.predictor, params.masking, device=device), layout,
                         params.budget, params.bond_dim, params.seed, ensemble=params.ensemble, device=device,
                         progress=lambda f: fit_stage(f, "Fitting the tensor network (ALS sweeps)"))
    ind = estimate.indices

    reference_stage = sub_progress(monotone, 0.45, 0.6)
    reference_stage(0.0, "Exact reference values")
    reference = exact_reference(molecule, params.predictor, params.masking, device=device,
                                progress=lambda f: reference_stage(f, "Exact values from receptive fields"))
    exact = _exact_values(reference, estimate, molecule, bonded) if reference is not None else None

    maskings = _masking_comparison(molecule, params, reference, device, sub_progress(monotone, 0.6, 0.7))
    baselines: list[BaselineRow] = []
    if params.compare_baselines:
        monotone(0.7, "shapiq baselines at the same budget")
        baselines = _baselines(molecule, params, reference, device)
    curve: list[CurvePoint] = []
    if params.error_curve and reference is not None and molecule.n_atoms <= EXACT_MAX_ATOMS:
        curve = _curve(molecule, layout, params, reference.indices, device, sub_progress(monotone, 0.8, 0.98))

    monotone(1.0, "Done")
    test_r2 = load_predictor(params.predictor, "cpu")[1].test_r2 if params.predictor in ("gnn", "gnn_global") else None
    return Result(
        name=molecule.name,
        smiles=molecule.smiles,
        predictor=params.predictor,
        masking=params.masking,
        bond_dim=params.bond_dim,
        ensemble=params.ensemble,
        n_atoms=molecule.n_atoms,
        elements=list(molecule.elements),
        bonds=[(int(u), int(v)) for u, v in molecule.bonds],
        bond_orders=list(molecule.bond_orders),
        coords=[(float(x), float(y)) for x, y in molecule.coords],
        crippen=[float(c) for c in molecule.crippen],
        atoms=_atoms(ind, molecule.elements, estimate.spread),
        interactions=_pairs(ind, bonded, estimate.spread),
        queries_used=estimate.queries,
        surrogate_r2=estimate.report.heldout_r2,
        surrogate_train_r2=estimate.report.train_r2,
        fit_sweeps=estimate.report.sweeps,
        n_parameters=estimate.surrogate.network.n_parameters(),
        value_empty=estimate.value_empty,
        value_full=estimate.value_full,
        efficiency_gap=float(ind.shapley.sum() - (estimate.value_full - estimate.value_empty)),
        exact=exact,
        relative_l2_error=exact.relative_l2_error if exact else None,
        sii_relative_l2_error=exact.sii_relative_l2_error if exact else None,
        warm_start_shapley_error=relative_l2(estimate.warm_start.shapley, reference.indices.shapley)
        if reference else None,
        warm_start_sii_error=relative_l2(estimate.warm_start.sii, reference.indices.sii) if reference else None,
        crippen_correlation=_correlation(ind.shapley, molecule.crippen),
        masking_comparison=maskings,
        baselines=baselines,
        error_curve=curve,
        predictor_test_r2=test_r2,
        fit_seconds=estimate.fit_seconds,
        index_seconds=estimate.index_seconds,
        wall_seconds=time.perf_counter() - wall_start,
        device=device,
    )
