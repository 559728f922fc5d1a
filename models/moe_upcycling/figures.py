"""Figures of a selective-upcycling run: CKA drift per layer, accuracy matrices, the trade-off and the search."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.moe_upcycling.result import LABELS, Result

__all__ = ["figures"]

SHORT = {"naive": "naive", "replay": "replay", "full_upcycling": "full upcycling", "selective": "selective"}


def _drift(result: Result) -> go.Figure:
    fig = go.Figure()
    for name, drift in result.cka_drift_by_method.items():
        layers = list(drift)
        fig.add_bar(x=[f"block {k.split('_')[1]}" for k in layers], y=[drift[k] for k in layers], name=LABELS[name])
    fig.update_layout(
        title="Representation drift per block: 1 - CKA(before, after a new task) on old-task inputs",
        xaxis_title="residual block (input side → output side)",
        yaxis_title="1 - linear CKA (0 = unchanged)",
        barmode="group",
    )
    return fig


def _matrices(result: Result) -> go.Figure:
    names = list(result.accuracy_matrix)
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=[SHORT[n] for n in names], horizontal_spacing=0.04)
    ticks = [str(i + 1) for i in range(len(result.tasks))]
    for k, name in enumerate(names):
        fig.add_heatmap(
            z=[[100 * v for v in row] for row in result.accuracy_matrix[name]],
            x=ticks,
            y=ticks,
            zmin=0,
            zmax=100,
            colorscale="Viridis",
            showscale=k == len(names) - 1,
            colorbar={"title": "accuracy (%)"},
            texttemplate="%{z:.0f}",
            row=1,
            col=k + 1,
        )
        fig.update_xaxes(title_text="evaluated task j", row=1, col=k + 1)
    fig.update_yaxes(title_text="after training task i", autorange="reversed")
    fig.update_layout(title="Accuracy matrix R[i, j] (%)")
    return fig


def _trade_off(result: Result) -> go.Figure:
    fig = go.Figure()
    for name, m in result.methods.items():
        fig.add_scatter(
            x=[m.added_parameters / 1000],
            y=[100 * m.average_accuracy],
            mode="markers",
            hovertext=[f"forgetting {100 * m.forgetting:.1f} points"],
            marker={"size": 14},
            name=f"{LABELS[name]} (forgetting {100 * m.forgetting:.1f} pts)",
        )
    fig.update_layout(
        title="Average accuracy against added parameters",
        xaxis_title="parameters added by upcycling (thousands)",
        yaxis_title="average accuracy after the last task (%)",
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def _search(result: Result) -> go.Figure:
    s = result.search
    fig = make_subplots(rows=1, cols=2, subplot_titles=["expected kept copies during the search", "final keep probability"])
    fig.add_scatter(y=s.expected_kept_trace, mode="lines", name="sum of keep probabilities", row=1, col=1)
    fig.add_hline(y=s.candidate_blocks / 2, line_dash="dot", row=1, col=1)
    fig.add_heatmap(
        z=s.keep_probability,
        x=[f"copy {e + 1}" for e in range(len(s.keep_probability[0]) if s.keep_probability else 0)],
        y=[f"block {layer + 1}" for layer in range(len(s.keep_probability))],
        zmin=0,
        zmax=1,
        colorscale="RdBu",
        texttemplate="%{z:.2f}",
        colorbar={"title": "P(keep)"},
        row=1,
        col=2,
    )
    fig.update_xaxes(title_text="outer step", row=1, col=1)
    fig.update_yaxes(title_text="expected kept copies (of all candidates)", row=1, col=1)
    fig.update_xaxes(title_text="candidate expert copy", row=1, col=2)
    fig.update_yaxes(title_text="residual block", row=1, col=2)
    fig.update_layout(title="Outer loop: Gumbel-Softmax mask over (layer, expert) blocks", showlegend=False)
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {
        "cka_drift": _drift(result),
        "accuracy_matrix": _matrices(result),
        "trade_off": _trade_off(result),
        "search": _search(result),
    }
