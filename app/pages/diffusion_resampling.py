"""Diffusion resampling page: six tuned resamplers on the paper's LGSSM benchmark, moments, derivatives, gradients."""

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

NAME = "diffusion_resampling"
MAIN = ("resamplers", "observations", "data_sets", "seeds")
FILTER = ("filter_particles", "grid_points", "tuning_data_sets", "gradient_repeats")
MORE = (("particles", "ode_steps", "diffusion_time", "moment_repeats", "sinkhorn_iterations"),
        ("filter_steps", "theta_eval", "estimation_iterations", "estimation_repeats", "learning_rate", "seed"))


def controls() -> dict[str, Any]:
    """Resamplers and the moment experiment on the left, the particle filter on the right."""
    example_picker(NAME)
    values: dict[str, Any] = {}
    for column, names in zip(st.columns(2), (MAIN, FILTER), strict=True):
        with column:
            values.update({name: param_widget(NAME, name) for name in names})
    with st.expander("More settings"):
        for column, names in zip(st.columns(2), MORE, strict=True):
            with column:
                values.update({name: param_widget(NAME, name) for name in names})
    return values


def _convergence(result: dict[str, Any]) -> None:
    conv = result["per_seed"][0]["convergence"]
    if conv is None:
        return
    st.caption(
        f"ODE convergence check (seed {result['seeds'][0]}): at N = {conv['n']} the diffusion resampler's moment "
        f"RMSE is {format_number(conv['rmse'], 3)} with {conv['steps']} Euler steps and "
        f"{format_number(conv['doubled_rmse'], 3)} with {2 * conv['steps']} (change "
        f"{format_number(100 * conv['relative_change'], 2)}%). With 8 steps it is about twice the weighted set's."
    )


def _benchmark(result: dict[str, Any]) -> None:
    labels = result["labels"]
    st.subheader(f"The paper's LGSSM benchmark: {result['observations']} observations, {result['data_sets']} data sets "
                 "per seed, every resampler tuned on its grid")
    rows = []
    for name in result["resamplers"]:
        per = [s["benchmark"][name] for s in result["per_seed"]]
        row: dict[str, Any] = {"resampler": labels[name]}
        for key, title in (("landscape", "landscape error (nats)"), ("filtering_kl", "filtering KL (nats)"),
                           ("estimation", "|theta_hat - 0.5|")):
            values = [v for p in per for v in p[key]]
            row[title] = format_number(sum(values) / len(values), 3)
        tuning = result["tunings"].get(name)
        row["chosen on its grid"] = "—" if tuning is None else ", ".join(
            f"{axis} = {format_number(v, 3)}" for axis, v in zip(tuning["axes"], tuning["best"], strict=True)) + (
            " (grid edge)" if tuning["at_edge"] else "")
        rows.append(row)
    table(rows, caption="Means over every data set and seed; each metric against the Kalman filter (lower is better). "
                        "The claims compare diffusion with the strongest differentiable rival per data set (paired).")


def _tables(result: dict[str, Any]) -> None:
    labels = result["labels"]
    _benchmark(result)
    st.subheader("Experiment 1: resampled moments and d(mean)/dy against the exact posterior")
    rows: list[dict[str, Any]] = []
    named = [("Weighted set (no resampling)", result["importance_error"], result["importance_derivative"])]
    named += [(labels[n], result["moment_error"][n], result["derivative"][n]) for n in result["resamplers"]]
    for label, moments, derivatives in named:
        row: dict[str, Any] = {"resampler": label}
        for point, derivative in zip(moments, derivatives, strict=True):
            row[f"moment RMSE, N = {point['n']}"] = format_number(point["rmse"], 3)
            row[f"d mean/dy RMSE, N = {point['n']}"] = format_number(derivative["rmse"], 3)
        rows.append(row)
    table(rows, caption=(f"First seed. Exact d(mean_1)/dy = {format_number(result['exact_derivative'], 3)}. Multinomial "
                         "and systematic: central finite difference with common random numbers."))
    _convergence(result)
    st.subheader(f"Secondary: dl/dtheta at theta = {result['theta_eval']} "
                 f"(Kalman: {format_number(result['kalman_gradient'], 3)})")
    table([{"seed": s["seed"], **{labels[n]: format_number(v, 3) for n, v in s["gradient_rmse"].items()}}
           for s in result["per_seed"]],
          caption=f"RMSE of each resampler's gradient to the Kalman gradient over {result['filters']} filters, per seed "
                  "(the filters of every resampler share their propagation noise, so the comparison is paired).")


def render(job: JobView) -> None:
    """Tables of the two experiments, then the figures."""
    _tables(job.result)
    show_figures(job, ["landscape", "benchmark"])
    show_figures(job, ["paired", "gradient"])
    show_figures(job, ["moment_error", "derivative"], columns=2)
    show_figures(job, ["estimation"])


method_page(NAME, controls=controls, render=render)
