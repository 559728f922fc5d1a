"""All-ERMs-can-fail page: Feldman's function on a code in d = 6m, the bad exact ERM and the unique regularised ERM."""

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

NAME = "erm_overfit"


def controls() -> dict[str, Any]:
    """The construction on the left, the loss's terms and the seeds on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        values = {field: param_widget(NAME, field) for field in ("samples", "extra_bits", "threshold_margin")}
    with right:
        values |= {field: param_widget(NAME, field) for field in ("noise_scale", "lambda_scale", "seeds")}
        values["seed"] = param_widget(NAME, "seed", widget="number")
    return values


def render(job: JobView) -> None:
    """Per-seed numbers, then the two figures."""
    r = job.result
    st.subheader("Two empirical minimisers, per training sample (exact population losses)")
    st.markdown(f"Code: {r['code_size']:,} codewords in dimension d = {r['dimension']} (6m), coherence "
                f"{format_number(r['coherence'])}, threshold theta = {format_number(r['theta'])}, lambda = "
                f"{format_number(r['strong_convexity'])}. A codeword in no sample is guaranteed an excess of "
                f"{format_number(r['guarantee'])}.")
    table([{"seed": o["seed"], "codewords in no sample": o["unseen"],
            "excess of an unseen codeword": format_number(o["bad_erm_excess"]),
            "excess of the regularised ERM (Feldman part)": format_number(o["erm_excess"]),
            "same, with lambda/2 ||x||^2": format_number(o["erm_excess_total"]),
            "||x||": format_number(o["erm_norm"]), "max <w, x>": format_number(o["erm_max_inner"]),
            "objective at 0 minus at the ERM": format_number(o["zero_minus_erm"]),
            "certified suboptimality": f"{o['solver_gap']:.1e}"} for o in r["outcomes"]])
    st.caption("The paper's gradient-descent bound is built on the paper's own noise and regularisation terms, "
               "which we could not reproduce from the abstract; this page therefore makes no GD check.")
    show_figures(job, ["excess", "inner_products"])


method_page(NAME, controls=controls, render=render)
