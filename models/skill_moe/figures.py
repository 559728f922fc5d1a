"""Figures of a Skill-MoE run: accuracy per strategy, accuracy by tagger outcome, cost per strategy, expert profiles."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .result import Result, label

__all__ = ["figures"]


def _strategies(result: Result) -> go.Figure:
    names = [label(s, result.k) for s in result.strategies]
    values = [100 * result.accuracy[s] for s in result.strategies]
    fig = go.Figure(go.Bar(x=names, y=values, text=[f"{v:.1f}" for v in values], textposition="outside",
                           name="mean over seeds"))
    for row in result.per_seed:
        fig.add_scatter(x=names, y=[100 * row.accuracy[s] for s in result.strategies], mode="markers",
                        marker={"color": "black", "size": 6}, name=f"seed {row.seed}", showlegend=False)
    fig.update_layout(title=f"Test accuracy per strategy (k = {result.k}, {result.queries} queries, "
                            f"{len(result.per_seed)} seed{'s' if len(result.per_seed) > 1 else ''})",
                      yaxis_title="accuracy (%)", xaxis_title="strategy", yaxis_range=[0, 108])
    return fig


def _by_tagger(result: Result) -> go.Figure:
    fig = go.Figure()
    groups = [f"{g.group} ({g.queries} queries)" for g in result.by_tagger]
    for s in ("instance_routing", "oracle_routing", "trained_router"):
        values = [100 * g.accuracy[s] for g in result.by_tagger]
        fig.add_bar(x=groups, y=values, name=label(s, result.k), text=[f"{v:.1f}" for v in values],
                    textposition="outside")
    fig.update_layout(title="Where the learned tagger errs, Skill-MoE's routing follows (all seeds pooled)",
                      xaxis_title="test queries, by whether the tagger names their skills exactly",
                      yaxis_title="test accuracy (%)", barmode="group", yaxis_range=[0, 108],
                      legend={"orientation": "h", "y": -0.25})
    return fig


def _cost(result: Result) -> go.Figure:
    names = [label(c.strategy, result.k) for c in result.cost] + ["Skill-MoE, naive per-query loop"]
    loads = [c.loads for c in result.cost] + [result.naive.loads]
    seconds = [c.seconds for c in result.cost] + [result.naive.seconds]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("expert loads from disk", "measured time"))
    fig.add_bar(x=names, y=loads, row=1, col=1, name="loads", text=loads, textposition="outside")
    fig.add_bar(x=names, y=seconds, row=1, col=2, name="seconds", text=[f"{s:.2f}" for s in seconds],
                textposition="outside")
    fig.update_yaxes(title_text="loads (count)", row=1, col=1)
    fig.update_yaxes(title_text="time (s)", row=1, col=2)
    fig.update_xaxes(title_text="strategy", tickangle=-35, row=1, col=1)
    fig.update_xaxes(title_text="strategy", tickangle=-35, row=1, col=2)
    fig.update_layout(title="Cost of answering each strategy's queries (first seed, one expert resident)",
                      showlegend=False, height=520)
    return fig


def _profiles(result: Result) -> go.Figure:
    fig = go.Figure(go.Heatmap(
        z=[[100 * a for a in p.accuracy] for p in result.experts], x=result.skills,
        y=[p.expert for p in result.experts], colorscale="Viridis", zmin=0, zmax=100,
        colorbar={"title": "accuracy (%)"}, hovertemplate="%{y}, %{x}: %{z:.0f}%<extra></extra>"))
    fig.update_layout(title="Validation skill profiles of the 16 experts (first seed)", xaxis_title="skill",
                      yaxis_title="expert", yaxis_autorange="reversed")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"strategies": _strategies(result), "by_tagger": _by_tagger(result), "cost": _cost(result),
            "profiles": _profiles(result)}
