"""run(params, progress): explain one molecule with TN-SHAP-G and compare with exact values and shapiq."""

from __future__ import annotations

import time

import numpy as np

from models.common import Progress, torch_device
from models.shapley_graph.baselines import EXACT_MAX_ATOMS, exact_game_indices, shapiq_estimates
from models.shapley_graph.estimator import check_bond_dim, check_memory, tn_shap_g
from models.shapley_graph.gnn import load_gnn
from models.shapley_graph.indices import GameIndices
from models.shapley_graph.molecules import Molecule, parse_molecule
from models.shapley_graph.oracles import CoalitionGame, bond_pair_terms, build_game
from models.shapley_graph.params import Params
from models.shapley_graph.result import AtomValue, BaselineRow, CurvePoint, ExactValues, PairValue, Result
from models.shapley_graph.tensor_network import NetworkLayout

__all__ = ["closed_form_indices", "relative_l2", "run"]

CURVE_BUDGETS = (50, 100, 200, 400, 800, 1600)


def relative_l2(estimate: np.ndarray, truth: np.ndarray) -> float:
    """||estimate - truth|| / ||truth|| (absolute error when the truth is zero)."""
    scale = float(np.linalg.norm(truth))
    diff = float(np.linalg.norm(estimate - truth))
    return diff / scale if scale > 1e-12 else diff


def closed_form_indices(molecule: Molecule, oracle: str) -> tuple[np.ndarray, np.ndarray] | None:
    """Known Shapley values and SII of the additive and bond-pair oracles; None for the GNN."""
    n = molecule.n_atoms
    phi = molecule.crippen.astype(np.float64).copy()
    sii = np.zeros((n, n))
    if oracle == "additive":
        return phi, sii
    if oracle == "bond_pair":
        for (u, v), w in zip(molecule.bonds, bond_pair_terms(molecule), strict=True):
            phi[u] += w / 2
            phi[v] += w / 2
            sii[u, v] = sii[v, u] = w
        return phi, sii
    return None


def _atoms(indices: GameIndices, elements: tuple[str, ...]) -> list[AtomValue]:
    return [
        AtomValue(index=i, element=e, shapley=float(indices.shapley[i]), banzhaf=float(indices.banzhaf[i]),
                  stii=float(indices.stii_single[i]))
        for i, e in enumerate(elements)
    ]


def _pairs(indices: GameIndices, bonded: set[tuple[int, int]]) -> list[PairValue]:
    n = len(indices.shapley)
    return [
        PairValue(i=i, j=j, sii=float(indices.sii[i, j]), stii=float(indices.stii[i, j]),
                  banzhaf=float(indices.banzhaf_pair[i, j]), bonded=(i, j) in bonded)
        for i in range(n) for j in range(i + 1, n)
    ]


def _curve(game: CoalitionGame, layout: NetworkLayout, params: Params, truth: GameIndices,
           device: str, progress: Progress) -> list[CurvePoint]:
    """Error against exact of TN-SHAP-G and the shapiq estimators over budgets up to params.budget."""
    top = min(params.budget, 2**layout.n)
    budgets = sorted({b for b in CURVE_BUDGETS if b < top} | {top})
    points: list[CurvePoint] = []
    for k, budget in enumerate(budgets):
        progress(0.7 + 0.25 * k / len(budgets), f"Error curve: budget {budget}")
        est = tn_shap_g(game, layout, budget, params.bond_dim, params.seed, device=device)
        points.append(CurvePoint(method="TN-SHAP-G", budget=budget,
                                 shapley_error=relative_l2(est.indices.shapley, truth.shapley),
                                 sii_error=relative_l2(est.indices.sii, truth.sii)))
        if params.compare_baselines:
            for b in shapiq_estimates(game, budget, params.seed):
                points.append(CurvePoint(
                    method=b.name, budget=budget,
                    shapley_error=relative_l2(b.shapley, truth.shapley) if b.shapley is not None else None,
                    sii_error=relative_l2(b.sii, truth.sii) if b.sii is not None else None))
    return points


def run(params: Params, progress: Progress) -> Result:
    """Parse, build the masked game, fit TN-SHAP-G, then exact values (n <= 16) and shapiq baselines."""
    wall_start = time.perf_counter()
    progress(0.0, "Parsing the molecule")
    molecule = parse_molecule(params.smiles, params.name)
    layout = NetworkLayout(molecule.n_atoms, molecule.bonds)
    check_bond_dim(layout, params.bond_dim)
    check_memory(layout, params.bond_dim, params.budget)
    device = torch_device()
    game = build_game(molecule, params.oracle, params.baseline, device=device)
    bonded = {(min(u, v), max(u, v)) for u, v in molecule.bonds}

    progress(0.05, f"Querying {min(params.budget, 2**molecule.n_atoms)} coalitions and fitting the tensor network")
    estimate = tn_shap_g(game, layout, params.budget, params.bond_dim, params.seed, device=device,
                         progress=lambda f: progress(0.05 + 0.45 * f, "Fitting the tensor network (ALS sweeps)"))
    ind = estimate.indices
    result_fields: dict[str, object] = {}

    truth: GameIndices | None = None
    if molecule.n_atoms <= EXACT_MAX_ATOMS:
        progress(0.55, f"Exact values by brute force over {2**molecule.n_atoms} coalitions")
        exact_game = build_game(molecule, params.oracle, params.baseline, device=device)
        truth, _ = exact_game_indices(exact_game)
        result_fields["exact"] = ExactValues(atoms=_atoms(truth, molecule.elements),
                                             interactions=_pairs(truth, bonded), queries=exact_game.queries)
        result_fields["relative_l2_error"] = relative_l2(ind.shapley, truth.shapley)
        result_fields["sii_relative_l2_error"] = relative_l2(ind.sii, truth.sii)

    closed = closed_form_indices(molecule, params.oracle)
    if closed is not None:
        result_fields["closed_form_shapley_error"] = relative_l2(ind.shapley, closed[0])
        result_fields["closed_form_sii_error"] = float(np.linalg.norm(ind.sii - closed[1])) / max(
            float(np.linalg.norm(closed[1])), 1.0)

    baselines: list[BaselineRow] = []
    if params.compare_baselines:
        progress(0.6, "shapiq baselines at the same budget")
        budget = min(params.budget, 2**molecule.n_atoms)
        start = time.perf_counter()
        for b in shapiq_estimates(build_game(molecule, params.oracle, params.baseline, device=device),
                                  budget, params.seed):
            reference = (truth.shapley, truth.sii) if truth is not None else closed
            baselines.append(BaselineRow(
                name=b.name, queries=b.queries, seconds=time.perf_counter() - start,
                shapley_error=relative_l2(b.shapley, reference[0]) if reference is not None and b.shapley is not None else None,
                sii_error=relative_l2(b.sii, reference[1]) if reference is not None and b.sii is not None else None))
            start = time.perf_counter()

    curve: list[CurvePoint] = []
    if params.error_curve and truth is not None:
        curve = _curve(build_game(molecule, params.oracle, params.baseline, device=device), layout, params,
                       truth, device, progress)

    progress(1.0, "Done")
    gnn_r2 = load_gnn("cpu")[1].test_r2 if params.oracle == "gnn" else None
    return Result(
        name=molecule.name,
        smiles=molecule.smiles,
        oracle=params.oracle,
        baseline=params.baseline,
        bond_dim=params.bond_dim,
        n_atoms=molecule.n_atoms,
        elements=list(molecule.elements),
        bonds=[(int(u), int(v)) for u, v in molecule.bonds],
        bond_orders=list(molecule.bond_orders),
        coords=[(float(x), float(y)) for x, y in molecule.coords],
        atoms=_atoms(ind, molecule.elements),
        interactions=_pairs(ind, bonded),
        queries_used=estimate.queries,
        surrogate_r2=estimate.report.heldout_r2,
        surrogate_train_r2=estimate.report.train_r2,
        fit_sweeps=estimate.report.sweeps,
        n_parameters=estimate.surrogate.network.n_parameters(),
        value_empty=estimate.value_empty,
        value_full=estimate.value_full,
        efficiency_gap=float(ind.shapley.sum() - (estimate.value_full - estimate.value_empty)),
        baselines=baselines,
        error_curve=curve,
        gnn_test_r2=gnn_r2,
        fit_seconds=estimate.fit_seconds,
        index_seconds=estimate.index_seconds,
        wall_seconds=time.perf_counter() - wall_start,
        device=device,
        **result_fields,  # type: ignore[arg-type]
    )
