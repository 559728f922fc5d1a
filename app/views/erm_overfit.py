"""All-ERMs-can-fail page: our derived construction in d = 6m, the unique ERM's overfitting rate, SGD beside it."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "erm_overfit"
FIELDS = (("samples", "extra_bits", "threshold_margin"), ("instances", "approx_scale", "seeds", "seed"))


def render(job: JobView) -> None:
    """The per-seed table (the model's), then the two figures."""
    show_tables(job)
    show_figures(job, ["excess", "rates"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS), render=render)
