"""Figures of an APT-operator run: errors per model, field and mesh, the adaptive mesh, predictions, super-resolution."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.apt_operator.result import LABELS, LEARNED, MODELS, Result

__all__ = ["figures"]


def _errors(result: Result) -> go.Figure:
    fig = go.Figure()
    rows = [m for m in result.by_mesh]
    x = [[m.mesh + " mesh" for m in rows], [m.field for m in rows]]
    for name in MODELS:
        fig.add_bar(name=LABELS[name], x=x, y=[getattr(m, name) for m in rows])
    fig.update_layout(title=f"Relative L2 error on {result.test_samples} test media (seed {result.seeds[0]}); the "
                            "claims judge the mean of the two fields", yaxis_title="relative L2 error (unitless, "
                            "lower is better)", xaxis_title="evaluation mesh and field", barmode="group")
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
    fig = make_subplots(rows=1, cols=2, subplot_titles=("ln k (channels +2.3, background -2.3)",
                                                        "well source q (1/s)"), horizontal_spacing=0.12,
                        shared_yaxes=True)  # one y title, on the first panel
    fig.add_trace(_scatter(result, s.log_k, "ln k", "Viridis"), 1, 1)
    fig.add_trace(_scatter(result, s.source, "q", "RdBu"), 1, 2)
    fig.update_layout(title=f"The {s.mesh} mesh of the first test medium ({len(s.x)} points)")
    fig.update_xaxes(title_text="x (domain length)")
    fig.update_yaxes(scaleanchor="x")
    fig.update_yaxes(title_text="y (domain length)", col=1)
    return fig


def _prediction(result: Result) -> go.Figure:
    s = result.sample
    top = (("FV pressure p", s.pressure), ("APT fused", s.fused), ("local only", s.local_only), ("GINO", s.gino),
           ("FNO", s.fno))
    bottom = (("FV saturation s", s.saturation), ("APT fused", s.saturation_fused), ("null (uniform k)",
              s.saturation_null), ("GINO", s.saturation_gino), ("FNO", s.saturation_fno))
    fig = make_subplots(rows=2, cols=5, subplot_titles=[t for t, _ in (*top, *bottom)], vertical_spacing=0.12,
                        shared_xaxes=True, shared_yaxes=True)  # titles on the outer panels only
    lo, hi = min(s.pressure), max(s.pressure)
    for col, (_, values) in enumerate(top, start=1):
        fig.add_trace(_scatter(result, values, "p", "Cividis", lo, hi), 1, col)
    for col, (_, values) in enumerate(bottom, start=1):
        fig.add_trace(_scatter(result, values, "s", "Blues", 0.0, 1.0), 2, col)
    fig.update_layout(title=f"Pressure (top, units of q / k) and injected-fluid saturation (bottom, 0-1) on the "
                            f"{s.mesh} mesh of the first test medium (shared colour scales)", height=620)
    fig.update_xaxes(title_text="x (domain length)", row=2)
    fig.update_yaxes(title_text="y (domain length)", col=1)
    return fig


def _super(result: Result) -> go.Figure:
    s = result.sample
    truth = np.array(s.high_truth).reshape(64, 64).T
    pred = np.array(s.high_fused).reshape(64, 64).T
    axis = ((np.arange(64) + 0.5) / 64).tolist()
    fig = make_subplots(rows=1, cols=3, subplot_titles=("FV, 64 x 64", "fused, 64 x 64 input", "error"),
                        shared_yaxes=True)
    lo, hi = float(truth.min()), float(truth.max())
    fig.add_trace(go.Heatmap(z=truth, x=axis, y=axis, zmin=lo, zmax=hi, colorscale="Cividis", showscale=False), 1, 1)
    fig.add_trace(go.Heatmap(z=pred, x=axis, y=axis, zmin=lo, zmax=hi, colorscale="Cividis", showscale=False), 1, 2)
    fig.add_trace(go.Heatmap(z=pred - truth, x=axis, y=axis, colorscale="RdBu", zmid=0.0,
                             colorbar={"title": "p error"}), 1, 3)
    r = result.per_seed[0].super_resolution
    fig.update_layout(title=f"Super-resolution: trained at 32 x 32, fed the 64 x 64 input (rel. L2 "
                            f"{r.higher_resolution:.3f} vs {r.same_resolution:.3f} at 32 x 32; FNO "
                            f"{r.fno_higher:.3f} vs {r.fno_same:.3f})")
    fig.update_xaxes(title_text="x (domain length)")
    fig.update_yaxes(title_text="y (domain length)", col=1)
    return fig


def _training(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in (*LEARNED, "fused_regular"):  # the FNO and the grid-only model train on grids only
        curve = getattr(result.losses, name)
        fig.add_scatter(x=list(range(1, len(curve) + 1)), y=curve, name=LABELS[name], mode="lines+markers")
    fig.update_layout(title=f"Training loss ({result.train_samples} media, {result.steps} steps per model; the one-cycle "
                            "learning rate falls to 0 at the end, so the curves flatten by schedule)",
                      xaxis_title="epoch (one pass over both meshes' batches)",
                      yaxis_title="mean relative L2 (training, unitless)", yaxis_type="log")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"errors": _errors(result), "mesh": _mesh(result), "prediction": _prediction(result),
            "super_resolution": _super(result), "training": _training(result)}
