"""RC-FCL page: federated clients on an asynchronous concept stream; drift detection and calibration."""

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

NAME = "rc_fcl"
LABELS = {"rc_fcl": "RC-FCL", "fedavg": "FedAvg", "fedprox": "FedProx", "drift_aware": "Drift-aware FedAvg (loss-triggered)",
          "fedavg_replay": "FedAvg + replay (real samples)", "fedavg_genreplay": "FedAvg + generator replay (no detection)"}
FIELDS = (("seeds", "clients", "rounds", "batch", "seed"),
          ("drift_magnitude", "dirichlet_alpha", "participation", "local_epochs"),
          ("detection_threshold", "window", "drift_penalty", "prox_mu", "learning_rate"))


def controls() -> dict[str, Any]:
    example_picker(NAME)
    values: dict[str, Any] = {}
    for column, names in zip(st.columns(3), FIELDS, strict=True):
        with column:
            for field in names:
                widget = "number" if field in ("seed", "learning_rate", "prox_mu") else None
                values[field] = param_widget(NAME, field, widget=widget)
    st.caption("Defaults (1 seed, six methods) take about 15 s on one core; the examples state their times.")
    return values


def _mean(result: dict[str, Any], name: str, key: str) -> str:
    values = [s["methods"][name][key] for s in result["per_seed"] if s["methods"][name][key] is not None]
    return format_number(100 * sum(values) / len(values), 3) if values else "—"


def _rate(rate: float | None, interval: list[float]) -> str:
    if rate is None:
        return "—"
    return f"{format_number(rate, 2)} [{format_number(interval[0], 2)}, {format_number(interval[1], 2)}]"


def render(job: JobView) -> None:
    r = job.result
    n = len(r["per_seed"])
    st.subheader(f"Methods after the last round (mean over {n} seed{'s' if n > 1 else ''})")
    table([{"method": label, "average accuracy (%)": _mean(r, name, "average_accuracy"),
            "forgetting (points)": _mean(r, name, "forgetting")} for name, label in LABELS.items()],
          caption=f"Concepts: {' → '.join(r['concepts'])}. Avalanche's average accuracy over the concepts and "
          "forgetting R[j, j] - R[T, j].")
    st.subheader("Drift detection, per seed")
    table([{"seed": s["seed"], "detector": LABELS[name],
            "events found": f"{d['detected_events']} of {d['events']}",
            "TPR [95% interval]": _rate(d["true_positive_rate"], d["tpr_interval"]),
            "false alarms": f"{d['false_positives']} of {d['negatives']}",
            "FPR [95% interval]": _rate(d["false_positive_rate"], d["fpr_interval"])}
           for s in r["per_seed"] for name, d in s["detection"].items()],
          caption="A drift event is found when flagged within 2 local rounds; negatives are all other scored "
          "client-rounds (fresh batches, one class-prior shift per client). Wilson intervals.")
    st.subheader("Clients (first seed)")
    table([{"client": c["client"], "examples": c["examples"], "classes (5+ examples)": c["classes"],
            "drift rounds (own clock)": ", ".join(str(d) for d in c["drift_rounds"]) or "none",
            "magnitude": format_number(c["magnitude"], 2), "prior shift at round": c["prior_shift_round"]}
           for c in r["clients"]])
    show_figures(job, ["final", "accuracy_per_round", "drift_maps", "aggregation"])


method_page(NAME, controls=controls, render=render)
