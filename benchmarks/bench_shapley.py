"""TN-SHAP-G against shapiq's KernelSHAP and permutation sampling on the trained logP GNN.

Part 1, accuracy: for molecules of 10, 14 and 16 heavy atoms, the relative L2 error of the Shapley
values against exact brute force (all 2^n coalitions) at budgets 50 / 150 / 500, median over seeds;
the baselines get the same number of model queries. Ratio = KernelSHAP error / TN-SHAP-G error.
Also the pairwise SII error of TN-SHAP-G vs KernelSHAPIQ at the same budget.

Part 2, wall time: molecules of 30 and 60 heavy atoms, 500 queries, bond dimension 3 and 4: the
whole TN-SHAP-G estimate (queries + fit + all n Shapley and n^2 pair indices) beside KernelSHAP
(first order only) at the same budget; ratio = TN-SHAP-G time / KernelSHAP time.

    python benchmarks/bench_shapley.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.shapley_graph.baselines import exact_game_indices, shapiq_estimates  # noqa: E402
from models.shapley_graph.estimator import tn_shap_g  # noqa: E402
from models.shapley_graph.molecules import load_molecule_list, parse_molecule  # noqa: E402
from models.shapley_graph.oracles import build_game  # noqa: E402
from models.shapley_graph.run import relative_l2  # noqa: E402
from models.shapley_graph.tensor_network import NetworkLayout  # noqa: E402

ACCURACY_MOLECULES = ("salicylic acid", "caffeine", "ketamine")  # 10, 14, 16 heavy atoms
TIMING_MOLECULES = ("losartan", "vincristine")  # 30, 60 heavy atoms
BUDGETS = (50, 150, 500)


def smiles_of(name: str) -> str:
    return next(s for n, s, _c, _h in load_molecule_list() if n == name)


def accuracy(seeds: int, chi: int) -> None:
    print(f"\nShapley relative L2 error vs exact (median of {seeds} seeds), GNN oracle, baseline zeros, chi = {chi}")
    header = (f"{'molecule':<16}{'n':>4}{'budget':>8}{'TN-SHAP-G':>11}{'KernelSHAP':>12}{'PermSV':>9}"
              f"{'KS/TN':>7}{'SII TN':>9}{'SII KSIQ':>10}")
    print(header)
    print("-" * len(header))
    for name in ACCURACY_MOLECULES:
        molecule = parse_molecule(smiles_of(name), name)
        n = molecule.n_atoms
        truth, _ = exact_game_indices(build_game(molecule, "gnn", "zeros"))
        layout = NetworkLayout(n, molecule.bonds)
        for budget in BUDGETS:
            errors: dict[str, list[float]] = {k: [] for k in ("tn", "ks", "ps", "tn_sii", "ksiq_sii")}
            for seed in range(seeds):
                est = tn_shap_g(build_game(molecule, "gnn", "zeros"), layout, budget, chi, seed)
                errors["tn"].append(relative_l2(est.indices.shapley, truth.shapley))
                errors["tn_sii"].append(relative_l2(est.indices.sii, truth.sii))
                ks, ps, ksiq = shapiq_estimates(build_game(molecule, "gnn", "zeros"), budget, seed)
                errors["ks"].append(relative_l2(ks.shapley, truth.shapley))  # type: ignore[arg-type]
                errors["ps"].append(relative_l2(ps.shapley, truth.shapley))  # type: ignore[arg-type]
                errors["ksiq_sii"].append(relative_l2(ksiq.sii, truth.sii))  # type: ignore[arg-type]
            med = {k: float(np.median(v)) for k, v in errors.items()}
            print(f"{name:<16}{n:>4}{budget:>8}{100 * med['tn']:>10.2f}%{100 * med['ks']:>11.2f}%"
                  f"{100 * med['ps']:>8.2f}%{med['ks'] / med['tn']:>7.1f}{100 * med['tn_sii']:>8.1f}%"
                  f"{100 * med['ksiq_sii']:>9.1f}%")


def timing(repeats: int) -> None:
    print(f"\nWall time, 500 queries, GNN oracle (best of {repeats}); KernelSHAP: first order only")
    header = (f"{'molecule':<13}{'n':>4}{'chi':>5}{'TN total s':>12}{'fit s':>8}{'indices s':>11}"
              f"{'R2 held-out':>13}{'KernelSHAP s':>14}{'TN/KS':>7}")
    print(header)
    print("-" * len(header))
    for name in TIMING_MOLECULES:
        molecule = parse_molecule(smiles_of(name), name)
        layout = NetworkLayout(molecule.n_atoms, molecule.bonds)
        shapiq_estimates(build_game(molecule, "gnn", "zeros"), 60, 0, pairs=False)  # import and warm up
        import shapiq
        for chi in (3, 4):
            best = (np.inf, None)
            for seed in range(repeats):
                start = time.perf_counter()
                est = tn_shap_g(build_game(molecule, "gnn", "zeros"), layout, 500, chi, seed)
                elapsed = time.perf_counter() - start
                if elapsed < best[0]:
                    best = (elapsed, est)
            ks_best = np.inf
            for seed in range(repeats):
                game = build_game(molecule, "gnn", "zeros")
                start = time.perf_counter()
                shapiq.KernelSHAP(n=molecule.n_atoms, random_state=seed).approximate(budget=500, game=game)
                ks_best = min(ks_best, time.perf_counter() - start)
            est = best[1]
            assert est is not None
            print(f"{name:<13}{molecule.n_atoms:>4}{chi:>5}{best[0]:>12.2f}{est.fit_seconds:>8.2f}"
                  f"{est.index_seconds:>11.3f}{est.report.heldout_r2:>13.4f}{ks_best:>14.2f}"
                  f"{best[0] / ks_best:>7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description="TN-SHAP-G vs shapiq on the logP GNN")
    parser.add_argument("--quick", action="store_true", help="2 seeds and 1 timing repeat instead of 5 and 3")
    args = parser.parse_args()
    seeds, repeats = (2, 1) if args.quick else (5, 3)
    accuracy(seeds, chi=4)
    timing(repeats)


if __name__ == "__main__":
    main()
