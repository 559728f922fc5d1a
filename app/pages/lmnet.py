"""LMNet page: frozen pre-trained character models wired by a dense trainable edge, against a text
pipeline and a single fine-tuned model, over label counts."""

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

NAME = "lmnet"
LABELS = {"dense": "LMNet (dense edge)", "text": "Text pipeline", "single": "Single fine-tuned model"}


def controls() -> dict[str, Any]:
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        labels = param_widget(NAME, "labels", label="Label counts (labelled training words)")
        epochs = param_widget(NAME, "epochs", label="Epochs (passes over the labels)")
    with right:
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    st.caption("Defaults take about 25 s on one core; the examples state their times. "
               "3 x epochs x ceil(labels / 32), summed over the label counts, is capped at 6,000 steps.")
    return {"labels": labels, "epochs": epochs, "seed": seed}


def render(job: JobView) -> None:
    result = job.result
    st.subheader("Test exact match by label count")
    table(
        [
            {"labels": row["labels"], **{LABELS[k]: f"{100 * row[k]:.1f}%" for k in ("dense", "text", "single")}}
            for row in result["rows"]
        ],
        caption=f"Exact match = whole word right, on {result['test_words']} fresh test words. A text interface "
        f"can get at most the words without marks right: {100 * result['text_ceiling']:.1f}% here.",
    )
    g = result["gradients"]
    st.subheader("Gradient flow (dense network, one backward pass after training)")
    table(
        [
            {"check": f"every edge tensor gets a nonzero gradient ({g['edge_tensors']} tensors)",
             "holds": mark(g["edges_nonzero"])},
            {"check": f"no frozen-node tensor gets a nonzero gradient ({g['frozen_tensors']} tensors)",
             "holds": mark(not g["frozen_nonzero"])},
            {"check": "no frozen-node tensor requires a gradient", "holds": mark(g["frozen_requires_grad"] == 0)},
        ]
    )
    params = result["trainable_parameters"]
    st.markdown(
        "**Trainable parameters**: "
        + "; ".join(f"{LABELS.get(k, k)}: {v:,}" for k, v in params.items())
        + f". Frozen nodes: {result['frozen_parameters']:,}."
    )
    show_figures(job, ["exact_match", "parameters"])
    show_metrics(job)


method_page(NAME, controls=controls, render=render)
