"""LIFT page: a positioning task, logged and augmented trajectories, TD3+BC on raw vs augmented data."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, example_picker, mark, method_page, param_widget, show_figures, table

NAME = "lift_offline_rl"


def controls() -> dict[str, Any]:
    """Task and logs on the left, the learner on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        dimension = param_widget(NAME, "dimension", label="Dimension D", format_func=lambda d: f"{d}-D")
        trajectories = param_widget(NAME, "trajectories", label="Logged trajectories", widget="number")
        partial = param_widget(NAME, "partial_observation", label="Partial observation (saturating sensor)")
        help_logging = param_widget(NAME, "help_logging", label="Help the logging policy (augmented set)")
    with right:
        sweep = param_widget(NAME, "trajectory_sweep", label="Other numbers of logs (success curve)")
        steps = param_widget(NAME, "train_steps", label="TD3+BC steps per learner", widget="number")
        evaluations = param_widget(NAME, "evaluations", label="Learning-curve points")
        episodes = param_widget(NAME, "eval_episodes", label="Evaluation episodes", widget="number")
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    return {"dimension": dimension, "trajectories": trajectories, "partial_observation": partial,
            "help_logging": help_logging, "trajectory_sweep": sweep, "train_steps": steps,
            "evaluations": evaluations, "eval_episodes": episodes, "seed": seed}


def render(job: JobView) -> None:
    """The comparison table, the sweep table, then the figures."""
    r = job.result
    st.subheader("Raw logs against augmented data")
    rows = [{"data": name, "transitions": r["transitions"][key], "success rate (%)": round(100 * r["success_rate"][key], 1),
             "mean return": round(r["mean_return"][key], 2), "mean steps": round(r["mean_steps"][key], 1)}
            for name, key in (("raw logs", "raw"), ("augmented", "augmented"))]
    gain = 100 * (r["success_rate"]["augmented"] - r["success_rate"]["raw"])
    table(rows, caption=f"Gain {gain:+.1f} points (the issue asks >= +20 with 50 logs in 4-D): {mark(gain >= 20)}. "
                        f"Straight-line steps on these episodes: {r['optimal_steps']:.1f}. Targets located by "
                        f"trilateration: {r['targets_recovered']} of {r['trajectories']} (largest error "
                        f"{r['recovery_error']:.1e}).")
    st.subheader("Success rate against the number of logs")
    table([{"logged trajectories": s["trajectories"], "raw (%)": round(100 * s["success_rate"]["raw"], 1),
            "augmented (%)": round(100 * s["success_rate"]["augmented"], 1), "raw transitions": s["transitions"]["raw"],
            "augmented transitions": s["transitions"]["augmented"]} for s in r["sweep"]])
    show_figures(job, ["paths", "success_vs_trajectories", "learning_curves"])


method_page(NAME, controls=controls, render=render)
