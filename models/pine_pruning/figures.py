"""Plotly figures of PINE pruning: trees kept and test agreement against alpha, the pruned weights, the oracle."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.pine_pruning.result import Result

__all__ = ["figures"]


def _alpha_curve(result: Result) -> go.Figure:
    curve = sorted(result.curve, key=lambda p: p.alpha)
    alphas = [p.alpha for p in curve]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("Trees kept", "Test agreement with the full forest"))
    fig.add_trace(go.Scatter(x=alphas, y=[p.trees_kept for p in curve], mode="lines+markers", name="PINE"), 1, 1)
    for y, name, dash in ((result.whole_space.trees_kept, "whole-space faithful", "dash"),
                          (result.accuracy_pruning.trees_kept, "accuracy pruning", "dot"),
                          (result.full_ensemble.trees, "full forest", "solid")):
        fig.add_trace(go.Scatter(x=[min(alphas), max(alphas)], y=[y, y], mode="lines", name=name,
                                 line={"dash": dash, "width": 1}), 1, 1)
    fig.add_trace(go.Scatter(x=alphas, y=[p.test_agreement for p in curve], mode="lines+markers",
                             name="PINE: all test points"), 1, 2)
    fig.add_trace(go.Scatter(x=alphas, y=[p.region_test_agreement for p in curve], mode="markers",
                             name="PINE: test points in the region", marker={"symbol": "x"}), 1, 2)
    fig.add_trace(go.Scatter(x=alphas, y=[p.test_coverage for p in curve], mode="markers",
                             name="test coverage of the region", marker={"symbol": "diamond-open"}), 1, 2)
    fig.add_trace(go.Scatter(x=[0.0, max(alphas)], y=[1.0, 1.0 - max(alphas)], mode="lines", name="1 - alpha",
                             line={"dash": "dash", "color": "grey"}), 1, 2)
    fig.add_trace(go.Scatter(x=[min(alphas), max(alphas)], y=[result.whole_space.test_agreement] * 2, mode="lines",
                             name="whole-space agreement", line={"dash": "dot", "width": 1}), 1, 2)
    fig.update_xaxes(title_text="alpha (conformal level)")
    fig.update_yaxes(title_text="trees kept (of the forest)", row=1, col=1)
    fig.update_yaxes(title_text="fraction of test points", row=1, col=2)
    fig.update_layout(height=440, title=f"PINE on {result.dataset}: trees kept and test agreement against alpha")
    return fig


def _weights(result: Result) -> go.Figure:
    fig = go.Figure()
    for vector in result.weights:
        fig.add_trace(go.Bar(x=list(range(len(vector.weights))), y=vector.weights, name=vector.method))
    fig.update_layout(barmode="group", height=380, title="Pruned weights (each vector normalised to sum 1; 0 = pruned)",
                      xaxis_title="tree index", yaxis_title="relative weight")
    return fig


def _oracle(result: Result) -> go.Figure:
    fig = go.Figure()
    runs = [(f"PINE alpha = {p.alpha:g}", p) for p in result.curve] + [("whole space", result.whole_space)]
    for name, summary in runs:
        fig.add_trace(go.Scatter(x=list(range(1, len(summary.trees_per_round) + 1)), y=summary.trees_per_round,
                                 mode="lines+markers", name=name))
    fig.update_layout(height=380, title="Oracle rounds: trees kept after each solve",
                      xaxis_title="round (solve, then search the region)", yaxis_title="trees kept")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"alpha_curve": _alpha_curve(result), "weights": _weights(result), "oracle": _oracle(result)}
