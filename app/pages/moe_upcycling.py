"""Selective MoE upcycling page: five continual learners on a class-incremental digit stream."""

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

NAME = "moe_upcycling"
FIELDS = (("seeds", "tasks", "epochs_per_task", "seed"), ("experts", "layers", "width"),
          ("param_penalty", "cka_weight", "buffer_size", "learning_rate"))
STEPS = {"width": 16, "buffer_size": 10}


def controls() -> dict[str, Any]:
    example_picker(NAME)
    values: dict[str, Any] = {}
    for column, names in zip(st.columns(3), FIELDS, strict=True):
        with column:
            for field in names:
                widget = "number" if field in ("seed", "learning_rate") else None
                values[field] = param_widget(NAME, field, widget=widget, step=STEPS.get(field))
    st.caption("Defaults (1 seed) take about 20 s on one core; the examples state their times. "
               "seeds x epochs x blocks x E x (d/64)^2 is capped at 400.")
    return values


def _mean(result: dict[str, Any], name: str, key: str, scale: float = 100.0) -> str:
    values = [s["methods"][name][key] for s in result["per_seed"]]
    return format_number(scale * sum(values) / len(values), 3)


def render(job: JobView) -> None:
    result = job.result
    n = len(result["per_seed"])
    labels = result["standing"]["labels"]  # display names, declared once in the method
    st.subheader(f"Learners after the last task (mean over {n} seed{'s' if n > 1 else ''})")
    table(
        [{"learner": label, "average accuracy (%)": _mean(result, name, "average_accuracy"),
          "forgetting (points)": _mean(result, name, "forgetting"),
          "added parameters": _mean(result, name, "added_parameters", 1.0),
          "training time (s)": _mean(result, name, "seconds", 1.0)}
         for name, label in labels.items()],
        caption="Average accuracy = mean_j R[T, j]; forgetting = mean over earlier tasks of R[j, j] - R[T, j] "
        "(Avalanche's StreamForgetting).",
    )
    s = result["search"]
    kept = "; ".join(f"seed {p['seed']}: {p['kept_copies']} copies kept, min |P(keep) - 1/2| = "
                     f"{format_number(p['decided'], 2)}" for p in result["per_seed"])
    st.markdown(
        "**Search** (first seed): CKA probe drift per block "
        + ", ".join(format_number(v, 2) for v in s["probe_drift"])
        + f"; CKA-favoured blocks (mask starts at P(keep) 0.6) {', '.join(str(c) for c in s['candidate_layers'])}; {s['outer_steps']} outer steps "
        f"in {format_number(s['search_seconds'], 2)} s. {kept}."
    )
    show_figures(job, ["search", "trade_off", "cka_drift", "accuracy_matrix"])


method_page(NAME, controls=controls, render=render)
