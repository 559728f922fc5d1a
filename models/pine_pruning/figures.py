"""Plotly figures of PINE pruning: trees kept and agreement against alpha, the oracle's rounds, the weights."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.pine_pruning.result import Result

__all__ = ["figures"]


def _alpha_curve(result: Result) -> go.Figure:
    fig = make_subplots(rows=1, cols=2, subplot_titles=("Trees kept", "Test agreement with the full ensemble"),
                        horizontal_spacing=0.16)
    for run in result.per_seed:
        curve = sorted(run.curve, key=lambda p: p.alpha)
        alphas = [p.alpha for p in curve]
        fig.add_trace(go.Scatter(x=alphas, y=[p.trees_kept for p in curve], mode="lines+markers",
                                 name=f"PINE, seed {run.seed}"), 1, 1)
        fig.add_trace(go.Scatter(x=alphas, y=[run.whole_space.trees_kept] * len(alphas), mode="lines",
                                 name=f"whole space, seed {run.seed}", line={"dash": "dash", "width": 1}), 1, 1)
        fig.add_trace(go.Scatter(x=alphas, y=[p.test_agreement for p in curve], mode="lines+markers",
                                 name=f"PINE agreement, seed {run.seed}"), 1, 2)
    alphas = sorted({p.alpha for r in result.per_seed for p in r.curve})
    fig.add_trace(go.Scatter(x=alphas, y=[result.total_trees] * len(alphas), mode="lines", name="full ensemble",
                             line={"color": "grey", "width": 1}), 1, 1)
    fig.add_trace(go.Scatter(x=alphas, y=[1 - a for a in alphas], mode="lines", name="1 - α (the claim's bar)",
                             line={"dash": "dash", "color": "grey"}), 1, 2)
    fig.update_xaxes(title_text="α (conformal level, no unit)")
    fig.update_yaxes(title_text="trees kept (count)", row=1, col=1)
    fig.update_yaxes(title_text="fraction of test points", row=1, col=2)
    fig.update_layout(height=440, title=f"PINE on {result.dataset} ({result.ensemble.replace('_', ' ')}): "
                      "trees kept and test agreement against α")
    return fig


def _oracle(result: Result) -> go.Figure:
    run = result.per_seed[0]
    fig = go.Figure()
    for name, summary in [*((f"PINE α = {p.alpha:g}", p) for p in run.curve), ("whole space", run.whole_space)]:
        rounds = list(range(1, len(summary.trees_per_round) + 1))
        fig.add_trace(go.Scatter(x=rounds, y=summary.trees_per_round, mode="lines+markers", name=name))
    fig.update_layout(height=380, title=f"Oracle rounds, seed {run.seed}: trees kept by each weight solve",
                      xaxis_title="round (solve, search, MILP when the search finds nothing)",
                      yaxis_title="trees kept (count)")
    return fig


def _weights(result: Result) -> go.Figure:
    fig = go.Figure()
    for vector in result.weights:
        fig.add_trace(go.Bar(x=list(range(len(vector.weights))), y=vector.weights, name=vector.method))
    fig.update_layout(barmode="group", height=380, title=f"Tree weights, seed {result.per_seed[0].seed} (1 = the full "
                      "ensemble's, 0 = pruned)", xaxis_title="tree index", yaxis_title="weight (no unit)")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"alpha_curve": _alpha_curve(result), "oracle": _oracle(result), "weights": _weights(result)}
