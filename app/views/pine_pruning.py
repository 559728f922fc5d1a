"""PINE pruning page: a boosted ensemble pruned with a proof of equivalence on a conformal region, vs baselines."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "pine_pruning"
FIELDS = (("seeds", "dataset", "ensemble", "trees", "max_depth", "samples", "seed"),
          ("alphas", "bins", "bin_edges", "solver", "oracle_rounds", "oracle_time_limit"),
          ("search_size", "add_per_round", "check_size", "time_limit"))
WIDGETS = {"samples": "number", "alphas": "list"}
CAPTION = ("Defaults (1 seed, 30 stages of depth 2, three α) take about 20 s on one core; the examples state their "
           "times.")


def render(job: JobView) -> None:
    show_tables(job)
    show_figures(job, ["alpha_curve"])
    show_figures(job, ["oracle", "weights"], columns=2)


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, widgets=WIDGETS, caption=CAPTION), render=render)
