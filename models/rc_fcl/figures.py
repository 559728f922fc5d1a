"""Figures of an RC-FCL run: true and detected drift maps, accuracy per round, final accuracies."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.rc_fcl.result import METHOD_LABELS, Result

__all__ = ["figures"]


def _map(values: list[list[float | None]]) -> list[list[float | None]]:
    """clients x rounds (transposed for the heatmap)."""
    return [list(column) for column in zip(*values, strict=True)]


def _drift_maps(result: Result) -> go.Figure:
    rounds = [r + 1 for r in range(len(result.truth))]
    clients = [f"client {c.client}" for c in result.clients]
    truth = [[None if t is None else float(t) for t in row] for row in result.truth]
    detected = [[None if d is None else float(d) for d in row] for row in result.detected]
    fig = make_subplots(rows=1, cols=3, shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=["true drift", "detected drift (score > threshold)", "drift score"])
    fig.add_heatmap(z=_map(truth), x=rounds, y=clients, zmin=0, zmax=1, colorscale=[[0, "#f0f0f0"], [1, "#d62728"]],
                    showscale=False, row=1, col=1)
    fig.add_heatmap(z=_map(detected), x=rounds, y=clients, zmin=0, zmax=1, colorscale=[[0, "#f0f0f0"], [1, "#1f77b4"]],
                    showscale=False, row=1, col=2)
    fig.add_heatmap(z=_map(result.drift_score), x=rounds, y=clients, zmin=0, zmax=1, colorscale="Viridis",
                    colorbar={"title": "2 acc - 1"}, row=1, col=3)
    for col in (1, 2, 3):
        fig.update_xaxes(title_text="server round", row=1, col=col)
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(title="Client x round: true drift, detection and drift score (blank = not scored)")
    return fig


def _curves(result: Result) -> go.Figure:
    fig = make_subplots(rows=1, cols=2, subplot_titles=["original concept", "new concepts (drifted clients)"])
    colours = {"rc_fcl": "#d62728", "fedavg": "#1f77b4", "fedprox": "#2ca02c"}
    for name, c in result.curves.items():
        rounds = list(range(1, len(c.old_accuracy) + 1))
        fig.add_scatter(x=rounds, y=[100 * v for v in c.old_accuracy], mode="lines+markers", name=METHOD_LABELS[name],
                        line={"color": colours[name]}, legendgroup=name, row=1, col=1)
        fig.add_scatter(x=rounds, y=[None if v is None else 100 * v for v in c.new_accuracy], mode="lines+markers",
                        name=METHOD_LABELS[name], line={"color": colours[name]}, legendgroup=name, showlegend=False,
                        row=1, col=2)
    for col in (1, 2):
        fig.update_xaxes(title_text="server round", row=1, col=col)
        fig.update_yaxes(title_text="global model accuracy (%)", range=[0, 100], row=1, col=col)
    fig.update_layout(title="Accuracy on old and new concepts per round")
    return fig


def _final(result: Result) -> go.Figure:
    fig = go.Figure()
    names = list(result.methods)
    for key, label in (("final_accuracy", "each client's current concept (final accuracy)"),
                       ("old_concept_accuracy", "original concept"), ("new_concept_accuracy", "new concepts")):
        values = [getattr(result.methods[n], key) for n in names]
        fig.add_bar(x=[METHOD_LABELS[n] for n in names], y=[None if v is None else 100 * v for v in values],
                    name=label, texttemplate="%{y:.1f}", textposition="outside")
    fig.update_layout(title="After the last round", xaxis_title="method", yaxis_title="accuracy (%)",
                      yaxis_range=[0, 105], barmode="group")
    return fig


def _weights(result: Result) -> go.Figure:
    share = result.curves["rc_fcl"].aggregation_share
    fig = go.Figure(go.Heatmap(z=_map([[100 * v for v in row] for row in share]),
                               x=list(range(1, len(share) + 1)), y=[f"client {c.client}" for c in result.clients],
                               colorscale="Blues", colorbar={"title": "share (%)"}))
    fig.update_layout(title="RC-FCL aggregation share of each client per round (falls with the drift score)",
                      xaxis_title="server round", yaxis_title="client", yaxis_autorange="reversed")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"drift_maps": _drift_maps(result), "accuracy_per_round": _curves(result), "final": _final(result),
            "aggregation": _weights(result)}
