"""Low-precision scaling page: risk against model size and data under multiplicative and additive quantisation."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, example_picker, mark, method_page, param_widget, show_figures, table

NAME = "precision_scaling"
SCHEMES = ("full", "multiplicative", "additive")


def controls() -> dict[str, Any]:
    """The model sizes, data and precision on the left; the problem on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        sizes = param_widget(NAME, "model_sizes", label="Model sizes M")
        n = param_widget(NAME, "n_samples", label="Samples N (one pass)")
        bits = param_widget(NAME, "bits", label="Bits b")
    with right:
        a = param_widget(NAME, "spectrum_exponent", label="Spectrum exponent a (eigenvalues i^-a)")
        seeds = param_widget(NAME, "seeds", label="Problems (seeds)")
        with st.expander("More settings"):
            d = param_widget(NAME, "dimension", label="Dimension d")
            noise = param_widget(NAME, "label_noise", label="Label noise sigma")
            seed = param_widget(NAME, "seed", label="Base seed", widget="number")
    return {"model_sizes": sizes, "n_samples": n, "bits": bits, "spectrum_exponent": a, "seeds": seeds,
            "dimension": d, "label_noise": noise, "seed": seed}


def _summary(result: dict[str, Any]) -> None:
    st.subheader(f"Three precisions at {result['bits']} bits, N = {result['n_samples']:,}")
    rows = []
    for scheme in SCHEMES:
        fit = result["fits"][scheme]
        last = result["effective_model_size"][scheme][-1]
        rows.append({
            "precision": scheme,
            f"risk at M = {last['m']}": f"{result['risk'][scheme][-1]['risk']:.3e}",
            "risk(M max) / risk(M min)": round(result["ratio_largest_smallest"][scheme], 4),
            "exponent vs M": None if fit["m_exponent"] is None else round(fit["m_exponent"], 3),
            "exponent vs N": None if fit["n_exponent"] is None else round(fit["n_exponent"], 3),
            "m_eff (theory)": round(last["m_eff"], 1),
            "m from risk (simulation)": None if last["m_from_risk"] is None else round(last["m_from_risk"], 1),
        })
    table(rows, caption="m from risk: the full-precision model size that reaches the same simulated risk.")
    checks = result["checks"]
    table([
        {"claim": "multiplicative keeps the full-precision model size", "holds": mark(checks["keeps_model_size"])},
        {"claim": "additive shrinks the effective model size", "holds": mark(checks["shrinks_model_size"])},
    ], caption=checks["detail"])


def render(job: JobView) -> None:
    """The summary table and checks, then the figures."""
    _summary(job.result)
    show_figures(job, ["risk_vs_model_size", "risk_vs_samples", "effective_model_size"])


method_page(NAME, controls=controls, render=render)
