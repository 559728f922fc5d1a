"""Diffusion resampling page: six tuned resamplers on the paper's LGSSM benchmark, moments, derivatives, gradients."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "diffusion_resampling"
FIELDS = (("resamplers", "observations", "data_sets", "seeds"),
          ("filter_particles", "grid_points", "tuning_data_sets", "gradient_repeats"))
MORE = (("particles", "ode_steps", "diffusion_time", "moment_repeats", "sinkhorn_iterations"),
        ("filter_steps", "theta_eval", "estimation_iterations", "estimation_repeats", "learning_rate", "seed"))


def controls() -> dict[str, Any]:
    """Resamplers and the moment experiment on the left, the particle filter on the right, then more."""
    values = field_columns(NAME, FIELDS)
    with st.expander("More settings"):
        values |= field_columns(NAME, MORE, widgets={"seed": ""})
    return values


def render(job: JobView) -> None:
    """Tables of the two experiments, then the figures."""
    show_tables(job)
    show_figures(job, ["landscape", "benchmark"])
    show_figures(job, ["paired", "gradient"])
    show_figures(job, ["moment_error", "derivative"], columns=2)
    show_figures(job, ["estimation"])


method_page(NAME, controls=controls, render=render)
