"""Figures of an RC-FCL run (first seed): drift maps, accuracy per concept and round, the standing, the weights."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.common.plots import add_mean_interval
from models.rc_fcl.result import METHOD_LABELS, Result

__all__ = ["figures"]

COLOURS = {"rc_fcl": "#d62728", "fedavg": "#1f77b4", "fedprox": "#2ca02c", "drift_aware": "#9467bd",
           "fedavg_replay": "#ff7f0e", "fedavg_genreplay": "#8c564b"}


def _map(values: list[list[float | None]]) -> list[list[float | None]]:
    """clients x rounds (transposed for the heatmap)."""
    return [list(column) for column in zip(*values, strict=True)]


def _drift_maps(result: Result) -> go.Figure:
    rounds = [r + 1 for r in range(len(result.truth))]
    clients = [f"client {c.client}" for c in result.clients]
    truth = [[None if t is None else float(t) for t in row] for row in result.truth]
    detected = [[1.0 if cal else (None if d is None else 2.0 * float(d)) for d, cal in zip(row, crow, strict=True)]
                for row, crow in zip(result.detected, result.calibrating, strict=True)]
    fig = make_subplots(rows=1, cols=3, shared_yaxes=True, horizontal_spacing=0.04,
                        subplot_titles=["true drift<br>(2 rounds after each)", "flagged (dark),<br>calibrating (light)",
                                        "drift score"])
    fig.add_heatmap(z=_map(truth), x=rounds, y=clients, zmin=0, zmax=1, colorscale=[[0, "#f0f0f0"], [1, "#d62728"]],
                    showscale=False, row=1, col=1)
    fig.add_heatmap(z=_map(detected), x=rounds, y=clients, zmin=0, zmax=2, showscale=False, row=1, col=2,
                    colorscale=[[0, "#f0f0f0"], [0.5, "#9ecae1"], [1, "#08519c"]])
    fig.add_heatmap(z=_map(result.drift_score), x=rounds, y=clients, zmin=0, zmax=1, colorscale="Viridis",
                    colorbar={"title": "drift score (2 × accuracy − 1)"}, row=1, col=3)
    fig.update_xaxes(title_text="server round")
    fig.update_yaxes(autorange="reversed")
    fig.update_yaxes(title_text="client", row=1, col=1)  # shared: one title, never over a neighbouring map
    fig.update_layout(title="RC-FCL, first seed, client x round: true drift, detection and drift score (blank = not scored)")
    return fig


def _curves(result: Result) -> go.Figure:
    fig = make_subplots(rows=1, cols=len(result.concepts), subplot_titles=[f"concept '{c}'" for c in result.concepts],
                        shared_yaxes=True, horizontal_spacing=0.04)
    ends = result.per_seed[0].experience_ends
    for name, rows in result.concept_accuracy.items():
        rounds = list(range(1, len(rows) + 1))
        for j in range(len(result.concepts)):
            fig.add_scatter(x=rounds, y=[100 * row[j] for row in rows], mode="lines", name=METHOD_LABELS[name],
                            line={"color": COLOURS[name]}, legendgroup=name, showlegend=j == 0, row=1, col=j + 1)
    for end in ends[:-1]:
        fig.add_vline(x=end, line_dash="dot", line_color="#7f7f7f")
    fig.update_xaxes(title_text="server round")
    fig.update_yaxes(range=[0, 100])
    fig.update_yaxes(title_text="global model accuracy (%)", row=1, col=1)
    fig.update_layout(title="Accuracy on each concept per round, first seed (dotted: ends of experiences)",
                      legend={"orientation": "h", "y": -0.25})
    return fig


def _final(result: Result) -> go.Figure:
    """Mean and 95% interval over seeds on full-scale axes: ties read as ties, not as gaps on a zoomed axis."""
    fig = make_subplots(rows=2, cols=1, vertical_spacing=0.2,
                        subplot_titles=["average accuracy after the last round", "forgetting"])
    names = list(METHOD_LABELS)
    labels = [METHOD_LABELS[n] for n in names]
    for r, metric in ((1, "average_accuracy"), (2, "forgetting")):
        per_seed = [[None if (v := getattr(s.methods[n], metric)) is None else 100 * v for n in names]
                    for s in result.per_seed]
        add_mean_interval(fig, labels, per_seed, row=r, col=1, showlegend=r == 1)
    fig.update_yaxes(title_text="method", autorange="reversed")
    fig.update_xaxes(title_text="average accuracy (%)", range=[0, 100], row=1, col=1)
    fig.update_xaxes(title_text="forgetting R[j, j] - R[T, j] (points)", rangemode="tozero", row=2, col=1)
    fig.update_layout(title="After the last round: mean and 95% interval over seeds, and each seed (Avalanche's "
                            "average accuracy and forgetting)", height=620,
                      legend={"orientation": "h", "yanchor": "top", "y": -0.14, "xanchor": "left", "x": 0})
    return fig


def _weights(result: Result) -> go.Figure:
    share = result.aggregation_share["rc_fcl"]
    fig = go.Figure(go.Heatmap(z=_map([[100 * v for v in row] for row in share]),
                               x=list(range(1, len(share) + 1)), y=[f"client {c.client}" for c in result.clients],
                               colorscale="Blues", colorbar={"title": "share (%)"}))
    fig.update_layout(title="RC-FCL aggregation share of each client per round, first seed (lowered while calibrating)",
                      xaxis_title="server round", yaxis_title="client", yaxis_autorange="reversed")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"drift_maps": _drift_maps(result), "accuracy_per_round": _curves(result), "final": _final(result),
            "aggregation": _weights(result)}
