"""PINE pruning page: a forest pruned to be faithful on a conformal in-distribution region, vs the baselines."""

from __future__ import annotations

import math
from typing import Any

import streamlit as st

from app.components import JobView, example_picker, mark, method_page, param_widget, show_figures, table

NAME = "pine_pruning"
DATASETS = {"synthetic": "synthetic (8 chain-correlated features, 3 classes)",
            "breast_cancer": "breast cancer (569 x 30, 2 classes)", "wine": "wine (178 x 13, 3 classes)",
            "digits": "digits (1,797 x 64, 10 classes)"}
SOLVERS = {"lp": "reweighted L1 (LP, fast)", "milp": "exact L0 (MILP, time-limited)"}


def controls() -> dict[str, Any]:
    """Data and forest on the left, the conformal sweep and the oracle's budget on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        dataset = param_widget(NAME, "dataset", label="Data set", format_func=DATASETS.get)
        trees = param_widget(NAME, "trees", label="Trees")
        depth = param_widget(NAME, "max_depth", label="Maximum tree depth")
        bins = param_widget(NAME, "bins", label="Chow-Liu bins per feature")
        samples = param_widget(NAME, "samples", label="Synthetic rows")
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    with right:
        alphas = param_widget(NAME, "alphas", label="Conformal levels alpha")
        solver = param_widget(NAME, "solver", label="Pruning program", format_func=SOLVERS.get)
        rounds = param_widget(NAME, "oracle_rounds", label="Oracle rounds (most)")
        search = param_widget(NAME, "search_size", label="Points searched per round")
        add = param_widget(NAME, "add_per_round", label="Disagreements added per round (most)")
        check = param_widget(NAME, "check_size", label="Fresh points of the final re-check")
        limit = param_widget(NAME, "time_limit", label="HiGHS time limit per solve (s)")
    return {"dataset": dataset, "trees": trees, "max_depth": depth, "bins": bins, "samples": samples, "seed": seed,
            "alphas": alphas, "solver": solver, "oracle_rounds": rounds, "search_size": search,
            "add_per_round": add, "check_size": check, "time_limit": limit}


def _fraction(value: float) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"


def _methods(result: dict[str, Any]) -> None:
    st.subheader("Pruned forests")
    rows = [{"method": "full forest", "trees kept": result["full_ensemble"]["trees"], "test agreement": "1.000",
             "test accuracy": _fraction(result["full_ensemble"]["test_accuracy"]), "oracle converged": "",
             "fresh disagreements": ""}]
    for point in sorted(result["curve"], key=lambda p: p["alpha"]):
        rows.append({"method": f"PINE alpha = {point['alpha']:g}", "trees kept": point["trees_kept"],
                     "test agreement": _fraction(point["test_agreement"]),
                     "test accuracy": _fraction(point["test_accuracy"]), "oracle converged": mark(point["converged"]),
                     "fresh disagreements": f"{point['fresh_disagreements']} / {point['fresh_points']}"})
    whole = result["whole_space"]
    rows.append({"method": "whole-space faithful (FIPE-style)", "trees kept": whole["trees_kept"],
                 "test agreement": _fraction(whole["test_agreement"]), "test accuracy": _fraction(whole["test_accuracy"]),
                 "oracle converged": mark(whole["converged"]),
                 "fresh disagreements": f"{whole['fresh_disagreements']} / {whole['fresh_points']}"})
    accuracy = result["accuracy_pruning"]
    rows.append({"method": "accuracy pruning (reduce-error)", "trees kept": accuracy["trees_kept"],
                 "test agreement": _fraction(accuracy["test_agreement"]),
                 "test accuracy": _fraction(accuracy["test_accuracy"]), "oracle converged": "",
                 "fresh disagreements": ""})
    table(rows, caption="'fresh disagreements': points of the region (whole space: of the box) drawn after pruning, "
                        "on which the pruned vote differs from the forest's. The oracle is a randomised search, not a "
                        "proof.")


def _regions(result: dict[str, Any]) -> None:
    st.subheader("Conformal regions")
    table([{"alpha": p["alpha"], "1 - alpha": round(1 - p["alpha"], 3), "test coverage": _fraction(p["test_coverage"]),
            "agreement inside the region": _fraction(p["region_test_agreement"]),
            "log-likelihood threshold": round(p["threshold"], 3), "oracle rounds": p["rounds"],
            "program points": p["constraint_points"]} for p in sorted(result["curve"], key=lambda p: p["alpha"])])


def render(job: JobView) -> None:
    """The method table, the region table, then the figures."""
    _methods(job.result)
    _regions(job.result)
    show_figures(job, ["alpha_curve"])
    show_figures(job, ["weights", "oracle"], columns=2)


method_page(NAME, controls=controls, render=render)
