"""APT operator page: channelised media with wells (pressure and a saturation front), APT against its ablations,
GINO and an FNO, super-resolution and transfer, every model against a null that ignores the permeability."""

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

NAME = "apt_operator"
MODELS = {"fused": "APT fused (radius GNO + attention, gated)", "local_only": "Local only (radius GNO)",
          "global_only": "Global only (latent attention)", "gino": "GINO (graph kernel + latent FNO)",
          "fno": "FNO (regular grid)", "uniform_k": "Null: FV solve, uniform k"}
COLUMNS = (("mesh", "test_samples", "seed", "seeds"), ("retrain", "train_samples", "epochs"))


def controls() -> dict[str, Any]:
    example_picker(NAME)
    st.caption("Defaults use the shipped checkpoint (about 15 s of CPU). Retraining all six models runs in the job, "
               "once per seed, and is far shorter than the shipped training.")
    values: dict[str, Any] = {}
    for column, names in zip(st.columns(2), COLUMNS, strict=True):
        with column:
            values.update({name: param_widget(NAME, name) for name in names})
    return values


def _gain(model: float, null: float) -> str:
    return format_number(100 * (1 - model / null), 1) + "%"


def _tables(result: dict[str, Any]) -> None:
    st.subheader(f"Relative L2 error (mean of pressure and saturation), judged on the {result['mesh']} mesh")
    rows = [{"seed": s["seed"], **{label: format_number(s["errors"][k], 3) for k, label in MODELS.items()},
             "APT fused below the null": _gain(s["errors"]["fused"], s["errors"]["uniform_k"]),
             "GINO below the null": _gain(s["errors"]["gino"], s["errors"]["uniform_k"]),
             "FNO below the null": _gain(s["errors"]["fno"], s["errors"]["uniform_k"])} for s in result["per_seed"]]
    table(rows, caption=f"{result['test_samples']} channelised test media per seed. The null is the finite-volume "
                        "solve and transport with the true wells and a uniform permeability exp(mean ln k): no "
                        "learning. A learned model's claims count only where it is at least 25% below the null with "
                        "a paired interval excluding 0.")
    st.subheader("Per field")
    table([{"seed": s["seed"], "field": f["field"], **{label: format_number(f[k], 3) for k, label in MODELS.items()}}
           for s in result["per_seed"] for f in s["fields"]],
          caption="Relative L2 of the pressure and of the injected-fluid saturation separately, on the evaluation mesh.")
    st.subheader("Finer input and another mesh family")
    table([{"seed": s["seed"],
            "fused: 32 x 32 input": format_number(s["super_resolution"]["same_resolution"], 3),
            "fused: 64 x 64 input": format_number(s["super_resolution"]["higher_resolution"], 3),
            "GINO: 32 x 32": format_number(s["super_resolution"]["gino_same"], 3),
            "GINO: 64 x 64": format_number(s["super_resolution"]["gino_higher"], 3),
            "FNO: 32 x 32": format_number(s["super_resolution"]["fno_same"], 3),
            "FNO: 64 x 64": format_number(s["super_resolution"]["fno_higher"], 3),
            "null: 32 x 32": format_number(s["super_resolution"]["uniform_k_same"], 3),
            "null: 64 x 64": format_number(s["super_resolution"]["uniform_k_higher"], 3),
            "grid-trained fused: grids": format_number(s["transfer"]["regular"], 3),
            "grid-trained fused: adaptive": format_number(s["transfer"]["adaptive"], 3),
            "grid-trained fused: 64 x 64": format_number(s["transfer"]["finer"], 3),
            "fused gate (1 = local)": format_number(s["gate"], 3)} for s in result["per_seed"]],
          caption="Relative L2 (mean of both fields). The 64 x 64 runs read the finer input itself (not the 32 x 32 "
                  "input decoded at finer points). The grid-trained model never saw an adaptive mesh.")
    params = result["parameters"]
    st.caption(f"Weights: {'retrained in this job' if result['retrain'] else 'shipped checkpoint'} "
               f"({result['train_samples']} training media, {result['steps']} optimiser steps per model). "
               f"Parameters: APT {params['fused']:,}, GINO {params['gino']:,}, FNO {params['fno']:,}.")


def render(job: JobView) -> None:
    _tables(job.result)
    show_figures(job, ["errors", "training", "super_resolution", "mesh", "prediction"])


method_page(NAME, controls=controls, render=render)
