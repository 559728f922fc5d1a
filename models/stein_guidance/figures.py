"""Figures: on-manifold fraction against hit rate, final samples over the prior, particle trajectories."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.stein_guidance.result import Result

__all__ = ["figures"]

_SHORT = {
    "dps": "DPS",
    "sdg": "SDG",
    "sdg_no_stein": "no Stein",
    "sdg_no_running_cost": "no running cost",
    "sdg_langevin": "Langevin",
    "sdg_clean_target": "target ignoring x_t",
}
_COLORS = {
    "dps": "#636efa",
    "sdg": "#ef553b",
    "sdg_no_stein": "#00cc96",
    "sdg_no_running_cost": "#ab63fa",
    "sdg_langevin": "#ffa15a",
    "sdg_clean_target": "#19d3f3",
}


def _tradeoff(result: Result) -> go.Figure:
    fig = go.Figure()
    exact = result.exact_posterior_curve
    fig.add_trace(go.Scatter(
        x=[p.hit_rate for p in exact], y=[p.on_manifold_fraction for p in exact], mode="lines",
        name="Exact posterior p(x) exp(lambda r(x))", line={"color": "black", "dash": "dash"},
    ))
    for name in result.methods:
        points = sorted(result.curves[name], key=lambda p: p.hit_rate)
        fig.add_trace(go.Scatter(
            x=[p.hit_rate for p in points], y=[p.on_manifold_fraction for p in points], mode="lines+markers",
            name=result.labels[name], line={"color": _COLORS[name]},
            text=[f"lambda = {p.scale:g}" for p in points], hovertemplate="%{text}<br>hit %{x:.3f}, on %{y:.3f}",
        ))
    fig.add_vline(x=result.at_matched_hit_rate.hit_rate, line_dash="dot", annotation_text="matched hit rate")
    fig.update_layout(
        title="On-manifold fraction against reward hit rate (one point per guidance scale)",
        xaxis={"title": "reward hit rate (fraction within the hit radius of the target)", "range": [0, 1]},
        yaxis={"title": "fraction with prior density above the 99% threshold", "range": [0, 1.02]},
    )
    return fig


def _density_trace(result: Result) -> go.Contour:
    return go.Contour(
        x=result.density_axis, y=result.density_axis, z=result.density_grid, colorscale="Greys",
        showscale=False, contours={"coloring": "heatmap"}, opacity=0.6, name="log prior density",
        hoverinfo="skip",
    )


def _target_shape(fig: go.Figure, result: Result, row: int, col: int) -> None:
    cx, cy = result.target
    r = result.hit_radius
    fig.add_shape(type="circle", x0=cx - r, y0=cy - r, x1=cx + r, y1=cy + r, line={"color": "gold", "width": 2},
                  row=row, col=col)


def _panels(result: Result, title: str, paths: bool) -> go.Figure:
    names = list(result.trajectories)
    cols = min(3, len(names))
    rows = -(-len(names) // cols)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[
        f"{_SHORT[n]}, λ = {result.trajectories[n].scale:g}" for n in names
    ], horizontal_spacing=0.04, vertical_spacing=0.1)
    for k, name in enumerate(names):
        row, col = k // cols + 1, k % cols + 1
        traj = result.trajectories[name]
        fig.add_trace(_density_trace(result), row=row, col=col)
        if paths:
            for path in traj.paths:
                fig.add_trace(go.Scatter(
                    x=[p[0] for p in path], y=[p[1] for p in path], mode="lines",
                    line={"color": _COLORS[name], "width": 1}, showlegend=False,
                ), row=row, col=col)
        else:
            fig.add_trace(go.Scatter(
                x=[p[0] for p in traj.final], y=[p[1] for p in traj.final], mode="markers",
                marker={"color": _COLORS[name], "size": 4}, showlegend=False,
            ), row=row, col=col)
        _target_shape(fig, result, row, col)
        anchor = "x" if k == 0 else f"x{k + 1}"
        fig.update_xaxes(title_text="x1 (unitless)", range=[-4.5, 4.5], row=row, col=col)
        fig.update_yaxes(title_text="x2 (unitless)", range=[-4.5, 4.5], row=row, col=col,
                         scaleanchor=anchor, scaleratio=1, constrain="domain")
    fig.update_layout(title=title, height=330 * rows + 80, margin={"r": 20})
    fig.update_annotations(font_size=12)
    return fig


def _fidelity(result: Result) -> go.Figure:
    first = result.per_seed[0]
    fig = go.Figure()
    named = [(result.labels[n], first.energy_distance[n], _COLORS[n], "solid") for n in result.methods]
    if first.dps_tuned is not None:
        named.append(("DPS at its best scale", first.dps_tuned, _COLORS["dps"], "dash"))
    named.append(("Exact sampler (same sample size)", first.exact_floor, "black", "dot"))
    for label, values, color, dash in named:
        fig.add_trace(go.Scatter(x=result.guidance_scales, y=values, mode="lines+markers", name=label,
                                 line={"color": color, "dash": dash}))
    fig.update_layout(
        title="Posterior fidelity at each guidance scale (lower is closer to the exact posterior)",
        xaxis={"title": "guidance scale lambda (unitless)", "type": "log", "dtick": 0.30103},
        yaxis={"title": "energy distance to exact draws (length units)"},
    )
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {
        "fidelity": _fidelity(result),
        "tradeoff": _tradeoff(result),
        "final_samples": _panels(
            result, "Final samples over the prior density (gold circle: the reward's hit region)", paths=False
        ),
        "trajectories": _panels(result, "Particle trajectories from t = 1 (noise) to t = 0.001", paths=True),
    }
