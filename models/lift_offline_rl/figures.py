"""Plotly figures: 2-D projection of paths, success rate vs logged trajectories, learning curves."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.lift_offline_rl.result import Result

__all__ = ["figures"]

STYLE = {"logged": ("#7f7f7f", "solid"), "logged with the augmentor": ("#2ca02c", "dot"), "shortcut": ("#ff7f0e", "dash"),
         "learned (raw)": ("#1f77b4", "solid"), "learned (augmented)": ("#d62728", "solid")}


def _paths(result: Result) -> go.Figure:
    fig = go.Figure()
    shown: set[str] = set()
    for path in result.paths:
        colour, dash = STYLE.get(path.kind, ("#000000", "solid"))
        fig.add_trace(go.Scatter(x=path.x, y=path.y, mode="lines+markers", name=path.kind, legendgroup=path.kind,
                                 showlegend=path.kind not in shown, marker={"size": 4},
                                 line={"color": colour, "dash": dash, "width": 1.5}))
        shown.add(path.kind)
    fig.add_trace(go.Scatter(x=[0], y=[0], mode="markers", marker={"symbol": "star", "size": 16, "color": "black"},
                             name="target"))
    fig.update_layout(title="Paths projected on coordinates 1-2, relative to each episode's target",
                      xaxis_title="x_1 - target_1 (position units)", yaxis_title="x_2 - target_2 (position units)",
                      height=480, yaxis_scaleanchor="x")
    return fig


def _sweep(result: Result) -> go.Figure:
    counts = [s.trajectories for s in result.sweep]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=counts, y=[100 * s.success_rate.raw for s in result.sweep], mode="lines+markers",
                             name="TD3+BC on raw logs", line={"color": STYLE["learned (raw)"][0]}))
    fig.add_trace(go.Scatter(x=counts, y=[100 * s.success_rate.augmented for s in result.sweep], mode="lines+markers",
                             name="TD3+BC on augmented data", line={"color": STYLE["learned (augmented)"][0]}))
    fig.update_layout(title=f"Success rate against logged trajectories ({result.dimension}-D, {result.train_steps} steps)",
                      xaxis_title="logged trajectories", yaxis_title="success rate (%)", yaxis_range=[-2, 102],
                      height=420)
    return fig


def _curves(result: Result) -> go.Figure:
    fig = make_subplots(rows=1, cols=2, subplot_titles=("success rate (%)", "mean return (sum of -distance)"),
                        horizontal_spacing=0.14)
    for data in ("raw", "augmented"):
        points = [c for c in result.curves if c.data == data]
        colour = STYLE[f"learned ({data})"][0]
        steps = [c.step for c in points]
        fig.add_trace(go.Scatter(x=steps, y=[100 * c.success_rate for c in points], name=f"{data} data",
                                 line={"color": colour}, legendgroup=data), row=1, col=1)
        fig.add_trace(go.Scatter(x=steps, y=[c.mean_return for c in points], name=f"{data} data", showlegend=False,
                                 line={"color": colour}, legendgroup=data), row=1, col=2)
    fig.update_xaxes(title_text="TD3+BC gradient steps")
    fig.update_yaxes(title_text="success rate (%)", row=1, col=1)
    fig.update_yaxes(title_text="mean return", row=1, col=2)
    fig.update_layout(title=f"Learning curves with {result.trajectories} logged trajectories", height=420)
    return fig


def _variants(result: Result) -> go.Figure:
    """Success rate (top) and mean steps (bottom) of every learner, stacked so each has its names beside it."""
    labels = [v.label for v in result.variants]
    fig = make_subplots(rows=2, cols=1, vertical_spacing=0.26)
    for row, (values, scale) in enumerate(((lambda v: v.success_rate, 100.0), (lambda v: v.mean_steps, 1.0)), 1):
        means = [float(np.mean(values(v))) * scale for v in result.variants]
        sds = [float(np.std(values(v), ddof=1)) * scale if len(values(v)) > 1 else 0.0 for v in result.variants]
        fig.add_trace(go.Bar(x=means, y=labels, orientation="h", error_x={"type": "data", "array": sds},
                             marker_color=["#1f77b4" if v.variant == "raw" else "#d62728" if v.variant == "augmented"
                                           else "#9467bd" for v in result.variants], showlegend=False),
                      row=row, col=1)
    fig.add_vline(x=result.optimal_steps, line_dash="dot", row=2, col=1)
    fig.update_xaxes(title_text="success rate (%)", row=1, col=1)
    fig.update_xaxes(title_text="mean steps per episode (dotted: the straight line)", row=2, col=1)
    fig.update_yaxes(autorange="reversed", title_text="learner and data")
    n = len(result.seed_list)
    fig.update_layout(title=f"Every learner, mean ± sd over {n} seed{'s' if n > 1 else ''}",
                      height=260 + 64 * len(labels))
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    out = {"variants": _variants(result), "paths": _paths(result), "learning_curves": _curves(result)}
    if len(result.sweep) > 1:  # one point is not a curve
        out["success_vs_trajectories"] = _sweep(result)
    return out
