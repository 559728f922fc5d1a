"""Selective MoE upcycling page: four continual learners on a class-incremental digit stream."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import (
    JobView,
    example_picker,
    mark,
    method_page,
    param_widget,
    show_figures,
    show_metrics,
    table,
)

NAME = "moe_upcycling"
LABELS = {
    "naive": "Naive fine-tuning",
    "replay": "Replay only",
    "full_upcycling": "Full upcycling (+ replay)",
    "selective": "Selective upcycling (CKA + NAS, + replay)",
}


def controls() -> dict[str, Any]:
    example_picker(NAME)
    left, middle, right = st.columns(3)
    with left:
        tasks = param_widget(NAME, "tasks", label="Tasks")
        epochs = param_widget(NAME, "epochs_per_task", label="Epochs per task")
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    with middle:
        experts = param_widget(NAME, "experts", label="Experts per upcycled layer E")
        layers = param_widget(NAME, "layers", label="FFN blocks")
        width = param_widget(NAME, "width", label="Hidden width d", step=16)
    with right:
        penalty = param_widget(NAME, "param_penalty", label="Parameter penalty λ (outer loop)")
        cka = param_widget(NAME, "cka_weight", label="CKA penalty weight (inner loop)")
        buffer = param_widget(NAME, "buffer_size", label="Replay buffer (examples)", step=10)
        lr = param_widget(NAME, "learning_rate", label="Learning rate", widget="number")
    st.caption("Defaults take about 20 s on one core; the examples state their times. "
               "epochs x blocks x E x (d/64)^2 is capped at 300.")
    return {"tasks": tasks, "epochs_per_task": epochs, "experts": experts, "layers": layers, "width": width,
            "buffer_size": buffer, "cka_weight": cka, "param_penalty": penalty, "learning_rate": lr, "seed": seed}


def render(job: JobView) -> None:
    result = job.result
    st.subheader("Learners after the last task")
    table(
        [
            {
                "learner": LABELS.get(name, name),
                "average accuracy (%)": round(100 * m["average_accuracy"], 1),
                "forgetting (points)": round(100 * m["forgetting"], 1),
                "backward transfer (points)": round(100 * m["backward_transfer"], 1),
                "added parameters": m["added_parameters"],
            }
            for name, m in result["methods"].items()
        ],
        caption="Average accuracy = mean_j R[T, j]; forgetting = mean over earlier tasks of R[j, j] - R[T, j] "
        "(Avalanche's StreamForgetting); backward transfer = -forgetting.",
    )
    c = result["checks"]
    st.subheader("The paper's check in this run")
    table(
        [
            {"check": "selective adds at most half of full upcycling's parameters",
             "measured": f"{100 * c['parameter_ratio']:.0f}% of full", "holds": mark(c["parameters_at_most_half"])},
            {"check": "average accuracy within 2 points of full upcycling",
             "measured": f"{100 * c['accuracy_gap']:+.1f} points", "holds": mark(c["accuracy_within_two_points"])},
            {"check": "forgetting at most half of naive fine-tuning's",
             "measured": f"{100 * c['forgetting_ratio']:.0f}% of naive",
             "holds": mark(c["forgetting_at_most_half_of_naive"])},
        ]
    )
    kept = result["search"]["kept_blocks"]
    st.markdown(
        "**Search outcome**: kept copies per block: "
        + "; ".join(f"block {i + 1}: {len(k)} of {job.params.get('experts', 4) - 1}" for i, k in enumerate(kept))
        + ". Naive fine-tuning's representation drift (1 - CKA) per block: "
        + ", ".join(f"{v:.2f}" for v in result["cka_drift"].values())
        + "."
    )
    show_figures(job, ["cka_drift", "trade_off", "accuracy_matrix", "search"])
    show_metrics(job)


method_page(NAME, controls=controls, render=render)
