"""Graph Shapley page: pick a molecule and a model, see which atoms and atom pairs drive the prediction."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import (
    JobView,
    example_picker,
    field_schema,
    method_page,
    param_key,
    param_widget,
    resource,
    show_figures,
    show_metrics,
    show_tables,
)
from app.components.plain import code, plain

NAME = "shapley_graph"
PICKER = f"{NAME}._molecule"
LOADED_NAME = f"{NAME}._loaded_name"  # (smiles, name) of the example or run last loaded
CUSTOM = "Custom SMILES (type it below)"


def _molecules() -> list[dict[str, Any]]:
    return sorted(resource(NAME, "molecules"), key=lambda m: (m["atoms"], m["name"]))


def _label(molecule: dict[str, Any]) -> str:
    return f"{molecule['name']} ({molecule['atoms']} atoms, {molecule['category']})"


def _by_smiles() -> dict[str, dict[str, Any]]:
    return {m["smiles"]: m for m in _molecules()}


def _sync_picker(params: dict[str, Any]) -> None:
    """An example or an earlier run was loaded: show its molecule in the picker (Custom when unlisted)."""
    smiles = str(params.get("smiles", "")).strip()
    listed = _by_smiles().get(smiles)
    st.session_state[PICKER] = _label(listed) if listed else CUSTOM
    st.session_state[LOADED_NAME] = (smiles, str(params.get("name", "")))


def _name(smiles: str) -> str:
    """The display name the run is submitted with: the loaded one while its SMILES is unchanged, else ""
    (the server names a listed molecule)."""
    loaded_smiles, loaded_name = st.session_state.get(LOADED_NAME, ("", ""))
    return loaded_name if smiles.strip() == loaded_smiles else ""


def _picked() -> None:
    """The picker writes the chosen molecule's SMILES into the one SMILES input the run uses."""
    label = st.session_state.get(PICKER)
    chosen = next((m for m in _molecules() if _label(m) == label), None)
    if chosen is not None:
        st.session_state[param_key(NAME, "smiles")] = chosen["smiles"]


def controls() -> dict[str, Any]:
    """Molecule (picker filling the SMILES), model, masking, budget, bond dimension, ensemble and checks."""
    example_picker(NAME, on_load=_sync_picker)
    labels = [CUSTOM, *(_label(m) for m in _molecules())]
    if PICKER not in st.session_state:
        st.session_state[PICKER] = next((x for x in labels if x.startswith("paracetamol (")), CUSTOM)
    predictors: dict[str, str] = resource(NAME, "predictors")
    maskings: dict[str, str] = resource(NAME, "maskings")
    left, right = st.columns(2)
    with left:
        st.selectbox("Molecule from the shipped list (about 300 drugs, solvents, natural products)", labels,
                     key=PICKER, on_change=_picked)
        smiles = param_widget(NAME, "smiles", label="SMILES (the molecule that is explained)")
        listed = _by_smiles().get(str(smiles).strip())
        st.caption(f"Explaining **{listed['name']}** ({listed['atoms']} heavy atoms)." if listed else
                   "A custom molecule (named by the server when it is in the list under another spelling).")
        predictor = param_widget(NAME, "predictor", label="Model to explain", format_func=predictors.get)
        masking = param_widget(NAME, "masking")
        if predictor in ("gnn", "gnn_global"):
            st.caption(maskings[masking])
        else:
            st.caption("Validation games are defined on coalitions directly: the masking does not apply.")
    with right:
        budget = param_widget(NAME, "budget", label="Query budget (model calls on binary coalitions)",
                              widget="slider", step=10)
        bond_dim = param_widget(NAME, "bond_dim", label="Bond dimension χ (one index per chemical bond)")
        ensemble = param_widget(NAME, "ensemble", label="Ensemble: fits with different seeds (mean ± spread)")
        compare = param_widget(NAME, "compare_baselines",
                               label="Compare with shapiq (KernelSHAP, permutation sampling, KernelSHAPIQ)")
        curve = param_widget(NAME, "error_curve", label="Error vs budget curve (first seed, wherever an exact reference exists)")
        seeds = param_widget(NAME, "seeds")
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    return {"smiles": smiles, "name": _name(str(smiles)), "predictor": predictor, "masking": masking, "budget": budget,
            "bond_dim": bond_dim, "ensemble": ensemble, "compare_baselines": compare, "error_curve": curve,
            "seeds": seeds, "seed": seed}


def _headline(result: dict[str, Any]) -> None:
    title = plain(result["name"]) or "custom molecule"
    st.markdown(f"**{title}** {code(result['smiles'])} · {result['n_atoms']} heavy atoms · "
                f"{result['queries_used']} model queries · χ = {result['bond_dim']}")
    crippen = sum(result["crippen"])
    if result["predictor"] in ("gnn", "gnn_global"):
        st.markdown(f"**Predicted logP** v(all atoms) = **{result['value_full']:.3f}** (RDKit Crippen logP of the "
                    f"molecule: {crippen:.3f}); v(no atom) = {result['value_empty']:.3f} under "
                    f"{field_schema(NAME, 'masking')['choices'][result['masking']].lower()}.")
        st.info(f"**Masked game.** {resource(NAME, 'maskings')[result['masking']]}")
    else:
        st.markdown(f"**Game value** v(all atoms) = **{result['value_full']:.3f}**.")
        st.info(f"**Validation game.** {resource(NAME, 'predictors')[result['predictor']]}: the exact indices are "
                "known in closed form.")


def _maskings(job: JobView) -> None:
    if job.result["masking_comparison"]:
        show_tables(job, ["What phi means under each masking"])
        show_figures(job, ["masking"])


def render(job: JobView) -> None:
    """Molecule first, then values, the exact reference, other estimators, maskings and fit quality."""
    result = job.result
    _headline(result)
    show_figures(job, ["molecule"])
    st.caption("Atoms are labelled as in the charts (element and index). Red atoms raise the prediction, blue atoms "
               "lower it (for logP: red is lipophilic, blue hydrophilic). Bond colour is the pair interaction SII of "
               "the two atoms; dotted lines are strong interactions between atoms that are not bonded. The RDKit "
               "drawing with the same colours is in the downloads (molecule.svg).")
    show_figures(job, ["shapley_bars", "sii_heatmap"])
    if result.get("exact"):
        how = {"brute_force": f"brute force over all {2 ** result['n_atoms']:,} coalitions",
               "receptive_field": f"the 2-hop receptive fields ({result['exact']['queries']:,} distinct coalitions)",
               "closed_form": "the closed form of the validation game"}[result["exact"]["method"]]
        st.subheader("Estimates beside the exact values")
        st.caption(f"Exact values from {how}. The claims table above states the error each claim allows.")
        show_tables(job, ["Estimates beside the exact values"], headings=False)
        show_figures(job, ["exact_vs_estimate"])
    else:
        st.warning("No exact reference for this run (the banner above says why): only the surrogate's held-out R² "
                   "below is known, and R² is no proxy for interaction accuracy.")
    show_tables(job, ["Errors per seed, at equal queries", "Against other estimators at the same budget (first seed)"])
    show_figures(job, ["error_curve"])
    _maskings(job)
    show_tables(job, ["Strongest pair interactions"])
    st.subheader("Fit quality")
    r2 = result.get("surrogate_r2")
    if r2 is not None:
        st.markdown(f"Held-out R² of the surrogate on coalitions it never saw: **{r2:.4f}** (in-sample "
                    f"{result['surrogate_train_r2']:.4f}, {result['fit_sweeps']} ALS sweeps, {result['ensemble']} "
                    "fit(s)).")
    if result.get("predictor_test_r2") is not None:
        st.markdown(f"The predictor reproduces Crippen logP with R² = **{result['predictor_test_r2']:.3f}** on "
                    "held-out molecules.")
    show_metrics(job)


method_page(NAME, controls=controls, render=render, form=False)
