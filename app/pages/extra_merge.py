"""Extra-Merge page: train a small transformer LM, merge its checkpoints, extrapolate along the merged line."""

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

NAME = "extra_merge"
TRAINING = ("optimizer", "schedule", "learning_rate", "steps", "batch_size")
MERGING = ("checkpoint_every", "merge_window", "falling_cut", "betas", "seeds")


def controls() -> dict[str, Any]:
    """Training on the left, checkpoints, merging, betas and seeds on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        values = {f: param_widget(NAME, f, widget="number" if f == "learning_rate" else None) for f in TRAINING}
    with right:
        values |= {f: param_widget(NAME, f) for f in MERGING}
        with st.expander("More settings"):
            values |= {f: param_widget(NAME, f) for f in ("width", "layers")}
            values["seed"] = param_widget(NAME, "seed", widget="number")
    return values


def _rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for s in result["seeds_run"]:
        for c in (s["falling"], s["plateau"]):
            rows.append({
                "seed": s["seed"], "analysis": f"{c['phase']} (step {c['step']})",
                "loss": "still falling" if c["still_falling"] else "flat",
                "last": format_number(c["loss_last"], 6), "merge": format_number(c["loss_merge"], 6),
                "EMA (k)": f"{format_number(c['loss_ema'], 6)} ({c['ema_k']})",
                "LAWA (k)": f"{format_number(c['loss_lawa'], 6)} ({c['lawa_k']})",
                "Extra-Merge (beta)": f"{format_number(c['loss_extrapolated'], 6)} ({format_number(c['beta'])})",
                "gain (nats)": format_number(c["gain"], 2), "share of gap to floor": format_number(c["gain_share"], 2),
                "top-1 raw / merged": f"{format_number(c['top1_raw'], 2)} / {format_number(c['top1_merged'], 2)}",
            })
    return rows


def render(job: JobView) -> None:
    """The per-seed loss table, then the figures."""
    result = job.result
    st.subheader("Test loss per method (nats/token), per seed and analysis point")
    st.markdown(f"Loss floor (exact Bayes predictor of the corpus): **{format_number(result['floor'])}** nats/token; "
                f"unigram model {format_number(result['unigram_loss'])}. The gain is min(merge, EMA, LAWA) minus "
                "Extra-Merge; its share is the gain over that baseline's distance to the floor.")
    table(_rows(result))
    show_figures(job, ["methods", "loss_vs_beta", "trajectory_pca", "training_curve"])


method_page(NAME, controls=controls, render=render)
