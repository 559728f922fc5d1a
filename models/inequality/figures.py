"""Figures: the Gram matrix heatmap, per-stage timings, and p along the line through a counterexample."""

from __future__ import annotations

import plotly.graph_objects as go

from models.common.numbers import seconds, words

from .result import Result

__all__ = ["STAGES_MIN_HEIGHT", "figures"]

STAGES_MIN_HEIGHT = 360


def _certified(result: Result) -> str:
    """The identity the Gram blocks certify, as the certificate states it."""
    c = result.certificate
    lhs = "p" if c is None or c.margin in ("0", "") else f"p - ({c.margin})"
    if c is not None and c.multiplier:
        lhs = f"({c.multiplier}) * ({lhs})"
    rhs = "sum_b z_b^T Q_b z_b"
    if c is not None and c.products:
        rhs += " + hypothesis terms"
    if c is not None and c.equalities:
        rhs += " + equality terms"
    return f"{lhs} = {rhs}"


def _gram(result: Result) -> go.Figure:
    labels = result.gram_labels
    short = [label if len(label) <= 18 else label[:15] + "..." for label in labels]
    fig = go.Figure(
        go.Heatmap(
            z=result.gram,
            x=short,
            y=short,
            colorscale="RdBu",
            zmid=0,
            colorbar={"title": "entry of Q"},
            hovertemplate="row %{y}<br>column %{x}<br>Q = %{z:.4g}<extra></extra>",
        )
    )
    sizes = result.block_sizes if sum(result.block_sizes) == len(labels) else [len(labels)]
    start = -0.5
    for size in sizes:  # outline each block of the certificate
        fig.add_shape(type="rect", x0=start, x1=start + size, y0=start, y1=start + size, line={"color": "black", "width": 1})
        start += size
    fig.update_layout(
        title=f"Gram blocks Q_b of the certificate {_certified(result)} ({len(sizes)} "
              f"block{'s' if len(sizes) != 1 else ''}, sizes {', '.join(str(n) for n in sizes)})",
        xaxis_title="basis element z_j",
        yaxis_title="basis element z_i",
        yaxis_autorange="reversed",
        height=520,
    )
    return fig


def _stages(result: Result) -> go.Figure:
    """Each stage's time (in ms under a second), its outcome in words beside the bar, never inside it."""
    names = [s.name for s in result.stages]
    longest = max((s.seconds for s in result.stages), default=0.0)
    scale, unit = (1e3, "ms") if longest < 1 else (1.0, "s")
    fig = go.Figure(
        go.Bar(
            x=[s.seconds * scale for s in result.stages],
            y=names,
            orientation="h",
            text=[f"{words(s.status)} ({seconds(s.seconds)})" for s in result.stages],
            textposition="outside",
            textangle=0,
            cliponaxis=False,
            hovertext=[words(s.detail) for s in result.stages],
        )
    )
    fig.update_layout(
        title="Time per pipeline stage",
        xaxis_title=f"wall-clock time ({unit})",
        xaxis_range=[0, 1.6 * longest * scale or 1],  # room for the outcome written after the longest bar
        yaxis_title="stage",
        yaxis_autorange="reversed",
        height=max(STAGES_MIN_HEIGHT, 120 + 32 * len(names)),  # short runs keep a readable chart
    )
    return fig


def _slice(result: Result) -> go.Figure:
    fig = go.Figure(go.Scatter(x=result.slice_t, y=result.slice_values, mode="lines", name="p(t x*)"))
    if result.counterexample is not None:
        fig.add_trace(
            go.Scatter(
                x=[1.0],
                y=[float(eval_fraction(result.counterexample.value))],
                mode="markers",
                marker={"size": 11, "color": "crimson"},
                name="counterexample (t = 1)",
            )
        )
    fig.add_hline(y=0.0, line_dash="dot", line_color="gray")
    fig.update_layout(
        title="p along the line from the origin through the counterexample x*",
        xaxis_title="t (point t * x*, dimensionless)",
        yaxis_title="p(t x*)",
    )
    return fig


def eval_fraction(text: str) -> float:
    """'a/b' -> float (our own output format, never user text)."""
    num, _, den = text.partition("/")
    return int(num) / int(den or 1)


def figures(result: Result) -> dict[str, go.Figure]:
    """Gram heatmap (when a Gram matrix exists), stage timings, and the refutation slice."""
    out: dict[str, go.Figure] = {}
    if result.gram:
        out["gram"] = _gram(result)
    if result.slice_t:
        out["slice"] = _slice(result)
    out["stages"] = _stages(result)
    return out
