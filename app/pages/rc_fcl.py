"""RC-FCL page: clients drifting at their own rounds; drift detection and drift-weighted aggregation."""

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

NAME = "rc_fcl"
METHODS = {"rc_fcl": "RC-FCL", "fedavg": "FedAvg", "fedprox": "FedProx"}


def controls() -> dict[str, Any]:
    example_picker(NAME)
    left, middle, right = st.columns(3)
    with left:
        clients = param_widget(NAME, "clients", label="Clients")
        rounds = param_widget(NAME, "rounds", label="Rounds")
        magnitude = param_widget(NAME, "drift_magnitude", label="Drift magnitude")
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    with middle:
        alpha = param_widget(NAME, "dirichlet_alpha", label="Dirichlet α (non-IID split)", widget="number")
        participation = param_widget(NAME, "participation", label="Participation per round")
        epochs = param_widget(NAME, "local_epochs", label="Local epochs")
        lr = param_widget(NAME, "learning_rate", label="Local learning rate", widget="number")
    with right:
        threshold = param_widget(NAME, "detection_threshold", label="Detection threshold (score)")
        penalty = param_widget(NAME, "drift_penalty", label="Aggregation penalty β")
        mu = param_widget(NAME, "prox_mu", label="FedProx μ", widget="number")
    st.caption("Defaults take about 15 s on one core; the examples state their times.")
    return {"clients": clients, "rounds": rounds, "drift_magnitude": magnitude, "seed": seed,
            "dirichlet_alpha": alpha, "participation": participation, "local_epochs": epochs,
            "learning_rate": lr, "detection_threshold": threshold, "drift_penalty": penalty, "prox_mu": mu}


def _percent(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 1)


def render(job: JobView) -> None:
    r = job.result
    d = r["detection"]
    st.subheader("After the last round")
    table(
        [
            {"method": label, "final accuracy (%)": _percent(r["methods"][key]["final_accuracy"]),
             "original concept (%)": _percent(r["methods"][key]["old_concept_accuracy"]),
             "new concepts (%)": _percent(r["methods"][key]["new_concept_accuracy"])}
            for key, label in METHODS.items()
        ],
        caption="Final accuracy: mean over clients of the global model's accuracy on the test set under the "
        "client's current concept.",
    )
    st.subheader("The paper's check in this run")
    tpr, fpr = d["true_positive_rate"], d["false_positive_rate"]
    gain = r["methods"]["rc_fcl"]["final_accuracy"] - r["methods"]["fedavg"]["final_accuracy"]
    table(
        [
            {"check": "drift detection TPR >= 0.8 at FPR <= 0.1",
             "measured": "no drift to detect" if tpr is None or fpr is None else
             f"TPR {tpr:.2f} ({d['true_positives']}/{d['positives']}), FPR {fpr:.2f} ({d['false_positives']}/{d['negatives']})",
             "holds": mark(None if tpr is None or fpr is None else (tpr >= 0.8 and fpr <= 0.1))},
            {"check": "final accuracy at least 3 points above FedAvg", "measured": f"{100 * gain:+.1f} points",
             "holds": mark(gain >= 0.03)},
        ]
    )
    show_figures(job, ["drift_maps", "accuracy_per_round", "final", "aggregation"])
    with st.expander("Clients and their drift"):
        table(r["clients"])
    show_metrics(job)


method_page(NAME, controls=controls, render=render)
