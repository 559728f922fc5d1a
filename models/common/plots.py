"""Plotly helpers shared by the methods' figures: theory (lines) beside simulation (markers), and a mean
with its 95% interval over seeds beside each seed's value (so a 0.1-point gap is read against its interval,
not against an axis zoomed onto it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from models.common.stats import mean_interval

__all__ = ["PALETTE", "Series", "add_mean_interval", "theory_vs_simulation"]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


@dataclass(frozen=True)
class Series:
    """One curve: simulated points (markers, optional min/max or CI error bars) and/or a theory line.

    Either part may be empty. `theory_x` defaults to `x` when only `theory` is given.
    """

    name: str
    x: Sequence[float] = ()
    simulation: Sequence[float | None] = ()
    low: Sequence[float] | None = None
    high: Sequence[float] | None = None
    theory: Sequence[float | None] = ()
    theory_x: Sequence[float] | None = None
    colour: str | None = None
    theory_label: str = "theory"
    simulation_label: str = "simulation"
    dash: str = "solid"
    symbol: str = "circle-open"


def _error_bars(series: Series) -> dict[str, object] | None:
    if series.low is None or series.high is None:
        return None
    sim = [float("nan") if v is None else float(v) for v in series.simulation]
    return {
        "type": "data",
        "symmetric": False,
        "array": [max(h - s, 0.0) for h, s in zip(series.high, sim, strict=True)],
        "arrayminus": [max(s - lo, 0.0) for lo, s in zip(series.low, sim, strict=True)],
        "thickness": 1,
    }


def theory_vs_simulation(
    series: Sequence[Series],
    *,
    title: str,
    x_title: str,
    y_title: str,
    log_x: bool = False,
    log_y: bool = False,
    height: int = 420,
) -> go.Figure:
    """A figure with, per series, a theory line and simulation markers in the same colour.

    The legend groups the two parts of a series, so clicking a name hides both.
    """
    fig = go.Figure()
    for index, s in enumerate(series):
        colour = s.colour or PALETTE[index % len(PALETTE)]
        if len(s.theory):
            fig.add_trace(
                go.Scatter(
                    x=list(s.theory_x if s.theory_x is not None else s.x),
                    y=list(s.theory),
                    mode="lines",
                    name=f"{s.name} ({s.theory_label})",
                    legendgroup=s.name,
                    line={"color": colour, "width": 2, "dash": s.dash},
                )
            )
        if len(s.simulation):
            fig.add_trace(
                go.Scatter(
                    x=list(s.x),
                    y=list(s.simulation),
                    mode="markers",
                    name=f"{s.name} ({s.simulation_label})",
                    legendgroup=s.name,
                    marker={"color": colour, "size": 8, "symbol": s.symbol, "line": {"width": 2, "color": colour}},
                    error_y=_error_bars(s),
                )
            )
    fig.update_layout(
        title=title,
        xaxis_title=x_title,
        yaxis_title=y_title,
        height=height,
        legend={"font": {"size": 10}, "orientation": "h", "yanchor": "top", "y": -0.28, "xanchor": "left", "x": 0},
        margin={"t": 60, "l": 60, "r": 20, "b": 80},
    )
    if log_x:
        fig.update_xaxes(type="log")
    if log_y:
        fig.update_yaxes(type="log")
    return fig


def add_mean_interval(fig: go.Figure, labels: Sequence[str], per_seed: Sequence[Sequence[float | None]], *,
                      name: str = "mean, 95% interval over seeds", colour: str = "#222222",
                      row: int | None = None, col: int | None = None, showlegend: bool = True) -> None:
    """Per label (one row each, read left to right), every seed's value (grey dots) and the mean with its
    95% interval over seeds (black bar). `per_seed[s][i]` is seed s's value for `labels[i]` (None: not
    measured); with one seed there is no interval and the mean is drawn alone.
    """
    kw = {} if row is None else {"row": row, "col": col}
    for index, values in enumerate(zip(*per_seed, strict=True)):
        seen = [float(v) for v in values if v is not None]
        fig.add_scatter(y=[labels[index]] * len(seen), x=seen, mode="markers", marker={"color": "#a0a0a0", "size": 7},
                        name="each seed", legendgroup="each seed", showlegend=showlegend and index == 0, **kw)
    means: list[float | None] = []
    low: list[float] = []
    high: list[float] = []
    for values in zip(*per_seed, strict=True):
        seen = [float(v) for v in values if v is not None]
        interval = mean_interval([[v] for v in seen]) if len(seen) > 1 else None
        mean = sum(seen) / len(seen) if seen else None
        means.append(mean)
        low.append(0.0 if interval is None or mean is None else mean - interval.lo)
        high.append(0.0 if interval is None or mean is None else interval.hi - mean)
    fig.add_scatter(y=list(labels), x=means, mode="markers", name=name, legendgroup=name, showlegend=showlegend,
                    marker={"color": colour, "size": 12, "symbol": "line-ns-open", "line": {"width": 3, "color": colour}},
                    error_x={"type": "data", "symmetric": False, "array": high, "arrayminus": low, "thickness": 2,
                             "color": colour, "width": 6}, **kw)
