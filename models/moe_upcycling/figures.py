"""Figures of a selective-upcycling run: CKA drift per layer, accuracy matrices, the trade-off and the search."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.moe_upcycling.result import LABELS, Result

__all__ = ["figures"]

SHORT = {"naive": "naive", "replay": "replay", "lwf": "LwF", "full_upcycling": "full upcycling",
         "selective": "selective"}


def _drift(result: Result) -> go.Figure:
    fig = go.Figure()
    for name, drift in result.cka_drift_by_method.items():
        layers = list(drift)
        fig.add_bar(x=[f"block {k.split('_')[1]}" for k in layers], y=[drift[k] for k in layers], name=LABELS[name])
    fig.update_layout(
        title="Representation drift per block (first seed): 1 - CKA(before, after a new task) on old-task inputs",
        xaxis_title="residual block (input side → output side)",
        yaxis_title="1 - linear CKA (0 = unchanged)",
        barmode="group",
    )
    return fig


def _matrices(result: Result) -> go.Figure:
    names = list(result.accuracy_matrix)
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=[SHORT[n] for n in names], horizontal_spacing=0.04,
                        shared_yaxes=True)  # one y title, on the first panel, never over a neighbour
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
    fig.update_yaxes(autorange="reversed")
    fig.update_yaxes(title_text="after training task i", row=1, col=1)
    fig.update_layout(title="Accuracy matrix R[i, j] (%), first seed")
    return fig


def _trade_off(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in result.methods:
        points = [s.methods[name] for s in result.per_seed]
        forgetting = 100 * result.mean(name, "forgetting")
        fig.add_scatter(
            x=[m.added_parameters / 1000 for m in points],
            y=[100 * m.average_accuracy for m in points],
            mode="markers",
            hovertext=[f"seed {s.seed}: forgetting {100 * m.forgetting:.1f} points"
                       for s, m in zip(result.per_seed, points, strict=True)],
            marker={"size": 12},
            name=f"{LABELS[name]} (forgetting {forgetting:.1f} pts)",
        )
    n = len(result.per_seed)
    fig.update_layout(
        title=f"Average accuracy against added parameters (one point per seed, {n} seed{'s' * (n > 1)})",
        xaxis_title="parameters added by upcycling (thousands)",
        yaxis_title="average accuracy after the last task (%)",
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def _search(result: Result) -> go.Figure:
    s = result.search
    titles = ["CKA probe:<br>drift per block", "expected kept copies<br>during the search", "final keep<br>probability"]
    fig = make_subplots(rows=1, cols=3, subplot_titles=titles, horizontal_spacing=0.17)  # room for each y title
    blocks = [f"block {layer + 1}" for layer in range(len(s.probe_drift))]
    colours = ["#d62728" if layer + 1 in s.candidate_layers else "#7f7f7f" for layer in range(len(s.probe_drift))]
    fig.add_bar(x=blocks, y=s.probe_drift, marker_color=colours, name="1 - CKA (red: CKA-favoured, mask starts at 0.6)", row=1, col=1)
    fig.add_scatter(y=s.expected_kept_trace, mode="lines", name="sum of keep probabilities", row=1, col=2)
    fig.add_heatmap(
        z=s.keep_probability,
        x=[f"copy {e + 1}" for e in range(len(s.keep_probability[0]) if s.keep_probability else 0)],
        y=blocks, zmin=0, zmax=1, colorscale="RdBu", texttemplate="%{z:.2f}", colorbar={"title": "P(keep)"},
        row=1, col=3,
    )
    fig.update_xaxes(title_text="residual block", row=1, col=1)
    fig.update_yaxes(title_text="1 - linear CKA after one pass", row=1, col=1)
    fig.update_xaxes(title_text="inner step (outer steps between)", row=1, col=2)
    fig.update_yaxes(title_text="expected kept copies", row=1, col=2)
    fig.update_xaxes(title_text="expert copy", row=1, col=3)
    fig.update_yaxes(title_text="residual block", row=1, col=3)
    fig.update_layout(title="CKA probe sets the start, the annealed Gumbel-Softmax mask decides (first seed)",
                      showlegend=False)
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {
        "cka_drift": _drift(result),
        "accuracy_matrix": _matrices(result),
        "trade_off": _trade_off(result),
        "search": _search(result),
    }
