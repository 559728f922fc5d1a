"""The log-log figure of a bilateral trade result: final regret vs GBB per horizon of the scan."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from models.bilateral_trade.learners import LEARNERS
from models.bilateral_trade.result import LearnerCurves, LearnerSummary, Result

__all__ = ["loglog_figure"]

_COLOURS = {name: spec.colour for name, spec in LEARNERS.items()}


def _log2_ticks(values: np.ndarray) -> tuple[list[float], list[str]]:
    """At most six ticks at powers of 2 (every other power when the range is wide)."""
    low, high = int(np.floor(np.log2(values.min()))), int(np.ceil(np.log2(values.max())))
    step = max(1, int(np.ceil((high - low) / 6)))
    powers = list(range(low, high + 1, step))
    return [float(2**k) for k in powers], [f"2^{k}" for k in powers]


def _slope_label(summary: LearnerSummary) -> str:
    """The legend entry of a learner: its median slope and IQR, or that it has no positive regret."""
    slope, iqr = summary.regret_slope_vs_gbb, summary.regret_slope_iqr
    if slope is not None and iqr is not None:
        return f"{summary.label}: slope {slope:.2f} (IQR {iqr[0]:.2f}-{iqr[1]:.2f})"
    return f"{summary.label}: no positive regret"


def _seed_points(fig: go.Figure, horizons: np.ndarray, per_seed: np.ndarray, colour: str) -> np.ndarray:
    """Every seed's positive final regret as a faint dot; returns the values shown."""
    seeds_x = np.repeat(horizons[None, :], len(per_seed), axis=0).ravel()
    seeds_y = per_seed.ravel()
    shown = seeds_y > 1e-6 * seeds_x
    fig.add_trace(
        go.Scatter(
            x=seeds_x[shown],
            y=seeds_y[shown],
            mode="markers",
            marker={"color": colour, "size": 5, "opacity": 0.45},
            showlegend=False,
            hovertemplate="T = %{x}<br>regret %{y:.4g}<extra>one seed</extra>",
        )
    )
    return seeds_y[shown]


def _median_and_slope(
    fig: go.Figure, horizons: np.ndarray, median: np.ndarray, summary: LearnerSummary, colour: str
) -> None:
    """The seed median where positive, and a dotted line at the median slope through its points."""
    positive = median > 1e-6 * horizons
    fig.add_trace(
        go.Scatter(
            x=horizons[positive],
            y=median[positive],
            mode="lines",
            name=_slope_label(summary),
            line={"color": colour},
        )
    )
    slope = summary.regret_slope_vs_gbb
    if slope is not None and positive.sum() >= 2:
        x, y = np.log(horizons[positive]), np.log(median[positive])
        intercept = float(np.mean(y - slope * x))
        fig.add_trace(
            go.Scatter(
                x=horizons,
                y=np.exp(intercept + slope * np.log(horizons)),
                mode="lines",
                line={"color": colour, "dash": "dot", "width": 1},
                showlegend=False,
                hoverinfo="skip",
            )
        )


def _learner_traces(
    fig: go.Figure, horizons: np.ndarray, name: str, curves: LearnerCurves, summary: LearnerSummary
) -> np.ndarray:
    """One learner's seed dots, median line and slope line; returns the positive seed values shown."""
    per_seed = np.asarray(curves.scan_per_seed_vs_gbb)
    colour = _COLOURS.get(name, "#444444")
    shown = _seed_points(fig, horizons, per_seed, colour)
    _median_and_slope(fig, horizons, np.median(per_seed, axis=0), summary, colour)
    return shown


def _reference_slope(fig: go.Figure, result: Result, horizons: np.ndarray) -> None:
    """A dashed T^(3/4) line (the paper's rate) through the first positive median of the anchor learner."""
    anchor_name = next(
        (n for n in ("gbb_one_bit", "gbb_one_bit_paper", "gbb_full") if n in result.curves),
        next(iter(result.curves)),
    )
    anchor = np.median(np.asarray(result.curves[anchor_name].scan_per_seed_vs_gbb), axis=0)
    if np.any(anchor > 1e-6 * horizons):
        first = int(np.flatnonzero(anchor > 1e-6 * horizons)[0])
        reference = anchor[first] * (horizons / horizons[first]) ** 0.75
        fig.add_trace(
            go.Scatter(
                x=horizons,
                y=reference,
                mode="lines",
                name="reference slope 3/4 (the paper's rate)",
                line={"color": "black", "dash": "dash", "width": 1},
            )
        )


def _loglog_layout(fig: go.Figure, horizons: np.ndarray, positive_values: list[np.ndarray]) -> None:
    """Log axes with power-of-2 horizon ticks; y ticks every other decade when the range is wide."""
    tickvals, ticktext = _log2_ticks(horizons)
    values = np.concatenate(positive_values) if positive_values else np.array([])
    y_ticks: dict[str, object] = {"dtick": 1}
    if len(values) and values.max() / values.min() > 1e6:
        y_ticks = {"dtick": 2}
    fig.update_layout(
        title="Final regret against the GBB optimum for each horizon T, log-log (dots: seeds; line: median)",
        xaxis={
            "title": "horizon T (rounds, log scale)",
            "type": "log",
            "tickvals": tickvals,
            "ticktext": ticktext,
        },
        yaxis={
            "title": "regret at T vs GBB (GFT units)",
            "type": "log",
            "exponentformat": "power",
            **y_ticks,
        },
        legend={"orientation": "h", "yanchor": "top", "y": -0.32, "xanchor": "left", "x": 0},
    )


def loglog_figure(result: Result) -> go.Figure:
    """Final regret vs GBB per horizon: every seed's point (the spread), the seed median, and a
    dotted line at the median slope; the legend gives the median slope and its IQR."""
    fig = go.Figure()
    horizons = np.asarray(result.scan_horizons, dtype=float)
    positive_values = [
        _learner_traces(fig, horizons, name, curves, result.learners[name])
        for name, curves in result.curves.items()
    ]
    _reference_slope(fig, result, horizons)
    _loglog_layout(fig, horizons, positive_values)
    return fig
