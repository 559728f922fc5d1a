"""Plotly figures: worst-group vs average score per method, degradation under shift, per-group bars, IRS trace."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.common.plots import PALETTE
from models.robust_satisficing.result import LABELS, METHODS, MethodScore, Result

__all__ = ["figures"]


def _scale(result: Result) -> tuple[float, str]:
    return (1.0, "MSE (target units^2)") if result.regression else (100.0, "accuracy (%)")


def _sd(values: np.ndarray) -> float:
    return float(np.std(values, ddof=1)) if len(values) > 1 else 0.0


def _tradeoff(result: Result) -> go.Figure:
    """Each method's mean over seeds (error bars: sd), and the first seed's tau sweep of IRS."""
    scale, unit = _scale(result)
    fig = go.Figure()
    if result.sweep:
        fig.add_trace(go.Scatter(
            x=[p.average * scale for p in result.sweep], y=[p.worst_group * scale for p in result.sweep],
            mode="lines+markers+text", text=[f"{p.tau_multiplier:g}x" for p in result.sweep], textposition="top center",
            name="IRS, tau sweep (first seed)", line={"color": PALETTE[1]}))
    for index, key in enumerate(METHODS):
        x = np.array(result.over_seeds(key, "average")) * scale
        y = np.array(result.over_seeds(key, "worst")) * scale
        fig.add_trace(go.Scatter(x=[x.mean()], y=[y.mean()], mode="markers", name=LABELS[key],
                                 error_x={"type": "data", "array": [_sd(x)]}, error_y={"type": "data", "array": [_sd(y)]},
                                 marker={"size": 13, "symbol": "diamond" if key == "irs" else "square",
                                         "color": PALETTE[(index + 2) % len(PALETTE)]}))
    fig.update_layout(title=f"Worst-group against average test {unit.split(' ')[0]} ({len(result.seeds_run)} seed(s))",
                      xaxis_title=f"average test {unit}", yaxis_title=f"worst-group test {unit}", height=440)
    return fig


def _degradation(result: Result) -> go.Figure:
    scale, unit = _scale(result)
    fig = go.Figure()
    for name, field in (("in distribution (training group shares)", "in_distribution"),
                        (f"shifted ({result.shift_name})", "shifted")):
        means = [float(np.mean(result.over_seeds(k, field))) * scale for k in METHODS]
        fig.add_trace(go.Bar(x=[LABELS[k] for k in METHODS], y=means, name=name))
    fig.update_layout(barmode="group", title=f"Test {unit.split(' ')[0]} before and after the shift (mean over seeds)",
                      xaxis_title="method", yaxis_title=f"test {unit}", height=420)
    return fig


def _groups(result: Result) -> go.Figure:
    scale, unit = _scale(result)
    fig = go.Figure()
    for index, key in enumerate(METHODS):
        score: MethodScore = getattr(result.methods, key)
        fig.add_trace(go.Bar(x=[f"{r.name} (n = {r.size})" for r in score.groups], y=[r.score * scale for r in score.groups],
                             name=LABELS[key], marker_color=PALETTE[(index + 2) % len(PALETTE)]))
    fig.update_layout(barmode="group", title=f"Per-group test {unit.split(' ')[0]} of each method (first seed)",
                      xaxis_title="test group", yaxis_title=f"test {unit}", height=440)
    return fig


def _trace(result: Result) -> go.Figure:
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(go.Scatter(x=result.trace_steps, y=result.trace_irs_loss, name="IRS mean training loss",
                             line={"color": PALETTE[1]}), secondary_y=False)
    fig.add_trace(go.Scatter(x=result.trace_steps, y=result.trace_erm_loss, name="ERM mean training loss",
                             line={"color": PALETTE[2], "dash": "dot"}), secondary_y=False)
    fig.add_trace(go.Scatter(x=result.trace_steps, y=result.trace_tau, name="IRS active target tau",
                             line={"color": PALETTE[3], "dash": "dash"}), secondary_y=False)
    fig.add_trace(go.Scatter(x=result.trace_steps, y=result.trace_kl, name="IRS tilt KL(p* || p0)",
                             line={"color": PALETTE[0]}), secondary_y=True)
    fig.update_yaxes(title_text="loss (nats)", secondary_y=False)
    fig.update_yaxes(title_text="tilt KL(p* || prior) (nats, log)", type="log", secondary_y=True)
    fig.update_layout(title=f"IRS training after its {result.warmup_steps}-step warm-up (first seed): loss, target, tilt",
                      xaxis_title="step (one forward and one backward pass each)", height=420)
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"tradeoff": _tradeoff(result), "degradation": _degradation(result), "groups": _groups(result),
            "trace": _trace(result)}
