"""Plotly figures of a bilateral trade result: regret curves, profit, prices, values (log-log slopes in
figures_loglog.py)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.bilateral_trade.figures_loglog import loglog_figure
from models.bilateral_trade.learners import LEARNERS
from models.bilateral_trade.result import Result

__all__ = ["figures"]

_COLOURS = {name: spec.colour for name, spec in LEARNERS.items()}
_PHASE_BAR_COLOURS = {
    "collection": "#f2b701",
    "exploration": "#7f7fff",
    "exploitation": "#3d9970",
    "guard": "#d62728",
}
_PHASE_COLOURS = {"profit collection": "rgba(255, 200, 0, 0.15)", "exploration": "rgba(120, 120, 255, 0.15)"}


def _rgba(hex_colour: str, alpha: float) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def _band(fig: go.Figure, x: list[int], per_seed: list[list[float]], name: str, label: str) -> None:
    """Mean line with a min-max band over seeds."""
    values = np.asarray(per_seed)
    colour = _COLOURS.get(name, "#444444")
    lo, hi, mean = values.min(axis=0), values.max(axis=0), values.mean(axis=0)
    fig.add_trace(go.Scatter(x=x, y=hi, mode="lines", line={"width": 0}, showlegend=False, hoverinfo="skip"))
    fig.add_trace(
        go.Scatter(
            x=x,
            y=lo,
            mode="lines",
            line={"width": 0},
            fill="tonexty",
            fillcolor=_rgba(colour, 0.2),
            showlegend=False,
            hoverinfo="skip",
        )
    )
    fig.add_trace(go.Scatter(x=x, y=mean, mode="lines", name=label, line={"color": colour, "width": 2}))


def _mark_commits(fig: go.Figure, result: Result) -> None:
    """A dotted line where each explore-then-commit learner stops exploring (seed 0); learners
    sharing the round share the line."""
    commits: dict[int, list[str]] = {}
    for name in ("wbb_one_bit", "wbb_two_bit"):
        if name in result.learners:
            for span in result.learners[name].phases:
                if span.phase == "exploration":
                    commits.setdefault(span.end, []).append(name.replace("wbb_", "").replace("_", "-"))
    for end, names in commits.items():
        colour = _COLOURS["wbb_two_bit" if names == ["two-bit"] else "wbb_one_bit"]
        fig.add_vline(x=end, line_dash="dot", line_color=colour)
        _legend_line(fig, f"WBB {' and '.join(names)} commits (t = {end:,})", colour, "dot")


def _legend_line(fig: go.Figure, label: str, colour: str, dash: str) -> None:
    """A legend entry for a marker line drawn across the plot (its label in the legend, not over the curves)."""
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=label, line={"color": colour, "dash": dash}))


def _shade_phases(fig: go.Figure, result: Result) -> None:
    """Shade the profit-collection and exploration phases of the GBB one-bit learner (seed 0) and
    mark where the explore-then-commit WBB learners commit."""
    _mark_commits(fig, result)
    name = next((n for n in ("gbb_one_bit", "gbb_one_bit_paper") if n in result.learners), None)
    if name is None:
        return
    for span in result.learners[name].phases:
        if span.phase in _PHASE_COLOURS:
            fig.add_vrect(x0=span.start, x1=span.end, fillcolor=_PHASE_COLOURS[span.phase], line_width=0, layer="below")
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=f"shaded: {span.phase} (before t = {span.end:,})",
                                     marker={"symbol": "square", "size": 12, "color": _PHASE_COLOURS[span.phase]}))


def _regret_figure(result: Result, benchmark: str) -> go.Figure:
    fig = go.Figure()
    for name, curves in result.curves.items():
        per_seed = curves.regret_vs_gbb if benchmark == "gbb" else curves.regret_vs_wbb
        _band(fig, result.checkpoints, per_seed, name, result.learners[name].label)
    _shade_phases(fig, result)
    if benchmark == "gbb":
        for name, summary in result.learners.items():
            if summary.crossing_round is not None and summary.family == "gbb":
                colour = _COLOURS.get(name, "#444444")
                fig.add_vline(x=summary.crossing_round, line_dash="dash", line_color=colour)
                _legend_line(fig, f"{summary.label} below the fixed price from t = {summary.crossing_round:,}",
                             colour, "dash")
    value = result.benchmarks.gbb if benchmark == "gbb" else result.benchmarks.wbb
    title = (
        "GBB optimum (best distribution over price couples)"
        if benchmark == "gbb"
        else "best fixed price (WBB)"
    )
    fig.update_layout(
        title=f"Cumulative regret against the {title}, {value:.4f} GFT per round",
        xaxis_title="round t",
        yaxis_title="regret, t x OPT - GFT (GFT units)",
        legend={"orientation": "h", "yanchor": "top", "y": -0.2, "xanchor": "left", "x": 0},
        height=640,
    )
    return fig


def _phase_figure(result: Result) -> go.Figure:
    """Regret against GBB split by phase, one stacked bar per learner (mean over seeds)."""
    fig = go.Figure()
    names = list(result.learners)
    labels = [result.learners[n].label for n in names]
    for phase, colour in _PHASE_BAR_COLOURS.items():  # horizontal: the learners' names read in full
        values = [getattr(result.learners[n].regret_by_phase, phase) for n in names]
        fig.add_trace(go.Bar(y=labels, x=values, name=phase, marker_color=colour, orientation="h"))
    fixed = (result.benchmarks.gbb - result.benchmarks.fixed_price) * result.horizon
    fig.add_vline(x=fixed, line_dash="dash", line_color="black")
    _legend_line(fig, f"best fixed price's regret: {fixed:,.0f}", "black", "dash")
    fig.update_layout(
        barmode="relative",
        title=f"Regret against GBB at T = {result.horizon:,} by phase (mean over {result.seeds} seeds)",
        yaxis_title="learner",
        yaxis_autorange="reversed",
        xaxis_title="regret vs GBB (GFT units)",
        legend={"orientation": "h", "yanchor": "top", "y": -0.22, "xanchor": "left", "x": 0},
    )
    return fig


def _profit_figure(result: Result) -> go.Figure:
    fig = go.Figure()
    for name, curves in result.curves.items():
        _band(fig, result.checkpoints, curves.cumulative_profit, name, result.learners[name].label)
    fig.add_hline(y=0.0, line_dash="dash", line_color="black", annotation_text="GBB: must stay at or above 0")
    _shade_phases(fig, result)
    fig.update_layout(
        title="Cumulative realised profit of the broker (sum of (q - p) over trades)",
        xaxis_title="round t",
        yaxis_title="cumulative profit (money units)",
        legend={"orientation": "h", "yanchor": "top", "y": -0.2, "xanchor": "left", "x": 0},  # below the x title
        height=640,
    )
    return fig


def _label(result: Result, name: str | None) -> str:
    if name is None:
        return "learner"
    return result.learners[name].label if name in result.learners else name.replace("_", " ")


def _under(x: float, title: str) -> dict[str, object]:
    """A horizontal colorbar under the panel centred at paper x (two side-by-side colorbars collide)."""
    return {"title": {"text": title, "side": "top"}, "orientation": "h", "x": x, "xanchor": "center", "y": -0.3,
            "yanchor": "top", "len": 0.4, "thickness": 12}


def _heatmap_figure(result: Result) -> go.Figure:
    edges = np.asarray(result.heatmap_edges)
    centres = 0.5 * (edges[1:] + edges[:-1])
    fig = make_subplots(
        rows=1,
        cols=2,
        horizontal_spacing=0.12,
        subplot_titles=(
            f"{_label(result, result.heatmap_learner)}:<br>share of rounds per couple",
            f"LP optimum on the<br>{result.benchmarks.lp_grid_size}-point grid",
        ),
    )
    counts = (
        np.asarray(result.heatmap_counts) if result.heatmap_counts else np.zeros((len(centres), len(centres)))
    )
    fig.add_trace(
        go.Heatmap(
            x=centres, y=centres, z=counts.T, colorscale="Reds", colorbar=_under(0.22, "share of rounds")
        ),
        1,
        1,
    )
    optimum = np.zeros_like(counts)
    for couple in result.benchmarks.lp_support:
        i = min(int(couple.p * len(centres)), len(centres) - 1)
        j = min(int(couple.q * len(centres)), len(centres) - 1)
        optimum[i, j] += couple.weight
    fig.add_trace(
        go.Heatmap(x=centres, y=centres, z=optimum.T, colorscale="Blues", colorbar=_under(0.78, "weight of the couple")), 1, 2
    )
    for col in (1, 2):
        fig.add_trace(
            go.Scatter(
                x=[0, 1], y=[0, 1], mode="lines", line={"color": "grey", "dash": "dash"}, showlegend=False
            ),
            1,
            col,
        )
        fig.update_xaxes(title_text="seller price p", range=[0, 1], row=1, col=col)
        fig.update_yaxes(title_text="buyer price q", range=[0, 1], row=1, col=col)
    fig.update_layout(
        title="Where the learner posts prices vs the GBB optimum (below the diagonal: subsidised, buyer price under seller price)",
        margin={"t": 130, "b": 150},
        height=520,
    )
    fig.update_annotations(yshift=8)  # subplot titles clear of the top tick label
    return fig


def _valuations_figure(result: Result) -> go.Figure:
    sample = np.asarray(result.valuation_sample)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=sample[:, 0],
            y=sample[:, 1],
            mode="markers",
            name="(s, b) draws",
            marker={"size": 4, "opacity": 0.5},
        )
    )
    fig.add_trace(
        go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="b = s", line={"color": "grey", "dash": "dash"})
    )
    support = result.benchmarks.lp_support
    fig.add_trace(
        go.Scatter(
            x=[c.p for c in support],
            y=[c.q for c in support],
            mode="markers+text",
            name="GBB LP couples (p, q)",
            text=[f"weight {c.weight:.2f}" for c in support],
            textposition="top center",
            marker={"symbol": "x", "size": 12, "color": "#d62728"},
        )
    )
    fig.update_layout(
        title=f"Valuations: {result.distribution.label} (a trade at (p, q) needs s at most p and b at least q)",
        xaxis_title="seller value s",
        yaxis_title="buyer value b",
        xaxis_range=[0, 1],
        yaxis_range=[0, 1],
    )
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    """All figures of the page, in display order."""
    return {
        "regret_vs_gbb": _regret_figure(result, "gbb"),
        "regret_vs_wbb": _regret_figure(result, "wbb"),
        "regret_loglog": loglog_figure(result),
        "regret_by_phase": _phase_figure(result),
        "cumulative_profit": _profit_figure(result),
        "price_heatmap": _heatmap_figure(result),
        "valuations": _valuations_figure(result),
    }
