"""LIFT page: a positioning task, logged and augmented trajectories, TD3+BC on raw vs augmented data, ablations."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, format_number, method_page, param_widget, show_figures, table

NAME = "lift_offline_rl"
LEFT = ("dimension", "trajectories", "partial_observation", "ablations", "trajectory_sweep")
RIGHT = ("train_steps", "alpha", "evaluations", "eval_episodes", "seeds", "seed")
NUMBERS = {"trajectories", "train_steps", "alpha", "eval_episodes", "seed"}


def controls() -> dict[str, Any]:
    """Task, logs and ablations on the left, the learner and seeds on the right."""
    left, right = st.columns(2)
    values: dict[str, Any] = {}
    for column, names in ((left, LEFT), (right, RIGHT)):
        with column:
            values.update({name: param_widget(NAME, name, widget="number" if name in NUMBERS else None)
                           for name in names})
    return values


def render(job: JobView) -> None:
    """Every learner over the seeds, the first seed's sweep, then the figures."""
    r = job.result
    st.subheader("Every learner, mean ± sd over the seeds")
    rows = []
    for v in r["variants"]:
        n = len(v["success_rate"])
        mean = sum(v["success_rate"]) / n
        steps = sum(v["mean_steps"]) / n
        rows.append({"learner and data": v["label"], "success rate (%)": format_number(100 * mean, 3),
                     "mean steps": format_number(steps, 3), "transitions": format_number(int(sum(v["transitions"]) / n)),
                     "per seed (%)": ", ".join(format_number(100 * s, 3) for s in v["success_rate"])})
    table(rows, caption=f"Straight-line steps on the first seed's episodes: {format_number(r['optimal_steps'], 3)}; "
                        f"actions taken over by the augmentor: {r['replaced_actions']}; shortcut transitions: "
                        f"{r['shortcut_transitions']} (first seed). Success is on test episodes, with the checkpoint "
                        "chosen on separate validation episodes.")
    if len(r["sweep"]) > 1:
        st.subheader("Success rate against the number of logs (first seed)")
        table([{"logged trajectories": s["trajectories"],
                "raw (%)": format_number(100 * s["success_rate"]["raw"], 3),
                "augmented (%)": format_number(100 * s["success_rate"]["augmented"], 3)} for s in r["sweep"]])
    show_figures(job, ["variants", "paths", "success_vs_trajectories", "learning_curves"])


method_page(NAME, controls=controls, render=render)
