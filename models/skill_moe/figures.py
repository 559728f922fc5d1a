"""Figures of a Skill-MoE run: accuracy per strategy, per skill, the experts' skill profiles, loads and time."""

from __future__ import annotations

import plotly.graph_objects as go

from .result import STRATEGIES, Result

__all__ = ["figures"]

LABELS = {
    "instance_routing": "Skill-MoE (instance routing)",
    "task_top_k": "task-level top-k",
    "random_k": "random k",
    "best_single": "best single expert",
    "majority_vote": "majority vote of all 16",
}


def _strategies(result: Result) -> go.Figure:
    values = [100 * getattr(result.accuracy, s) for s in STRATEGIES]
    fig = go.Figure(go.Bar(x=[LABELS[s] for s in STRATEGIES], y=values, text=[f"{v:.1f}" for v in values],
                           textposition="outside"))
    fig.update_layout(title=f"Test accuracy per strategy (k = {result.k}, {result.queries} queries)",
                      yaxis_title="accuracy (%)", xaxis_title="strategy", yaxis_range=[0, 105])
    return fig


def _per_skill(result: Result) -> go.Figure:
    fig = go.Figure()
    for s in ("instance_routing", "task_top_k", "best_single"):
        fig.add_bar(name=LABELS[s], x=[r.group for r in result.per_skill],
                    y=[100 * getattr(r, s) for r in result.per_skill])
    fig.update_layout(title="Accuracy per skill", barmode="group", yaxis_title="accuracy (%)",
                      xaxis_title="skill", legend={"orientation": "h", "y": -0.25})
    return fig


def _profiles(result: Result) -> go.Figure:
    fig = go.Figure(go.Heatmap(
        z=[[100 * a for a in p.accuracy] for p in result.experts], x=result.skills,
        y=[p.expert for p in result.experts], colorscale="Viridis", zmin=0, zmax=100,
        colorbar={"title": "accuracy (%)"},
        hovertemplate="%{y}, %{x}: %{z:.0f}%<extra></extra>"))
    fig.update_layout(title="Validation skill profiles of the 16 experts", xaxis_title="skill",
                      yaxis_title="expert", yaxis_autorange="reversed")
    return fig


def _cost(result: Result) -> go.Figure:
    fig = go.Figure()
    fig.add_bar(name="expert loads from disk", x=["batched by expert", "naive per-query loop"],
                y=[result.loads.batched, result.loads.naive], yaxis="y")
    fig.add_bar(name="wall time (s)", x=["batched by expert", "naive per-query loop"],
                y=[result.wall_time_s.batched, result.wall_time_s.naive], yaxis="y2")
    fig.update_layout(title="Cost of answering the routed queries", barmode="group",
                      yaxis={"title": "loads (count, log scale)", "type": "log"},
                      yaxis2={"title": "wall time (s, log scale)", "type": "log", "overlaying": "y", "side": "right"},
                      legend={"orientation": "h", "y": -0.2})
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"strategies": _strategies(result), "per_skill": _per_skill(result),
            "profiles": _profiles(result), "cost": _cost(result)}
