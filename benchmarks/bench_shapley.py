"""TN-SHAP-G against shapiq's estimators and the exact receptive-field computation, 10 to 60 atoms.

Part 1, accuracy on the shipped local GNN (baseline masking): molecules of 10 to 60 heavy atoms, exact
reference by brute force (n <= 16) or from the 2-hop receptive fields (beyond). For each budget, the
median over seeds of the relative L2 error of the Shapley values (TN-SHAP-G, its warm start alone,
KernelSHAP, permutation sampling) and of the pairwise SII (TN-SHAP-G, warm start, KernelSHAPIQ); then
the budget each estimator needs for 5 % Shapley / 15 % SII error against n, beside the number of
coalitions the exact receptive-field (GraphSHAP-IQ-style) computation needs ("RF coalitions").

Part 2, the global-readout GNN (no receptive-field bound): TN-SHAP-G vs KernelSHAP at equal budget,
against brute force (n <= 16).

Part 3, speed of the exact reference: receptive fields vs brute force over all 2^n coalitions (ratio).

    python benchmarks/bench_shapley.py [--quick] [--out DIR]    (figures as HTML in DIR)
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
from models.shapley_graph.molecules import Molecule, load_molecule_list, parse_molecule  # noqa: E402
from models.shapley_graph.oracles import build_game  # noqa: E402
from models.shapley_graph.receptive_field import receptive_field_indices  # noqa: E402
from models.shapley_graph.reference import exact_reference  # noqa: E402
from models.shapley_graph.run import relative_l2  # noqa: E402
from models.shapley_graph.tensor_network import NetworkLayout  # noqa: E402

SIZES = ("salicylic acid", "caffeine", "ketamine", "diazepam", "losartan", "atorvastatin", "vincristine")
BUDGETS = (250, 500, 1000, 2000)
SHAPLEY_TARGET, SII_TARGET = 0.05, 0.15
COLUMNS = ("TN-SHAP-G", "warm start", "KernelSHAP", "PermutationSV", "TN-SHAP-G SII", "warm start SII",
           "KernelSHAPIQ SII")


def listed(name: str) -> Molecule:
    return parse_molecule(next(s for n, s, _c, _h in load_molecule_list() if n == name), name)


def errors_at(molecule: Molecule, truth: object, budget: int, seed: int, chi: int) -> dict[str, float]:
    """One seed: every estimator's relative L2 error at one budget."""
    layout = NetworkLayout(molecule.n_atoms, molecule.bonds)
    est = tn_shap_g(build_game(molecule, "gnn", "baseline"), layout, budget, chi, seed)
    ks, ps, ksiq = shapiq_estimates(build_game(molecule, "gnn", "baseline"), budget, seed)
    phi, sii = truth.shapley, truth.sii  # type: ignore[attr-defined]
    return {
        "TN-SHAP-G": relative_l2(est.indices.shapley, phi), "warm start": relative_l2(est.warm_start.shapley, phi),
        "KernelSHAP": relative_l2(ks.shapley, phi), "PermutationSV": relative_l2(ps.shapley, phi),  # type: ignore[arg-type]
        "TN-SHAP-G SII": relative_l2(est.indices.sii, sii), "warm start SII": relative_l2(est.warm_start.sii, sii),
        "KernelSHAPIQ SII": relative_l2(ksiq.sii, sii),  # type: ignore[arg-type]
    }


def accuracy(names: tuple[str, ...], budgets: tuple[int, ...], seeds: int, chi: int) -> list[dict[str, object]]:
    print(f"\nPart 1. Local GNN, baseline masking, chi = {chi}: relative L2 error (%), median of {seeds} seeds")
    header = f"{'molecule':<15}{'n':>4}{'budget':>7}" + "".join(f"{c:>17}" for c in COLUMNS)
    print(header)
    print("-" * len(header))
    rows: list[dict[str, object]] = []
    for name in names:
        molecule = listed(name)
        reference = exact_reference(molecule, "gnn", "baseline")
        assert reference is not None
        field_coalitions = receptive_field_indices(molecule, "baseline").coalitions  # the exact competitor's cost
        for budget in budgets:
            runs = [errors_at(molecule, reference.indices, budget, seed, chi) for seed in range(seeds)]
            median = {c: float(np.median([r[c] for r in runs])) for c in COLUMNS}
            rows.append({"name": name, "n": molecule.n_atoms, "budget": budget, "exact": reference.method,
                         "exact_coalitions": field_coalitions, **median})
            print(f"{name:<15}{molecule.n_atoms:>4}{budget:>7}" + "".join(f"{100 * median[c]:>16.2f}%" for c in COLUMNS),
                  flush=True)
    return rows


def needed_budget(rows: list[dict[str, object]], column: str, target: float) -> int | None:
    """The smallest budget of the grid at which the median error reaches the target (None: none did)."""
    return next((int(r["budget"]) for r in rows if float(r[column]) <= target), None)  # type: ignore[call-overload, arg-type]


NEEDED = (("TN-SHAP-G", SHAPLEY_TARGET), ("KernelSHAP", SHAPLEY_TARGET), ("PermutationSV", SHAPLEY_TARGET),
          ("TN-SHAP-G SII", SII_TARGET), ("KernelSHAPIQ SII", SII_TARGET))


def needed_budgets(rows: list[dict[str, object]], budgets: tuple[int, ...]) -> dict[str, dict[str, int | None]]:
    print(f"\nBudget needed for {100 * SHAPLEY_TARGET:.0f}% Shapley / {100 * SII_TARGET:.0f}% SII error "
          f"(smallest budget of {budgets} that reaches it; '>' = none did)")
    header = (f"{'molecule':<15}{'n':>4}{'reference':>17}{'RF coalitions':>18}{'TN phi':>9}{'KS phi':>9}"
              f"{'PSV phi':>9}{'TN SII':>9}{'KSIQ SII':>10}")
    print(header)
    print("-" * len(header))
    table: dict[str, dict[str, int | None]] = {}
    for name in dict.fromkeys(str(r["name"]) for r in rows):
        mine = [r for r in rows if r["name"] == name]
        table[name] = {column: needed_budget(mine, column, target) for column, target in NEEDED}
        cells = "".join(f"{(str(v) if v is not None else '>' + str(budgets[-1])):>{w}}"
                        for v, w in zip(table[name].values(), (9, 9, 9, 9, 10), strict=True))
        r0 = mine[0]
        print(f"{name:<15}{r0['n']:>4}{r0['exact']:>17}{r0['exact_coalitions']:>18,}{cells}")
    return table


def global_readout(names: tuple[str, ...], budgets: tuple[int, ...], seeds: int, chi: int) -> None:
    print(f"\nPart 2. Global-readout GNN (MLP after pooling), brute-force reference; median of {seeds} seeds")
    header = f"{'molecule':<15}{'n':>4}{'masking':>9}{'budget':>7}{'TN-SHAP-G':>11}{'KernelSHAP':>12}{'KS/TN':>7}{'TN SII':>9}{'KSIQ SII':>10}"
    print(header)
    print("-" * len(header))
    for name in names:
        molecule = listed(name)
        layout = NetworkLayout(molecule.n_atoms, molecule.bonds)
        for masking in ("baseline", "delete"):
            truth, _ = exact_game_indices(build_game(molecule, "gnn_global", masking))
            for budget in budgets:
                tn, ks, tn_sii, ksiq = [], [], [], []
                for seed in range(seeds):
                    est = tn_shap_g(build_game(molecule, "gnn_global", masking), layout, budget, chi, seed)
                    k, _p, q = shapiq_estimates(build_game(molecule, "gnn_global", masking), budget, seed)
                    tn.append(relative_l2(est.indices.shapley, truth.shapley))
                    tn_sii.append(relative_l2(est.indices.sii, truth.sii))
                    ks.append(relative_l2(k.shapley, truth.shapley))  # type: ignore[arg-type]
                    ksiq.append(relative_l2(q.sii, truth.sii))  # type: ignore[arg-type]
                t, k_ = float(np.median(tn)), float(np.median(ks))
                print(f"{name:<15}{molecule.n_atoms:>4}{masking:>9}{budget:>7}{100 * t:>10.2f}%{100 * k_:>11.2f}%"
                      f"{k_ / t:>7.1f}{100 * np.median(tn_sii):>8.1f}%{100 * np.median(ksiq):>9.1f}%", flush=True)


def exact_speed(names: tuple[str, ...], repeats: int) -> None:
    print(f"\nPart 3. Exact indices of the local GNN: receptive fields vs brute force over 2^n (best of {repeats})")
    header = f"{'molecule':<15}{'n':>4}{'RF coalitions':>15}{'2^n':>9}{'RF s':>8}{'brute s':>9}{'ratio':>7}{'max diff':>10}"
    print(header)
    print("-" * len(header))
    for name in names:
        molecule = listed(name)
        rf_s, bf_s = np.inf, np.inf
        for _ in range(repeats):
            start = time.perf_counter()
            rf = receptive_field_indices(molecule, "baseline")
            rf_s = min(rf_s, time.perf_counter() - start)
            start = time.perf_counter()
            bf, _ = exact_game_indices(build_game(molecule, "gnn", "baseline"))
            bf_s = min(bf_s, time.perf_counter() - start)
        diff = max(float(np.abs(rf.indices.shapley - bf.shapley).max()), float(np.abs(rf.indices.sii - bf.sii).max()))
        print(f"{name:<15}{molecule.n_atoms:>4}{rf.coalitions:>15,}{2 ** molecule.n_atoms:>9,}{rf_s:>8.2f}{bf_s:>9.2f}"
              f"{bf_s / rf_s:>7.1f}{diff:>10.1e}")


def write_figures(rows: list[dict[str, object]], needed: dict[str, dict[str, int | None]],
                  budgets: tuple[int, ...], out: Path) -> None:
    """error_vs_n.html (error at the largest budget against n) and budget_vs_n.html (budget for the targets)."""
    import plotly.graph_objects as go

    out.mkdir(parents=True, exist_ok=True)
    top = max(budgets)
    at_top = [r for r in rows if r["budget"] == top]
    fig = go.Figure()
    for column in COLUMNS:
        fig.add_trace(go.Scatter(x=[r["n"] for r in at_top], y=[100 * float(r[column]) for r in at_top],  # type: ignore[arg-type]
                                 mode="lines+markers", name=column, line=dict(dash="dot" if "SII" in column else None)))
    fig.update_layout(title=f"Relative L2 error against n at {top} queries (local GNN)", xaxis_title="heavy atoms n",
                      yaxis_title="relative L2 error (%)", yaxis_type="log")
    fig.write_html(out / "error_vs_n.html")
    sizes = {str(r["name"]): r["n"] for r in rows}
    coalitions = {str(r["name"]): r["exact_coalitions"] for r in rows}
    fig = go.Figure()
    for column, target in NEEDED:
        names = [name for name in needed if needed[name][column] is not None]
        fig.add_trace(go.Scatter(x=[sizes[name] for name in names], y=[needed[name][column] for name in names],
                                 mode="lines+markers", name=f"{column} to {100 * target:.0f}%"))
    fig.add_trace(go.Scatter(x=list(sizes.values()), y=list(coalitions.values()), mode="lines+markers",
                             name="exact from receptive fields (coalitions)", line=dict(color="black", dash="dash")))
    fig.update_layout(title="Queries needed against n (points missing: not reached within the grid)",
                      xaxis_title="heavy atoms n", yaxis_title="model queries", yaxis_type="log")
    fig.write_html(out / "budget_vs_n.html")
    print(f"\nFigures written to {out}/error_vs_n.html and {out}/budget_vs_n.html")


def main() -> None:
    parser = argparse.ArgumentParser(description="TN-SHAP-G vs shapiq and exact receptive fields")
    parser.add_argument("--quick", action="store_true", help="3 seeds, fewer molecules and budgets")
    parser.add_argument("--out", type=Path, default=Path("var/bench_shapley"))
    parser.add_argument("--chi", type=int, default=4)
    args = parser.parse_args()
    if args.quick:
        names, budgets, seeds = ("caffeine", "losartan", "vincristine"), (500, 1000), 3
    else:
        names, budgets, seeds = SIZES, BUDGETS, 3
    rows = accuracy(names, budgets, seeds, args.chi)
    needed = needed_budgets(rows, budgets)
    write_figures(rows, needed, budgets, args.out)
    global_readout(("caffeine", "ketamine"), (250, 500), seeds, chi=3)
    exact_speed(("caffeine", "ketamine"), repeats=2)


if __name__ == "__main__":
    main()
