"""SII relative error against queries at 30, 41 and 60 atoms: TN-SHAP-G (one fit and a 3-fit ensemble on the
same queries) beside KernelSHAPIQ, and the Shapley error beside KernelSHAP and permutation sampling.

Local GNN, baseline masking, exact reference from the 2-hop receptive fields. Prints one row per
(molecule, budget, seed) and writes sii_vs_queries.html (mean over seeds) to --out.

    python benchmarks/bench_shapley_queries.py [--seeds 2] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.shapley_graph.baselines import shapiq_estimates  # noqa: E402
from models.shapley_graph.estimator import tn_shap_g  # noqa: E402
from models.shapley_graph.molecules import load_molecule_list, parse_molecule  # noqa: E402
from models.shapley_graph.oracles import build_game  # noqa: E402
from models.shapley_graph.reference import exact_reference  # noqa: E402
from models.shapley_graph.run import relative_l2  # noqa: E402
from models.shapley_graph.tensor_network import NetworkLayout  # noqa: E402

MOLECULES = ("losartan", "atorvastatin", "vincristine")
BUDGETS = (1000, 2000, 3000)


def row(name: str, budget: int, seed: int) -> dict[str, float | int | str]:
    molecule = parse_molecule(next(s for n, s, _c, _h in load_molecule_list() if n == name), name)
    truth = exact_reference(molecule, "gnn", "baseline").indices  # type: ignore[union-attr]
    layout = NetworkLayout(molecule.n_atoms, molecule.bonds)
    out: dict[str, float | int | str] = {"molecule": name, "n": molecule.n_atoms, "budget": budget, "seed": seed}
    for ensemble in (1, 3):
        est = tn_shap_g(build_game(molecule, "gnn", "baseline"), layout, budget, 4, seed, ensemble=ensemble)
        out[f"TN-SHAP-G x{ensemble} SII"] = relative_l2(est.indices.sii, truth.sii)
        out[f"TN-SHAP-G x{ensemble} phi"] = relative_l2(est.indices.shapley, truth.shapley)
    ks, ps, ksiq = shapiq_estimates(build_game(molecule, "gnn", "baseline"), budget, seed)
    out["KernelSHAPIQ SII"] = relative_l2(ksiq.sii, truth.sii)  # type: ignore[arg-type]
    out["KernelSHAP phi"] = relative_l2(ks.shapley, truth.shapley)  # type: ignore[arg-type]
    out["PermutationSV phi"] = relative_l2(ps.shapley, truth.shapley)  # type: ignore[arg-type]
    return out


def figure(rows: list[dict[str, float | int | str]], out: Path) -> None:
    import plotly.graph_objects as go

    fig = go.Figure()
    for name in MOLECULES:
        mine = [r for r in rows if r["molecule"] == name]
        for column, dash in (("TN-SHAP-G x1 SII", "dot"), ("TN-SHAP-G x3 SII", None), ("KernelSHAPIQ SII", "dash")):
            y = [100 * float(np.mean([float(r[column]) for r in mine if r["budget"] == b])) for b in BUDGETS]
            fig.add_trace(go.Scatter(x=list(BUDGETS), y=y, mode="lines+markers", line=dict(dash=dash),
                                     name=f"{name} ({mine[0]['n']} atoms): {column.replace(' SII', '')}"))
    fig.add_hline(y=15, line_dash="dot", annotation_text="15 %")
    fig.update_layout(title="SII relative L2 error against queries (local GNN, baseline masking)",
                      xaxis_title="model queries", yaxis_title="SII relative L2 error (%)", yaxis_type="log")
    out.mkdir(parents=True, exist_ok=True)
    fig.write_html(out / "sii_vs_queries.html")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("var/bench_shapley"))
    args = parser.parse_args()
    rows = []
    for name in MOLECULES:
        for budget in BUDGETS:
            for seed in range(args.seeds):
                rows.append(row(name, budget, seed))
                print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in rows[-1].items()}),
                      flush=True)
    figure(rows, args.out)
    (args.out / "sii_vs_queries.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
