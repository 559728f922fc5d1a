"""Best-case ERM page: Feldman's construction on a Gold code, the overfitting ERM, and projected GD's gap."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, example_picker, mark, method_page, param_widget, show_figures, table

NAME = "erm_overfit"
DIMENSIONS = {31: "31 (1,023 code vectors, coherence 9/31)", 127: "127 (16,383 vectors, coherence 17/127)",
              511: "511 (16,352 vectors, coherence 33/511)"}


def controls() -> dict[str, Any]:
    """The construction on the left, the gradient-descent grid on the right."""
    example_picker(NAME)
    st.caption("Illustration of the construction at small dimension.")
    left, right = st.columns(2)
    with left:
        samples = param_widget(NAME, "samples", label="Samples m")
        dimension = param_widget(NAME, "dimension", label="Dimension d (Gold code)", format_func=DIMENSIONS.get)
        lam = param_widget(NAME, "strong_convexity", label="Strong convexity lambda")
    with right:
        etas = param_widget(NAME, "etas", label="Learning rates eta")
        horizons = param_widget(NAME, "horizons", label="Horizons T")
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    return {"samples": samples, "dimension": dimension, "strong_convexity": lam, "etas": etas, "horizons": horizons,
            "seed": seed}


def _erm(result: dict[str, Any]) -> None:
    st.subheader("The overfitting ERM (exact)")
    st.markdown(
        f"{result['unseen_vectors']} of the {result['code_size']:,} code vectors are in none of the {result['samples']} "
        f"samples (expected {result['expected_unseen']:.1f}); coherence of the code {result['coherence']:.4f}."
    )
    if result["erm_train_loss"] is None:
        st.info("No code vector was missed by every sample: with this many samples the bad ERM of the construction does "
                "not exist (it needs 2^m below the code size).")
        return
    lam = result["strong_convexity"]
    table([
        {"quantity": "training loss of the bad ERM u (Feldman part)", "value": round(result["erm_train_loss"], 6)},
        {"quantity": "minimal training loss", "value": result["min_train_loss"]},
        {"quantity": f"training loss of u with lambda/2 ||x||^2 (u is a {lam / 2:g}-approximate minimiser)",
         "value": round(result["erm_regularised_train_loss"], 6)},
        {"quantity": "population excess of u (exact)", "value": round(result["erm_population_excess"], 6)},
        {"quantity": "lower bound 1/4 - coherence", "value": round(result["excess_lower_bound"], 6)},
    ])


def _gd(result: dict[str, Any]) -> None:
    st.subheader("Projected gradient descent")
    rows = []
    for point in sorted(result["gd"], key=lambda p: p["eta"] * p["horizon"]):
        regime = point["lower_bound"] <= point["upper_bound"]
        between = point["lower_bound"] / 1.05 <= point["gap"] <= 1.05 * point["upper_bound"]
        rows.append({"eta": point["eta"], "T": point["horizon"], "eta T": round(point["eta"] * point["horizon"], 4),
                     "gap": f"{point['gap']:.4g}", "sqrt(eta T / m^1.5)": f"{point['lower_bound']:.4g}",
                     "eta T / m": f"{point['upper_bound']:.4g}", "||x_T||": round(point["norm"], 3),
                     "between": mark(between if regime else None)})
    table(rows, caption="'between' is judged only where eta T >= sqrt(m); below it the lower-bound curve is above the "
                        "upper-bound curve.")


def render(job: JobView) -> None:
    """The ERM table, the GD table, then the figures."""
    _erm(job.result)
    _gd(job.result)
    show_figures(job, ["erm_losses", "gd_gap", "code_inner_products"])


method_page(NAME, controls=controls, render=render)
