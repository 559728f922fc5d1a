"""APT operator page: Darcy flow with wells, a kNN + global-attention operator, its ablations and an FNO."""

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

NAME = "apt_operator"
MESHES = {"adaptive": "Adaptive point set (448 points, refined near wells)", "regular": "Regular 32 x 32 grid"}
MODELS = {"fused": "APT fused (kNN + global attention)", "local_only": "Local only (kNN message passing)",
          "global_only": "Global only (latent attention)", "fno": "FNO (regular grid)"}


def controls() -> dict[str, Any]:
    example_picker(NAME)
    st.caption("Defaults use the shipped checkpoint (about 10 s). Retraining all four models runs in the job: "
               "64 media x 8 epochs takes 2-4 min, the shipped 160 x 20 about 10 min on a busy core.")
    left, right = st.columns(2)
    with left:
        mesh = param_widget(NAME, "mesh", label="Evaluation mesh", format_func=MESHES.get)
        test_samples = param_widget(NAME, "test_samples", label="Test media")
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    with right:
        retrain = param_widget(NAME, "retrain", label="Retrain in this job")
        train_samples = param_widget(NAME, "train_samples", label="Training media (when retraining)")
        epochs = param_widget(NAME, "epochs", label="Epochs (when retraining)")
    return {"mesh": mesh, "test_samples": test_samples, "seed": seed, "retrain": retrain,
            "train_samples": train_samples, "epochs": epochs}


def render(job: JobView) -> None:
    result = job.result
    show_metrics(job)
    st.subheader("Relative L2 error of the pressure")
    table([{"mesh": m["mesh"], **{MODELS[k]: round(m[k], 4) for k in MODELS}} for m in result["by_mesh"]])
    adaptive = next(m for m in result["by_mesh"] if m["mesh"] == "adaptive")
    sr = result["super_resolution"]
    st.subheader("The paper's claims at this scale")
    table([
        {"check": "fused beats local only on the adaptive mesh", "values": f"{adaptive['fused']:.4f} vs "
         f"{adaptive['local_only']:.4f}", "holds": mark(adaptive["fused"] < adaptive["local_only"])},
        {"check": "fused beats global only on the adaptive mesh", "values": f"{adaptive['fused']:.4f} vs "
         f"{adaptive['global_only']:.4f}", "holds": mark(adaptive["fused"] < adaptive["global_only"])},
        {"check": "trained at 32 x 32, error at 64 x 64 <= 1.5 x error at 32 x 32",
         "values": f"{sr['higher_resolution']:.4f} / {sr['same_resolution']:.4f} = {sr['ratio']:.2f}",
         "holds": mark(sr["ratio"] <= 1.5)},
    ])
    st.caption(f"Weights: {'retrained in this job' if result['retrain'] else 'shipped checkpoint'} "
               f"({result['train_samples']} training media x {result['epochs']} epochs). Parameters: "
               + ", ".join(f"{MODELS[k]} {v:,}" for k, v in result["parameters"].items()) + ".")
    show_figures(job, ["errors", "super_resolution"], columns=1)
    show_figures(job, ["mesh", "prediction", "training"], columns=1)


method_page(NAME, controls=controls, render=render)
