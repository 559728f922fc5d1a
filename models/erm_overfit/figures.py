"""Plotly figures of the best-case-ERM illustration: ERM losses, GD gap vs the bounds, the code's inner products."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from models.common.plots import PALETTE, Series, theory_vs_simulation
from models.erm_overfit.result import Result

__all__ = ["figures"]


def _erm(result: Result) -> go.Figure:
    fig = go.Figure()
    names = ["x = 0 (population minimiser)", "x = u (in no sample: the bad ERM)"]
    lam = result.strong_convexity
    train = [0.5, result.erm_train_loss]
    population = [0.5, result.erm_population_loss - lam / 2 if result.erm_population_loss is not None else None]
    fig.add_trace(go.Bar(x=names, y=train, name="training loss (Feldman part)", marker_color="#1f77b4"))
    fig.add_trace(go.Bar(x=names, y=population, name="population loss (exact, Feldman part)", marker_color="#d62728"))
    fig.add_hline(y=0.75, line_dash="dot", annotation_text="3/4 = 1/2 + 1/4")
    fig.update_layout(
        barmode="group", height=420, yaxis_title="loss", yaxis_range=[0, 1],
        title=f"The overfitting ERM (illustration of the construction at small dimension: d = {result.dimension}, "
        f"m = {result.samples})",
    )
    return fig


def _gd(result: Result) -> go.Figure:
    eta_t = sorted({p.eta * p.horizon for p in result.gd})
    grid = np.geomspace(min(eta_t), max(eta_t), 60)
    m = result.samples
    series = [
        Series(f"eta = {eta:g}", x=[p.eta * p.horizon for p in result.gd if p.eta == eta],
               simulation=[p.gap for p in result.gd if p.eta == eta], colour=PALETTE[k % len(PALETTE)],
               simulation_label="projected GD")
        for k, eta in enumerate(sorted({p.eta for p in result.gd}))
    ]
    series.append(Series("lower bound rate", x=grid.tolist(), theory=np.sqrt(grid / m**1.5).tolist(), colour="#555555",
                         theory_label="sqrt(eta T / m^1.5)", dash="dash"))
    series.append(Series("upper bound rate", x=grid.tolist(), theory=(grid / m).tolist(), colour="#000000",
                         theory_label="eta T / m", dash="dot"))
    fig = theory_vs_simulation(
        series, title="Generalisation gap of projected GD against eta T (bounds drawn with constant 1)",
        x_title="eta T (learning rate x steps)", y_title="population loss - training loss", log_x=True, log_y=True,
    )
    fig.add_vline(x=float(np.sqrt(m)), line_dash="dot", line_color="grey", annotation_text="eta T = sqrt(m)")
    return fig


def _code(result: Result) -> go.Figure:
    fig = go.Figure(go.Bar(x=result.inner_product_values, y=result.inner_product_counts, marker_color="#2ca02c",
                           width=0.6 / result.dimension * 2))
    fig.add_vline(x=result.coherence, line_dash="dash", annotation_text=f"coherence {result.coherence:.3f}")
    fig.add_vline(x=-result.coherence, line_dash="dash")
    fig.update_layout(
        title=f"Inner products of the bad ERM u with the other {result.code_size - 1:,} code vectors (Gold code)",
        xaxis_title="<u, w>", yaxis_title="number of code vectors", yaxis_type="log", height=380,
    )
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    out = {"gd_gap": _gd(result), "code_inner_products": _code(result)}
    if result.erm_train_loss is not None:
        out = {"erm_losses": _erm(result), **out}
    return out
