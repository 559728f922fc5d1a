"""Extra-Merge page: train a small next-token model, merge its checkpoints, extrapolate along the merged line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, example_picker, mark, method_page, param_widget, show_figures, table

NAME = "extra_merge"
OPTIMIZERS = {"adam": "Adam", "muon": "Muon (weight matrices) + Adam (the rest)"}


def controls() -> dict[str, Any]:
    """Training on the left, checkpoints, merging and the beta grid on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        optimizer = param_widget(NAME, "optimizer", label="Optimiser", format_func=OPTIMIZERS.get)
        lr = param_widget(NAME, "learning_rate", label="Learning rate", widget="number", step=0.001)
        steps = param_widget(NAME, "steps", label="Training steps")
        batch = param_widget(NAME, "batch_size", label="Batch size (next-token examples)")
    with right:
        every = param_widget(NAME, "checkpoint_every", label="Checkpoint every k steps")
        window = param_widget(NAME, "merge_window", label="Checkpoints per merge")
        betas = param_widget(NAME, "betas", label="Betas (0 = plain merge)")
        with st.expander("More settings"):
            hidden = param_widget(NAME, "hidden", label="Hidden width of the MLP")
            seed = param_widget(NAME, "seed", label="Seed", widget="number")
    return {"optimizer": optimizer, "learning_rate": lr, "steps": steps, "batch_size": batch,
            "checkpoint_every": every, "merge_window": window, "betas": betas, "hidden": hidden, "seed": seed}


def _summary(result: dict[str, Any]) -> None:
    st.subheader("Test loss: last checkpoint, merge, extrapolation")
    falling = result["still_falling"]
    st.markdown(
        f"The merges' validation loss is **{'still falling' if falling else 'flat (plateau)'}** at the end of training"
        + ("" if falling else ": the paper expects no gain from extrapolating here") + "."
    )
    table([
        {"model": "last checkpoint", "test loss (nats/token)": round(result["loss_last"], 5)},
        {"model": "EMA of checkpoints", "test loss (nats/token)": round(result["loss_ema"], 5)},
        {"model": "merge (beta = 0)", "test loss (nats/token)": round(result["loss_merged"], 5)},
        {"model": f"Extra-Merge (beta = {result['best_beta']:g}, chosen on validation)",
         "test loss (nats/token)": round(result["loss_extrapolated"], 5)},
        {"model": "floor: entropy rate of the chain", "test loss (nats/token)": round(result["entropy_rate"], 5)},
    ])
    table([
        {"check": "extrapolated < merged", "holds": mark(result["loss_extrapolated"] < result["loss_merged"])},
        {"check": "merged < last checkpoint", "holds": mark(result["loss_merged"] < result["loss_last"])},
        {"check": f"merged steps closer to rank one (top-1 share {result['top1_share_merged']:.2f} vs raw "
                  f"{result['top1_share_raw']:.2f}, last {result['pca_steps']} steps)",
         "holds": mark(result["top1_share_merged"] > result["top1_share_raw"])},
    ])


def render(job: JobView) -> None:
    """The loss table and checks, then the three figures."""
    _summary(job.result)
    show_figures(job, ["loss_vs_beta", "trajectory_pca", "training_curve"])


method_page(NAME, controls=controls, render=render)
