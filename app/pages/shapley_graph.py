"""Graph Shapley page: pick a molecule and a game, see which atoms and atom pairs drive the prediction."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from app.components import JobView, method_page, show_figures, show_metrics

NAME = "shapley_graph"
MOLECULES_CSV = Path(__file__).resolve().parents[2] / "static" / "molecules" / "molecules.csv"
CUSTOM = "Custom SMILES (type it below)"
ORACLES = {
    "gnn": "Trained GNN predicting logP (masked atoms get the baseline)",
    "additive": "Additive Crippen game: exact answer phi_i = atom contribution, SII = 0",
    "bond_pair": "Bond-pair game: atom terms + bond terms, exact answer SII = bond term",
}
BASELINES = {
    "zeros": "All features zero (an 'unknown' atom)",
    "mean": "The average atom of the training molecules",
    "carbon": "A generic CH2 carbon",
}


@st.cache_data(show_spinner=False)
def molecule_choices() -> dict[str, tuple[str, str]]:
    """Label -> (name, smiles) for the shipped molecule list, smallest first."""
    with MOLECULES_CSV.open(newline="") as handle:
        rows = sorted(csv.DictReader(handle), key=lambda r: (int(r["heavy_atoms"]), r["name"]))
    return {f"{r['name']} ({r['heavy_atoms']} atoms, {r['category']})": (r["name"], r["smiles"]) for r in rows}


def controls() -> dict[str, Any]:
    """Molecule, game, masking baseline, query budget, bond dimension, baselines and seed."""
    choices = molecule_choices()
    labels = [CUSTOM, *choices]
    default = next((i for i, label in enumerate(labels) if label.startswith("paracetamol (")), 1)
    left, right = st.columns(2)
    with left:
        picked = st.selectbox("Molecule (about 300 drugs, solvents, natural products)", labels, index=default,
                              key="sg_molecule")
        custom = st.text_input("SMILES (used with 'Custom SMILES'; 3 to 60 heavy atoms)", value="c1ccccc1O",
                               max_chars=400, key="sg_smiles")
        oracle = st.radio("Game to explain", list(ORACLES), format_func=ORACLES.__getitem__, key="sg_oracle")
        baseline = st.selectbox("Masking baseline (features of atoms outside the coalition)", list(BASELINES),
                                format_func=BASELINES.__getitem__, key="sg_baseline")
    with right:
        budget = st.slider("Query budget (model calls on binary coalitions)", 20, 3000, 300, 10, key="sg_budget")
        bond_dim = st.slider("Bond dimension χ (one index per chemical bond)", 2, 6, 4, key="sg_chi")
        compare = st.checkbox("Compare with shapiq (KernelSHAP, permutation sampling, KernelSHAPIQ) at the same budget",
                              value=True, key="sg_compare")
        curve = st.checkbox("Error vs budget curve (molecules of at most 16 atoms)", value=True, key="sg_curve")
        seed = st.number_input("Seed", 0, 2**31 - 1, 0, key="sg_seed")
    name, smiles = ("", custom.strip()) if picked == CUSTOM else choices[picked]
    return {"smiles": smiles, "name": name, "oracle": oracle, "baseline": baseline, "budget": int(budget),
            "bond_dim": int(bond_dim), "compare_baselines": bool(compare), "error_curve": bool(curve),
            "seed": int(seed)}


def _masking_note(result: dict[str, Any]) -> None:
    if result["oracle"] == "gnn":
        st.info(
            f"**Masked game.** v(S) is the GNN's predicted logP when every atom outside S has its features replaced "
            f"by the baseline ({BASELINES[result['baseline']].lower()}); all bonds stay in place, so the graph "
            "the GNN reads never changes. Shapley values split v(all atoms) − v(no atom) among the atoms."
        )
    else:
        st.info(f"**Validation game.** {ORACLES[result['oracle']]}. The exact indices are known in closed form.")


def _exact_table(result: dict[str, Any]) -> None:
    exact = result["exact"]
    largest = max(abs(a["shapley"]) for a in exact["atoms"]) or 1.0
    rows = []
    for est, true in zip(result["atoms"], exact["atoms"], strict=True):
        error = est["shapley"] - true["shapley"]
        rows.append({"atom": f"{est['element']}{est['index']}", "Shapley (TN-SHAP-G)": est["shapley"],
                     "Shapley (exact)": true["shapley"], "error": error,
                     "within 5 % of max |phi|": "✅" if abs(error) <= 0.05 * largest else "❌",
                     "Banzhaf (TN-SHAP-G)": est["banzhaf"], "Banzhaf (exact)": true["banzhaf"]})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _pair_table(result: dict[str, Any]) -> None:
    elements = result["elements"]
    exact = {(p["i"], p["j"]): p["sii"] for p in result["exact"]["interactions"]} if result.get("exact") else {}
    top = sorted(result["interactions"], key=lambda p: -abs(p["sii"]))[:10]
    rows = []
    for p in top:
        row = {"pair": f"{elements[p['i']]}{p['i']} – {elements[p['j']]}{p['j']}",
               "bonded": "✅" if p["bonded"] else "❌", "SII": p["sii"], "STII": p["stii"],
               "Banzhaf interaction": p["banzhaf"]}
        if exact:
            row["SII (exact)"] = exact[(p["i"], p["j"])]
        rows.append(row)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _baseline_table(result: dict[str, Any]) -> None:
    rows = [{"method": "TN-SHAP-G (this page)", "queries": result["queries_used"],
             "Shapley error (%)": _pct(result.get("relative_l2_error")),
             "SII error (%)": _pct(result.get("sii_relative_l2_error"))}]
    for b in result["baselines"]:
        rows.append({"method": b["name"], "queries": b["queries"], "Shapley error (%)": _pct(b["shapley_error"]),
                     "SII error (%)": _pct(b["sii_error"])})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.3g}"


def render(job: JobView) -> None:
    """Molecule picture first, then values, exact comparison, shapiq at the same budget and fit quality."""
    result = job.result
    title = result["name"] or "custom molecule"
    st.markdown(f"**{title}** `{result['smiles']}` · {result['n_atoms']} heavy atoms · "
                f"{result['queries_used']} model queries · χ = {result['bond_dim']}")
    _masking_note(result)
    show_figures(job, ["molecule"])
    st.caption("Red atoms raise the prediction, blue atoms lower it (for logP: red is lipophilic, blue "
               "hydrophilic). Bond colour is the pair interaction SII of the two atoms; dotted lines are strong "
               "interactions between atoms that are not bonded.")
    st.latex(r"\phi_i=\int_0^1 \frac{\partial g}{\partial z_i}(t,\dots,t)\,dt,\qquad "
             r"\mathrm{SII}_{ij}=\int_0^1 \frac{\partial^2 g}{\partial z_i\,\partial z_j}(t,\dots,t)\,dt")
    show_figures(job, ["shapley_bars", "sii_heatmap"], columns=2)
    st.subheader("Strongest pair interactions")
    _pair_table(result)
    if result.get("exact"):
        st.subheader(f"Estimates beside exact values (all {2 ** result['n_atoms']:,} coalitions)")
        _exact_table(result)
        show_figures(job, ["exact_vs_estimate"])
    if result["baselines"]:
        st.subheader("shapiq at the same budget")
        _baseline_table(result)
    if result["error_curve"]:
        show_figures(job, ["error_curve"])
    st.subheader("Fit quality")
    r2 = result.get("surrogate_r2")
    if r2 is not None:
        st.markdown(f"Held-out R² of the surrogate on coalitions it never saw: **{r2:.4f}** "
                    f"(in-sample {result['surrogate_train_r2']:.4f}, {result['fit_sweeps']} ALS sweeps). "
                    "Close to 1 means the indices read off the network describe the model itself.")
    if result.get("gnn_test_r2") is not None:
        st.markdown(f"The GNN predicts Crippen logP with R² = **{result['gnn_test_r2']:.3f}** on held-out molecules.")
    show_metrics(job)


method_page(NAME, controls=controls, render=render, form=True)
