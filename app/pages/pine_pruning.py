"""PINE pruning page: a boosted ensemble pruned with a proof of equivalence on a conformal region, vs baselines."""

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

NAME = "pine_pruning"
FIELDS = (("seeds", "dataset", "ensemble", "trees", "max_depth", "samples", "seed"),
          ("alphas", "bins", "bin_edges", "solver", "oracle_rounds", "oracle_time_limit"),
          ("search_size", "add_per_round", "check_size", "time_limit"))


def controls() -> dict[str, Any]:
    example_picker(NAME)
    values: dict[str, Any] = {}
    for column, names in zip(st.columns(3), FIELDS, strict=True):
        with column:
            for field in names:
                widget = "number" if field in ("seed", "samples") else "list" if field == "alphas" else None
                values[field] = param_widget(NAME, field, widget=widget)
    st.caption("Defaults (1 seed, 30 stages of depth 2, three α) take about 20 s on one core; the examples state their "
               "times.")
    return values


def _row(seed: int, method: str, p: dict[str, Any]) -> dict[str, Any]:
    proved = {True: "yes", False: "no"}[p["converged"]]
    if p["fell_back"]:
        proved += " (full ensemble returned)"
    return {"seed": seed, "method": method, "trees kept": p["trees_kept"],
            "test agreement": format_number(p["test_agreement"], 3),
            "test accuracy": format_number(p["test_accuracy"], 3), "rounds": str(p["rounds"]), "proved by the MILP": proved,
            "MILP calls": str(p["oracle_calls"]), "MILP time (s)": format_number(p["oracle_seconds"], 2),
            "fresh disagreements": f"{p['fresh_disagreements']} of {p['fresh_points']}"}


def render(job: JobView) -> None:
    r = job.result
    st.subheader(f"Prunings per seed ({r['ensemble'].replace('_', ' ')}, {r['total_trees']} trees)")
    rows = []
    for s in r["per_seed"]:
        rows.extend(_row(s["seed"], f"PINE α = {format_number(p['alpha'], 3)}", p)
                    for p in sorted(s["curve"], key=lambda p: p["alpha"]))
        rows.append(_row(s["seed"], "whole-space faithful (MILP oracle)", s["whole_space"]))
        a = s["accuracy_pruning"]
        rows.append({"seed": s["seed"], "method": "accuracy pruning (reduce-error)", "trees kept": a["trees_kept"],
                     "test agreement": format_number(a["test_agreement"], 3),
                     "test accuracy": format_number(a["test_accuracy"], 3), "rounds": "", "proved by the MILP": "",
                     "MILP calls": "", "MILP time (s)": "", "fresh disagreements": ""})
    table(rows, caption="'proved by the MILP': the exact oracle found no point of the region (whole space: of the "
          "input space) where the returned ensemble's class differs. 'fresh disagreements': a sampling re-check "
          "after the proof.")
    st.subheader("Conformal regions (first seed)")
    table([{"α": format_number(p["alpha"], 3), "1 - α": format_number(1 - p["alpha"], 3),
            "test coverage": format_number(p["test_coverage"], 3),
            "log-likelihood threshold": format_number(p["threshold"], 4), "program points": p["constraint_points"]}
           for p in sorted(r["per_seed"][0]["curve"], key=lambda p: p["alpha"])])
    show_figures(job, ["alpha_curve"])
    show_figures(job, ["oracle", "weights"], columns=2)


method_page(NAME, controls=controls, render=render)
