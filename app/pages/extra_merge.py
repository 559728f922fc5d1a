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


def _choice(value: float, edge: bool) -> str:
    return f"{format_number(value)}{' (grid edge)' if edge else ''}"


def _rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for s in result["seeds_run"]:
        for c in (s["falling"], s["plateau"]):
            rows.append({
                "seed": s["seed"], "analysis": f"{c['phase']} (step {c['step']})",
                "loss": "still falling" if c["still_falling"] else "flat",
                "top-1 variance share: merged / raw / random walk": " / ".join(
                    format_number(c[k], 2) for k in ("pca_merged", "pca_raw", "pca_random_walk")),
                "regime (merged >= 0.8)": "reached" if c["regime"] else "not reached",
                "last": format_number(c["loss_last"], 6), "merge": format_number(c["loss_merge"], 6),
                "EMA": format_number(c["loss_ema"], 6), "EMA k": _choice(c["ema_k"], c["ema_edge"]),
                "LAWA": format_number(c["loss_lawa"], 6), "LAWA k": _choice(c["lawa_k"], c["lawa_edge"]),
                "Extra-Merge": format_number(c["loss_extrapolated"], 6), "beta": _choice(c["beta"], c["beta_edge"]),
                "lag shift": format_number(c["loss_shift"], 6), "gamma": _choice(c["gamma"], c["gamma_edge"]),
                "gain over best baseline (nats)": format_number(c["gain"], 2),
            })
    return rows


def render(job: JobView) -> None:
    """The regime gate, the per-seed loss table, then the figures."""
    result = job.result
    late = [s["falling"] for s in result["seeds_run"]]
    shares = ", ".join(format_number(c["pca_merged"], 2) for c in late)
    if not all(c["regime"] for c in late):
        st.warning(f"Regime not reached on {sum(not c['regime'] for c in late)} of {len(late)} seeds: the merged "
                   f"checkpoints' top-1 variance share is {shares} (the paper's regime: 0.8 and more; a random walk "
                   f"gives {format_number(late[0]['pca_random_walk'], 2)}). Extra-Merge is not judged there.")
    st.subheader("Test loss per method (nats/token), per seed and analysis point")
    st.markdown(f"Loss floor (exact Bayes predictor of the corpus): **{format_number(result['floor'])}** nats/token; "
                f"unigram model {format_number(result['unigram_loss'])}. Grids, each choice made on validation: "
                f"beta and gamma {', '.join(format_number(b) for b in result['beta_grid'])}; EMA and LAWA k "
                f"{', '.join(str(k) for k in result['averaging_grid'])}.")
    table(_rows(result))
    show_figures(job, ["methods", "loss_vs_beta", "trajectory_pca", "training_curve"])


method_page(NAME, controls=controls, render=render)
