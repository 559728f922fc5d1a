"""Stein Diffusion Guidance page: hit ratio of every method at its tuned strength, fidelity to SDG's target law."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "stein_guidance"
FIELDS = (("dimension", "particles", "steps"), ("methods", "alpha", "stein_step"))
MORE = (("seed",), ("seeds",))


def controls() -> dict[str, Any]:
    """Prior and sampler on the left, methods and SDG's constants on the right, seeds below."""
    values = field_columns(NAME, FIELDS)
    with st.expander("More settings"):
        values |= field_columns(NAME, MORE, widgets={"seed": ""})
    return values


def render(job: JobView) -> None:
    """The hit ratios, the tuning curves, fidelity, then the trade-off, samples and trajectories."""
    show_tables(job, ["Hit ratio at each method's tuned strength"])
    show_figures(job, ["hit_ratio"])
    show_tables(job, ["Fidelity to SDG's target law"])
    show_figures(job, ["tradeoff", "final_samples", "trajectories"])


method_page(NAME, controls=controls, render=render)
