"""Selective MoE upcycling page: five continual learners on a class-incremental digit stream."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "moe_upcycling"
FIELDS = (("seeds", "tasks", "epochs_per_task", "seed"), ("experts", "layers", "width"),
          ("param_penalty", "cka_weight", "buffer_size", "learning_rate"))
CAPTION = ("Defaults (1 seed) take about 20 s on one core; the examples state their times. "
           "seeds x epochs x blocks x E x (d/64)^2 is capped at 400.")


def render(job: JobView) -> None:
    show_tables(job)
    show_figures(job, ["search", "trade_off", "cka_drift", "accuracy_matrix"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, widgets={"learning_rate": "number"},
                                                steps={"width": 16, "buffer_size": 10}, caption=CAPTION),
            render=render)
