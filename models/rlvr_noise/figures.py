"""Plotly figures of a noisy-verifier RLVR run: mass curves, the bandit phase diagram, the rate law, J = 0 diffusion."""

from __future__ import annotations

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
        series, title="Incorrect mass during GRPO: mean field (dashed) and bandit mean (solid, 10-90% band), first seed",
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
                             marker={"color": "black", "symbol": "x", "size": 9}, name="J values of the sweep"))
    fig.update_layout(
        title=f"Phase diagram: GRPO bandit ({p.runs_per_cell} runs per cell), incorrect mass after {p.steps} steps "
              f"(start {result.initial_incorrect_mass:g})",
        xaxis_title="false-positive rate FPR", yaxis_title="false-negative rate FNR", height=520,
        legend={"orientation": "h", "yanchor": "top", "y": -0.15, "x": 0},
    )
    return fig


def _rate(result: Result) -> go.Figure:
    rows = [t for t in result.time_to_threshold if t.rate_law is not None]
    inverse = [1.0 / t.j for t in rows]
    series = [
        Series(name="rate law", x=inverse, theory=[t.rate_law for t in rows],
               theory_label="(m / 2ηJ) ∫ σ / (x²(1-x)²) dx", colour="black", dash="dot"),
        Series(name="mean field", x=inverse, simulation=[t.mean_field for t in rows],
               simulation_label="expected GRPO step", colour=PALETTE[0], symbol="circle-open"),
        Series(name="GRPO bandit", x=inverse, simulation=[t.bandit_mean for t in rows],
               simulation_label=f"mean of {result.bandit_seeds} runs, G = {result.group_size}", colour=PALETTE[1],
               symbol="x-thin-open"),
    ]
    return theory_vs_simulation(
        series, title="Rate, not fate: steps to incorrect mass 0.05 against the rate law (time ∝ σ / J)",
        x_title="1/J", y_title="GRPO steps to incorrect mass 0.05", log_x=True, log_y=True,
    )


def _diffusion(result: Result) -> go.Figure:
    d = result.diffusion
    fig = go.Figure()
    if d is not None:
        fig.add_trace(go.Scatter(x=d.curve_steps, y=d.predicted_variance, mode="lines", name="diffusion limit t·D(x0)",
                                 line={"color": "black", "dash": "dot"}))
        fig.add_trace(go.Scatter(x=d.curve_steps, y=d.variance, mode="markers", name=f"GRPO bandit, {d.runs} runs",
                                 marker={"color": PALETTE[1], "symbol": "circle-open"}))
    fig.update_layout(
        title="Neutral drift at J = 0 (TPR = FPR = "
              + ("-" if d is None else f"{d.p:g}") + "): variance of the incorrect mass across runs",
        xaxis_title="GRPO step", yaxis_title="variance of the incorrect mass across runs", height=420,
        legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0},
    )
    return fig


def _competition(result: Result) -> go.Figure:
    """Incorrect mass from the unequal start: GRPO mean against the 1-D law on the step clock and on tau."""
    c = result.competition
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=c.curve_steps, y=c.mass_bandit, mode="lines", name="GRPO mean, against steps",
                             line={"color": PALETTE[0]}))
    fig.add_trace(go.Scatter(x=c.clock_bandit, y=c.mass_bandit, mode="lines", name="GRPO mean, against the "
                             "concentration clock tau", line={"color": PALETTE[1]}))
    fig.add_trace(go.Scatter(x=c.curve_steps, y=c.mass_equal_law, mode="lines", name="1-D law (equal split)",
                             line={"color": "#444444", "dash": "dash"}))
    fig.add_hline(y=THRESHOLD, line_dash="dot", line_color="#7f7f7f", annotation_text="0.05")
    fig.update_layout(title=f"Unequal masses inside the correct class ({', '.join(f'{s:.2g}' for s in c.shares)}), "
                      f"J = {c.j:g}: the incorrect mass, first seed", xaxis_title="GRPO step (or tau, in steps)",
                      yaxis_title="probability mass on incorrect modes", height=420,
                      legend={"orientation": "h", "yanchor": "top", "y": -0.3, "x": 0})
    return fig


def _winner(result: Result) -> go.Figure:
    """The favoured correct mode's share of its class: GRPO and mean field at J, GRPO at J = 0."""
    c = result.competition
    fig = go.Figure()
    for name, values, colour, dash in (("GRPO mean", c.favoured_bandit, PALETTE[0], "solid"),
                                       ("mean field", c.favoured_mean_field, "#444444", "dash"),
                                       ("GRPO mean at J = 0 (reference)", c.favoured_neutral, PALETTE[3], "solid")):
        fig.add_trace(go.Scatter(x=c.curve_steps, y=values, mode="lines", name=name,
                                 line={"color": colour, "dash": dash}))
    fig.update_layout(title=f"Winner takes the correct class: the favoured mode's share (start {c.shares[0]:.2g}), "
                      f"J = {c.j:g}, first seed", xaxis_title="GRPO step",
                      yaxis_title="share of the correct class", yaxis_range=[0, 1.02], height=420,
                      legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0})
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"mass_curves": _curves(result), "phase_diagram": _phase(result), "rate": _rate(result),
            "diffusion": _diffusion(result), "competition": _competition(result), "winner": _winner(result)}
