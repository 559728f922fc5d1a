"""Plotly figures: worst-group vs average score over the tau sweep, fragility k vs tau, per-group bars, IRS trace."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.common.plots import PALETTE
from models.robust_satisficing.result import LABELS, METHODS, MethodScore, Result

__all__ = ["figures"]


def _scale(result: Result) -> tuple[float, str]:
    return (1.0, "MSE (target units^2)") if result.regression else (100.0, "accuracy (%)")


def _tradeoff(result: Result) -> go.Figure:
    scale, unit = _scale(result)
    fig = go.Figure(go.Scatter(
        x=[p.average * scale for p in result.sweep], y=[p.worst_group * scale for p in result.sweep],
        mode="lines+markers+text", text=[f"{p.tau_factor:g}x" for p in result.sweep], textposition="top center",
        name="IRS, tau = factor x ERM loss", line={"color": PALETTE[1]},
    ))
    for index, key in enumerate(METHODS):
        score: MethodScore = getattr(result.methods, key)
        fig.add_trace(go.Scatter(x=[score.average * scale], y=[score.worst * scale], mode="markers",
                                 marker={"size": 13, "symbol": "diamond" if key == "irs" else "square",
                                         "color": PALETTE[(index + 2) % len(PALETTE)]},
                                 name=f"{LABELS[key]}" + (f" (tau = {result.tau_factor:g}x)" if key == "irs" else "")))
    fig.update_layout(title=f"Worst-group against average test {unit.split(' ')[0]} as tau sweeps ({result.dataset})",
                      xaxis_title=f"average test {unit}", yaxis_title=f"worst-group test {unit}", height=440)
    return fig


def _fragility(result: Result) -> go.Figure:
    fig = go.Figure(go.Scatter(x=[p.tau for p in result.sweep], y=[p.fragility for p in result.sweep],
                               mode="lines+markers", name="IRS: final k", line={"color": PALETTE[1]}))
    fig.add_vline(x=result.erm_train_loss, line_dash="dot", annotation_text="ERM training loss")
    fig.update_layout(title="Fragility k reached against the target tau (k log E exp(loss / k) <= tau)",
                      xaxis_title="target tau (training loss units)", yaxis_title="fragility k (loss units per nat)",
                      yaxis_type="log", height=420)
    return fig


def _groups(result: Result) -> go.Figure:
    scale, unit = _scale(result)
    fig = go.Figure()
    for index, key in enumerate(METHODS):
        score: MethodScore = getattr(result.methods, key)
        fig.add_trace(go.Bar(x=[f"{r.name} (n = {r.size})" for r in score.groups], y=[r.score * scale for r in score.groups],
                             name=LABELS[key], marker_color=PALETTE[(index + 2) % len(PALETTE)]))
    fig.update_layout(barmode="group", title=f"Per-group test {unit.split(' ')[0]} of each method ({result.dataset})",
                      xaxis_title="test group", yaxis_title=f"test {unit}", height=440)
    return fig


def _trace(result: Result) -> go.Figure:
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(go.Scatter(x=result.trace_steps, y=result.trace_irs_loss, name="IRS mean training loss",
                             line={"color": PALETTE[1]}), secondary_y=False)
    fig.add_trace(go.Scatter(x=result.trace_steps, y=result.trace_erm_loss, name="ERM mean training loss",
                             line={"color": PALETTE[2], "dash": "dot"}), secondary_y=False)
    fig.add_trace(go.Scatter(x=result.trace_steps, y=result.trace_fragility, name="IRS fragility k",
                             line={"color": PALETTE[0]}), secondary_y=True)
    fig.add_hline(y=result.tau, line_dash="dash", annotation_text="tau", secondary_y=False)
    fig.update_yaxes(title_text="mean training loss", secondary_y=False)
    fig.update_yaxes(title_text="fragility k (log)", type="log", secondary_y=True)
    fig.update_layout(title=f"IRS training at tau = {result.tau_factor:g} x ERM loss: the loss and the 1-D k update",
                      xaxis_title="step (one forward and one backward pass each)", height=420)
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"tradeoff": _tradeoff(result), "fragility": _fragility(result), "groups": _groups(result),
            "trace": _trace(result)}
