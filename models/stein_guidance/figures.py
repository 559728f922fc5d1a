"""Figures: hit ratio against strength (the tuning grids), the hit/manifold trade-off, samples, trajectories."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.stein_guidance.result import Result

__all__ = ["figures"]

_SHORT = {"dps": "DPS", "lgd": "LGD-MC", "mpgd": "MPGD", "ugd": "UGD", "sdg": "SDG", "sdg_no_stein": "no Stein",
          "sdg_alpha0": "alpha = 0", "sdg_langevin": "Langevin"}
_COLORS = {"dps": "#636efa", "lgd": "#19d3f3", "mpgd": "#ab63fa", "ugd": "#ffa15a", "sdg": "#ef553b",
           "sdg_no_stein": "#00cc96", "sdg_alpha0": "#b6e880", "sdg_langevin": "#ff97ff"}


def _hit_ratio(result: Result) -> go.Figure:
    fig = go.Figure()
    for name, points in result.curves.items():
        fig.add_trace(go.Scatter(x=[p.scale for p in points], y=[p.success_rate for p in points],
                                 mode="lines+markers", name=result.labels[name], line={"color": _COLORS[name]}))
    first = result.per_seed[0]
    fig.add_hline(y=first.exact_success, line_dash="dash",
                  annotation_text="exact target law p^(1-alpha) exp(beta r) at SDG's beta")
    fig.update_layout(title="Tuning: hit ratio at each strength (half the particles, other noise; first seed)",
                      xaxis={"title": "guidance strength lambda or beta (unitless)", "type": "log"},
                      yaxis={"title": "hit ratio (hit and on the manifold, fraction)", "rangemode": "tozero"})
    return fig


def _tradeoff(result: Result) -> go.Figure:
    fig = go.Figure()
    exact = result.exact_posterior_curve
    fig.add_trace(go.Scatter(x=[p.hit_rate for p in exact], y=[p.on_manifold_fraction for p in exact], mode="lines",
                             name="Exact law p(x) exp(lambda r(x))", line={"color": "black", "dash": "dash"}))
    for name, curve in result.curves.items():
        points = sorted(curve, key=lambda p: p.hit_rate)
        fig.add_trace(go.Scatter(
            x=[p.hit_rate for p in points], y=[p.on_manifold_fraction for p in points], mode="lines+markers",
            name=result.labels[name], line={"color": _COLORS[name]}, text=[f"strength {p.scale:g}" for p in points],
            hovertemplate="%{text}<br>hit %{x:.3f}, on %{y:.3f}"))
    fig.update_layout(title="On-manifold fraction against reward hit rate (one point per strength)",
                      xaxis={"title": "reward hit rate (fraction within the hit radius)", "range": [0, 1]},
                      yaxis={"title": "fraction with prior density above the 99% threshold", "range": [0, 1.02]})
    return fig


def _density_trace(result: Result) -> go.Contour:
    return go.Contour(x=result.density_axis, y=result.density_axis, z=result.density_grid, colorscale="Greys",
                      showscale=False, contours={"coloring": "heatmap"}, opacity=0.6, name="log prior density",
                      hoverinfo="skip")


def _panels(result: Result, title: str, paths: bool) -> go.Figure:
    names = list(result.trajectories)
    cols = min(4, len(names))
    rows = -(-len(names) // cols)
    strength = result.per_seed[0].strength
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[f"{_SHORT[n]}, {strength[n]:.3g}" for n in names],
                        horizontal_spacing=0.04, vertical_spacing=0.1)
    cx, cy = result.target
    r = result.hit_radius
    for k, name in enumerate(names):
        row, col = k // cols + 1, k % cols + 1
        traj = result.trajectories[name]
        fig.add_trace(_density_trace(result), row=row, col=col)
        if paths:
            for path in traj.paths:
                fig.add_trace(go.Scatter(x=[p[0] for p in path], y=[p[1] for p in path], mode="lines",
                                         line={"color": _COLORS[name], "width": 1}, showlegend=False), row=row, col=col)
        else:
            fig.add_trace(go.Scatter(x=[p[0] for p in traj.final], y=[p[1] for p in traj.final], mode="markers",
                                     marker={"color": _COLORS[name], "size": 3}, showlegend=False), row=row, col=col)
        fig.add_shape(type="circle", x0=cx - r, y0=cy - r, x1=cx + r, y1=cy + r, line={"color": "gold", "width": 2},
                      row=row, col=col)
        anchor = "x" if k == 0 else f"x{k + 1}"
        fig.update_xaxes(title_text="x1 (unitless)", range=[-4.5, 4.5], row=row, col=col)
        fig.update_yaxes(title_text="x2 (unitless)" if col == 1 else None, showticklabels=col == 1,  # one y title a row
                         range=[-4.5, 4.5], row=row, col=col,
                         scaleanchor=anchor, scaleratio=1, constrain="domain")
    fig.update_layout(title=title, height=300 * rows + 80, margin={"r": 20})
    fig.update_annotations(font_size=12)
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {
        "hit_ratio": _hit_ratio(result),
        "tradeoff": _tradeoff(result),
        "final_samples": _panels(result, "Final samples at each method's tuned strength (gold: the hit region)",
                                 paths=False),
        "trajectories": _panels(result, "Particle trajectories from t = 1 (noise) to t = 0.001", paths=True),
    }
