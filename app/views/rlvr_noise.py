"""Noisy-verifier RLVR page: sweep Youden's J, compare GRPO with the mean field, the rate law and the J = 0 diffusion."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, field_columns, method_page, param_widget, show_figures, show_tables

NAME = "rlvr_noise"
FIELDS = (("j_values", "fpr", "steps", "initial_incorrect_mass"),
          ("seeds", "bandit_seeds", "group_size", "modes_per_class", "learning_rate"))
MORE = ("phase_grid", "favoured_share", "competition_j", "seed")


def controls() -> dict[str, Any]:
    """The J sweep and the verifier on the left, the seeds and the GRPO bandit on the right, then more."""
    values = field_columns(NAME, FIELDS, caption="With this FPR the false-negative rate is FNR = 1 - FPR - J; "
                           "J must lie in [-FPR, 1 - FPR].")
    with st.expander("More settings"):
        values |= {field: param_widget(NAME, field, widget="number" if field == "seed" else None) for field in MORE}
    return values


def render(job: JobView) -> None:
    """The final masses and hitting times of the first seed, the competition, then the figures."""
    show_tables(job)
    show_figures(job, ["mass_curves", "rate", "phase_diagram", "diffusion", "competition", "winner"])


method_page(NAME, controls=controls, render=render)
