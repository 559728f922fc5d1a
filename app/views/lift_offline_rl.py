"""LIFT page: a positioning task, logged and augmented trajectories, TD3+BC on raw vs augmented data, ablations."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "lift_offline_rl"
FIELDS = (("dimension", "trajectories", "partial_observation", "ablations", "trajectory_sweep"),
          ("train_steps", "alpha", "evaluations", "eval_episodes", "seeds", "seed"))
WIDGETS = {name: "number" for name in ("trajectories", "train_steps", "alpha", "eval_episodes")}


def render(job: JobView) -> None:
    """Every learner over the seeds, the first seed's sweep, then the figures."""
    show_tables(job)
    show_figures(job, ["variants", "paths", "success_vs_trajectories", "learning_curves"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, widgets=WIDGETS), render=render)
