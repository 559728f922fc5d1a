"""Plotly figures of a noisy-verifier RLVR run: mass curves, the (FPR, FNR) phase diagram, time vs 1/J."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from models.common.plots import PALETTE, Series, theory_vs_simulation
from models.rlvr_noise.result import THRESHOLD, Result

__all__ = ["figures"]


def _curves(result: Result) -> go.Figure:
    series = [
        Series(
            name=f"J = {curve.j:+.2f}", x=result.curve_steps, theory=curve.mean_field,
            theory_label="mean field",
            colour=PALETTE[k % len(PALETTE)],
        )
        for k, curve in enumerate(result.curves)
    ]
    fig = theory_vs_simulation(
        series, title="Incorrect mass during GRPO: mean field (dashed) and bandit mean (solid, 10-90% band)",
        x_title="GRPO step", y_title="probability mass on incorrect modes",
    )
    fig.update_traces(line={"dash": "dash"})
    for k, curve in enumerate(result.curves):
        colour = PALETTE[k % len(PALETTE)]
        fig.add_trace(go.Scatter(x=result.curve_steps, y=curve.bandit_q90, mode="lines", line={"width": 0},
                                 showlegend=False, hoverinfo="skip", legendgroup=f"J = {curve.j:+.2f}"))
        fig.add_trace(go.Scatter(x=result.curve_steps, y=curve.bandit_q10, mode="lines", line={"width": 0},
                                 fill="tonexty", fillcolor=_rgba(colour, 0.08), showlegend=False, hoverinfo="skip",
                                 legendgroup=f"J = {curve.j:+.2f}"))
        fig.add_trace(go.Scatter(x=result.curve_steps, y=curve.bandit_mean, mode="lines",
                                 name=f"J = {curve.j:+.2f} (bandit, {result.seeds} seeds)",
                                 legendgroup=f"J = {curve.j:+.2f}", line={"color": colour, "width": 2}))
    fig.add_hline(y=THRESHOLD, line_dash="dot", line_color="grey", annotation_text="0.05")
    fig.update_yaxes(range=[0, 1])
    return fig


def _rgba(hex_colour: str, alpha: float) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def _phase(result: Result) -> go.Figure:
    p = result.phase
    fig = go.Figure(
        go.Heatmap(
            x=p.fpr, y=p.fnr, z=p.mass, zmin=0, zmax=1, colorscale="RdBu_r",
            colorbar={"title": "incorrect mass"},
            hovertemplate="FPR %{x:.2f}<br>FNR %{y:.2f}<br>final incorrect mass %{z:.3f}<extra></extra>",
        )
    )
    fig.add_trace(go.Scatter(x=[0, 1], y=[1, 0], mode="lines", line={"color": "black", "dash": "dash"},
                             name="J = 0 (FPR + FNR = 1)"))
    fig.add_trace(go.Scatter(x=[result.fpr] * len(result.final_incorrect_mass),
                             y=[r.fnr for r in result.final_incorrect_mass], mode="markers",
                             marker={"color": "black", "symbol": "x", "size": 9}, name="simulated J values"))
    fig.update_layout(
        title=f"Phase diagram: mean-field incorrect mass after {result.steps} steps (start {result.initial_incorrect_mass:g})",
        xaxis_title="false-positive rate FPR", yaxis_title="false-negative rate FNR", height=520,
        legend={"orientation": "h", "yanchor": "top", "y": -0.15, "x": 0},
    )
    return fig


def _rate(result: Result) -> go.Figure:
    rows = [t for t in result.time_to_threshold if t.j > 0]
    inverse = [1.0 / t.j for t in rows]
    series = [
        Series(name="steps to incorrect mass 0.05", x=inverse,
               simulation=[t.bandit_mean for t in rows], theory=[t.mean_field for t in rows],
               theory_label="mean field", simulation_label="bandit mean"),
    ]
    reference = [(x, t.mean_field) for x, t in zip(inverse, rows, strict=True) if t.mean_field]
    if reference:
        x_ref, t_ref = reference[0]
        xs = np.array(sorted(inverse))
        series.append(Series(name="slope 1 (time proportional to 1/J)", x=xs.tolist(),
                             theory=(t_ref * xs / x_ref).tolist(), theory_label="reference", colour="grey", dash="dot"))
    fits = "; ".join(f"{f.model}: exponent {f.exponent:.2f}" for f in result.rate_fits)
    return theory_vs_simulation(
        series, title=f"Rate, not fate: time to 0.05 against 1/J ({fits or 'no fit'})",
        x_title="1/J", y_title="GRPO steps to incorrect mass 0.05", log_x=True, log_y=True,
    )


def figures(result: Result) -> dict[str, go.Figure]:
    return {"mass_curves": _curves(result), "phase_diagram": _phase(result), "rate": _rate(result)}
