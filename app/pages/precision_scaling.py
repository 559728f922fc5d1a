"""Low-precision scaling page: multiplicative vs additive quantisation at matched noise, seed by seed."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import (
    JobView,
    example_picker,
    format_number,
    method_page,
    param_widget,
    show_figures,
    table,
)

NAME = "precision_scaling"
SCHEMES = ("full", "multiplicative", "additive")
FIELDS = (("model_sizes", "n_samples", "noise_level", "multiplicative_bits", "additive_bits"),
          ("spectrum_exponent", "seeds", "seed", "dimension", "label_noise"))


def controls() -> dict[str, Any]:
    """The sizes and precisions on the left; the problem and seeds on the right."""
    example_picker(NAME)
    values: dict[str, Any] = {}
    for column, names in zip(st.columns(2), FIELDS, strict=True):
        with column:
            for field in names:
                values[field] = param_widget(NAME, field, widget="number" if field == "seed" else None)
    st.caption("Defaults (3 seeds) take about 15 s on one core; the examples state their times. The bit widths "
               "count only at noise level 0 (rounding).")
    return values


def _num(value: float | None, digits: int = 3) -> str:
    return format_number(value, digits) if value is not None else "—"


def _per_seed(result: dict[str, Any]) -> None:
    rows = result["per_seed"]
    st.subheader(f"Per seed at M = {rows[0]['m']}, N = {rows[0]['n']:,}")
    table([{"seed": r["seed"],
            "noise var. mult.": f"{r['noise_variance']['multiplicative']:.2e}",
            "noise var. add.": f"{r['noise_variance']['additive']:.2e}",
            "ratio mult. / add.": _num(r["noise_ratio"]),
            "kappa mult. (risk fit)": _num(r["kappa"]["multiplicative"]),
            "kappa add. (risk fit)": _num(r["kappa"]["additive"]),
            "kappa on R_inf, mult. / add.": f"{_num(r['kappa_infinite_data']['multiplicative'])} / "
                                            f"{_num(r['kappa_infinite_data']['additive'])}",
            "additive error E, mult. / add.": f"{r['fit_additive_error']['multiplicative']:.2e} / "
                                              f"{r['fit_additive_error']['additive']:.2e}",
            "swamping index": _num(r["swamping_index"]),
            "trace m_eff / M, mult. / add. (check)": f"{_num(r['m_eff_fraction']['multiplicative'])} / "
                                                     f"{_num(r['m_eff_fraction']['additive'])}",
            "N_eff / N mult.": _num(r["n_eff_fraction"]["multiplicative"]),
            "N_eff / N add.": _num(r["n_eff_fraction"]["additive"]),
            "N_eff / N on total risk, mult. / add.": f"{_num(r['n_eff_total_fraction']['multiplicative'], 2)} / "
                                                     f"{_num(r['n_eff_total_fraction']['additive'], 2)}"}
           for r in rows],
          caption="kappa: R_q(M) = E + R_full(kappa M) fitted to the simulated risks over every M (1: only an "
          "additive error; below 1: a smaller model); the same fit on the exact infinite-data risks beside it. "
          "Swamping index: #{i: lambda_i > additive noise variance}. N_eff: full-precision samples with the same "
          "finite-data risk once each run's infinite-data risk is removed; 'on total risk' keeps it in. "
          + (f"Noise: the paper's models at level {result['noise_level']:g}." if result.get("noise_level") else
             f"Rounding: multiplicative {result['multiplicative_bits']} mantissa bit(s), additive "
             f"{result['additive_bits']} bits."))


def _summary(result: dict[str, Any]) -> None:
    st.subheader(f"Seed means, N = {result['n_samples']:,}")
    rows = []
    for scheme in SCHEMES:
        fit = result["fits"][scheme]
        last = result["effective_model_size"][scheme][-1]
        rows.append({
            "precision": scheme,
            f"risk at M = {last['m']}": f"{result['risk'][scheme][-1]['risk']:.3e}",
            f"infinite-data risk at M = {last['m']} (theory)": f"{result['risk'][scheme][-1]['theory_infinite_data']:.3e}",
            "exponent vs M": _num(fit["m_exponent"]),
            "exponent vs N": _num(fit["n_exponent"]),
            "m_eff (theory)": _num(last["m_eff"]),
            "m from risk (simulation)": _num(last["m_from_risk"]),
            "noise variance per feature": f"{result['noise_variance_mean'][scheme]:.2e}",
        })
    table(rows, caption="m from risk: the full-precision model size that reaches the same simulated risk "
          "(interpolated; outside the simulated range, the power-law fit).")


def render(job: JobView) -> None:
    """The per-seed claim quantities, the seed means, then the figures."""
    _per_seed(job.result)
    _summary(job.result)
    show_figures(job, ["claims_per_seed", "risk_vs_model_size", "risk_vs_samples", "effective_model_size"])


method_page(NAME, controls=controls, render=render)
