"""Extra-Merge page: train a small transformer LM, merge its checkpoints, extrapolate along the merged line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import (
    JobView,
    field_columns,
    format_number,
    method_page,
    param_widget,
    show_figures,
    show_tables,
)

NAME = "extra_merge"
FIELDS = (("optimizer", "schedule", "learning_rate", "steps", "batch_size"),
          ("checkpoint_every", "merge_window", "falling_cut", "betas", "seeds"))


def controls() -> dict[str, Any]:
    """Training on the left, checkpoints, merging, betas and seeds on the right, then more settings."""
    values = field_columns(NAME, FIELDS, widgets={"learning_rate": "number"})
    with st.expander("More settings"):
        values |= {f: param_widget(NAME, f, widget="number" if f == "seed" else None) for f in ("width", "layers", "seed")}
    return values


def render(job: JobView) -> None:
    """The regime gate, the per-seed loss table, then the figures."""
    late = [s["falling"] for s in job.result["seeds_run"]]
    if not all(c["regime"] for c in late):
        shares = ", ".join(format_number(c["pca_merged"], 2) for c in late)
        st.warning(f"Regime not reached on {sum(not c['regime'] for c in late)} of {len(late)} seeds: the merged "
                   f"checkpoints' top-1 variance share is {shares} (the paper's regime: 0.8 and more; a random walk "
                   f"gives {format_number(late[0]['pca_random_walk'], 2)}). Extra-Merge is not judged there.")
    show_tables(job)
    show_figures(job, ["methods", "loss_vs_beta", "trajectory_pca", "training_curve"])


method_page(NAME, controls=controls, render=render)
