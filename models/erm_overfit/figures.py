"""Plotly figures: population excess per training set (unique ERM, SGD, Feldman's unseen codeword), and rates."""

from __future__ import annotations

import plotly.graph_objects as go

from models.erm_overfit.result import Result

__all__ = ["figures"]


def _excess(result: Result) -> go.Figure:
    fig = go.Figure()
    rows = [(s.seed, r) for s, seed_rows in zip(result.summaries, result.instances, strict=True) for r in seed_rows]
    index = list(range(1, len(rows) + 1))
    fig.add_trace(go.Scatter(x=index, y=[r.erm_excess for _, r in rows], mode="markers", marker_color="#d62728",
                             name="unique ERM (our derived noise term)"))
    fig.add_trace(go.Scatter(x=index, y=[r.sgd_excess for _, r in rows], mode="markers", marker_color="#2ca02c",
                             name="one-pass SGD (same training set)"))
    fig.add_trace(go.Scatter(x=index, y=[r.feldman_excess for _, r in rows], mode="markers",
                             marker={"color": "#7f7f7f", "symbol": "x"}, name="an unseen codeword (Feldman 2016)"))
    fig.add_hline(y=result.guarantee, line_dash="dot", annotation_text="gamma: the theorem's guaranteed excess")
    fig.update_layout(height=440, xaxis_title="training set (seeds in order)",
                      yaxis_title="population excess F(x) - F(0) (loss units)",
                      title=f"Population excess of three learners on every training set (d = {result.dimension}, "
                      f"m = {result.samples})", legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0})
    return fig


def _rates(result: Result) -> go.Figure:
    seeds = [f"seed {s.seed}" for s in result.summaries]
    fig = go.Figure()
    fig.add_trace(go.Bar(x=seeds, y=[s.overfit_rate for s in result.summaries], name="unique ERM overfits",
                         marker_color="#d62728"))
    fig.add_trace(go.Bar(x=seeds, y=[s.approx_rate for s in result.summaries], name="every epsilon-ERM overfits "
                         "(certified)", marker_color="#ff9896"))
    fig.add_trace(go.Scatter(x=seeds, y=[s.overfit_lower for s in result.summaries], mode="markers",
                             marker={"symbol": "line-ew-open", "size": 28, "color": "black"},
                             name="Clopper-Pearson 95% lower bound (unique ERM)"))
    fig.add_hline(y=0.5, line_dash="dash", annotation_text="the paper's probability 1/2")
    fig.update_layout(barmode="group", height=400, yaxis_range=[0, 1], xaxis_title="seed",
                      yaxis_title="fraction of training sets", title="How often the ERM overfits, per seed",
                      legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0})
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"excess": _excess(result), "rates": _rates(result)}
