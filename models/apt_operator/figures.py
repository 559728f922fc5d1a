"""Figures of an APT-operator run: errors per model and mesh, the adaptive mesh, predictions, super-resolution."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.apt_operator.result import LABELS, MODELS, Result

__all__ = ["figures"]


def _errors(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in MODELS:
        fig.add_bar(name=LABELS[name], x=[f"{m.mesh} mesh" for m in result.by_mesh],
                    y=[getattr(m, name) for m in result.by_mesh])
    fig.update_layout(title=f"Relative L2 error of the pressure on {result.test_samples} test media",
                      yaxis_title="relative L2 error (lower is better)", xaxis_title="evaluation mesh", barmode="group")
    return fig


def _scatter(result: Result, values: list[float], title: str, scale: str, cmin: float | None = None,
             cmax: float | None = None) -> go.Scatter:
    s = result.sample
    size = [max(4.0, 14.0 * np.sqrt(a) * 16) for a in s.area]
    return go.Scatter(x=s.x, y=s.y, mode="markers", name=title, showlegend=False,
                      marker={"color": values, "colorscale": scale, "size": size, "cmin": cmin, "cmax": cmax,
                              "symbol": "square"})


def _mesh(result: Result) -> go.Figure:
    s = result.sample
    fig = make_subplots(rows=1, cols=2, subplot_titles=("log permeability ln k", "well source q (1/s)"))
    fig.add_trace(_scatter(result, s.log_k, "ln k", "Viridis"), 1, 1)
    fig.add_trace(_scatter(result, s.source, "q", "RdBu"), 1, 2)
    fig.update_layout(title=f"Adaptive mesh of the first test medium ({len(s.x)} points: refined near wells and "
                            "steep pressure gradients)")
    fig.update_xaxes(title_text="x (domain length)")
    fig.update_yaxes(title_text="y (domain length)", scaleanchor="x")
    return fig


def _prediction(result: Result) -> go.Figure:
    s = result.sample
    lo, hi = min(s.pressure), max(s.pressure)
    fig = make_subplots(rows=1, cols=4, subplot_titles=("FV pressure p", "APT fused", "local only", "global only"))
    for col, values in enumerate((s.pressure, s.fused, s.local_only, s.global_only), start=1):
        fig.add_trace(_scatter(result, values, "p", "Cividis", lo, hi), 1, col)
    fig.update_layout(title="Pressure on the adaptive mesh of the first test medium (shared colour scale, "
                            "pressure in units of q / k)")
    fig.update_xaxes(title_text="x")
    fig.update_yaxes(title_text="y")
    return fig


def _super(result: Result) -> go.Figure:
    s = result.sample
    truth = np.array(s.high_truth).reshape(64, 64).T
    pred = np.array(s.high_fused).reshape(64, 64).T
    axis = ((np.arange(64) + 0.5) / 64).tolist()
    fig = make_subplots(rows=1, cols=3, subplot_titles=("FV pressure on 64 x 64", "fused model decoded at 64 x 64",
                                                        "error"))
    lo, hi = float(truth.min()), float(truth.max())
    fig.add_trace(go.Heatmap(z=truth, x=axis, y=axis, zmin=lo, zmax=hi, colorscale="Cividis", showscale=False), 1, 1)
    fig.add_trace(go.Heatmap(z=pred, x=axis, y=axis, zmin=lo, zmax=hi, colorscale="Cividis", showscale=False), 1, 2)
    fig.add_trace(go.Heatmap(z=pred - truth, x=axis, y=axis, colorscale="RdBu", zmid=0.0,
                             colorbar={"title": "p error"}), 1, 3)
    r = result.super_resolution
    fig.update_layout(title=f"Super-resolution: trained at 32 x 32, decoded at 64 x 64 (rel. L2 "
                            f"{r.higher_resolution:.4f} vs {r.same_resolution:.4f} at 32 x 32, ratio {r.ratio:.2f})")
    fig.update_xaxes(title_text="x")
    fig.update_yaxes(title_text="y")
    return fig


def _training(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in MODELS:
        curve = getattr(result.losses, name)
        fig.add_scatter(x=list(range(1, len(curve) + 1)), y=curve, name=LABELS[name], mode="lines+markers")
    fig.update_layout(title=f"Training loss ({result.train_samples} media x {result.epochs} epochs)",
                      xaxis_title="epoch", yaxis_title="mean relative L2 (training)", yaxis_type="log")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"errors": _errors(result), "mesh": _mesh(result), "prediction": _prediction(result),
            "super_resolution": _super(result), "training": _training(result)}
