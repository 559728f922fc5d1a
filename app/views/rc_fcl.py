"""RC-FCL page: federated clients on an asynchronous concept stream; drift detection and calibration."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "rc_fcl"
FIELDS = (("seeds", "clients", "rounds", "batch", "seed"),
          ("drift_magnitude", "dirichlet_alpha", "participation", "local_epochs"),
          ("detection_threshold", "window", "drift_penalty", "prox_mu", "learning_rate"))
CAPTION = "Defaults (1 seed, six methods) take about 15 s on one core; the examples state their times."


def render(job: JobView) -> None:
    show_tables(job)
    show_figures(job, ["final", "accuracy_per_round", "drift_maps", "aggregation"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, widgets={"learning_rate": "number", "prox_mu": "number"},
                                                caption=CAPTION),
            render=render)
