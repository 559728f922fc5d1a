"""Axis and colorbar ticks a person reads, set by the kit on every figure it shows.

Plotly's defaults write "1n" and "0.5n" on colorbars (SI prefixes), "0.2×10⁵" on linear axes once an
exponent format is set, label every minor tick of a log axis ("7 8 9 10² 2 3") or, on a narrow plot, only
one ("10²"). The kit instead gives
- a linear axis or colorbar full numbers ("20,000", "0.004"), powers of ten only at extreme sizes;
- a log axis at least two labelled ticks: 1-2-5 steps over up to 2.5 decades, 1-2-...-9 under one, one
  per decade (or every other) beyond, labelled by `numbers.number`.
An axis whose figure chose its own ticks (tickvals, tickformat, dtick, exponentformat) is left alone.
Long figure titles are broken into lines that fit the page's column (about 72 characters), with the
top margin they need, and colorbar titles run along the bar, where they cannot cover its top tick.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from app.components.numbers import number

__all__ = ["readable_axes", "wrap"]

TITLE_CHARS = 72  # characters of a 17 px title that fit the main column (about 736 px at 1400 px)

_MINOR = {"fine": (1, 2, 3, 4, 5, 6, 7, 8, 9), "steps": (1, 2, 5)}


def _numbers(values: Any) -> list[float]:
    out: list[float] = []
    if values is None or isinstance(values, (str, bytes)):
        return out
    try:
        items: Iterable[Any] = list(values)
    except TypeError:
        return out
    for value in items:
        if isinstance(value, (list, tuple)):
            out.extend(_numbers(value))
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            out.append(float(value))
        elif hasattr(value, "tolist"):
            out.extend(_numbers(value.tolist()))
    return out


def _data_on(figure: Any, letter: str, name: str) -> list[float]:
    """Every finite number the figure's traces draw on the axis `name` ("xaxis2") of direction `letter`."""
    ref = letter + name[len(letter) + 4:]  # "xaxis2" -> "x2", "xaxis" -> "x"
    seen: list[float] = []
    for trace in figure.data:
        if (getattr(trace, f"{letter}axis", None) or letter) == ref:
            seen.extend(_numbers(getattr(trace, letter, None)))
    return seen


def _log_ticks(low: float, high: float) -> tuple[list[float], list[str]] | None:
    """Tick values and labels for a log axis spanning [low, high] (both > 0), or None for one per decade."""
    decades = math.log10(high / low)
    if decades > 2.5:
        return None
    steps = _MINOR["fine"] if decades < 1 else _MINOR["steps"]
    values = [m * 10.0 ** k for k in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1)
              for m in steps]
    inside = [v for v in values if low * (1 - 1e-9) <= v <= high * (1 + 1e-9)]
    if len(inside) < 2:  # a narrow span between two steps: label its two ends
        inside = sorted({float(number(low, 2).replace(",", "")), float(number(high, 2).replace(",", ""))})
    return inside, [number(v, 2) for v in inside]


def _chose_own_ticks(axis: Any) -> bool:
    return any(getattr(axis, key, None) is not None for key in ("tickvals", "tickformat", "dtick", "exponentformat"))


def _linear(axis: Any, data: list[float]) -> None:
    largest = max((abs(v) for v in data if v), default=1.0)
    if 1e-4 <= largest < 1e9:
        axis.update(exponentformat="none", separatethousands=True)
    else:
        axis.update(exponentformat="power", showexponent="all")


def _log(axis: Any, data: list[float]) -> None:
    positive = [v for v in data if v > 0]
    if len(positive) < 2 or min(positive) == max(positive):
        axis.update(exponentformat="power", dtick=1)
        return
    ticks = _log_ticks(min(positive), max(positive))
    if ticks is None:
        decades = math.log10(max(positive) / min(positive))
        axis.update(exponentformat="power", dtick=1 if decades <= 8 else 2)
    else:
        axis.update(tickmode="array", tickvals=ticks[0], ticktext=ticks[1])


def _colorbars(figure: Any) -> None:
    for trace in figure.data:
        holder = trace if hasattr(trace, "colorbar") else getattr(trace, "marker", None)
        scale = getattr(holder, "showscale", None)
        shown = holder is not None and (scale is True if holder is not trace else scale is not False)
        colorbar = getattr(holder, "colorbar", None) if shown else None
        if colorbar is None:
            continue
        if colorbar.title.text and colorbar.title.side is None:
            colorbar.title.side = "right"
        if _chose_own_ticks(colorbar):
            continue
        values = _numbers(getattr(trace, "z", None)) or _numbers(getattr(getattr(trace, "marker", None), "color", None))
        largest = max((abs(v) for v in values if v), default=1.0)
        if 1e-4 <= largest < 1e9:
            colorbar.update(exponentformat="none", separatethousands=True)
        else:
            colorbar.update(exponentformat="power", showexponent="all")


def wrap(text: str, width: int) -> str:
    """`text` broken at spaces into lines of at most `width` characters, joined by <br> (plotly's line break)."""
    if "<br>" in text or len(text) <= width:
        return text
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


def _title(figure: Any) -> None:
    """A long title broken into lines, pinned to the top with the margin its lines (and subplot titles) need."""
    text = figure.layout.title.text
    if not text or "<br>" in text or len(text) <= TITLE_CHARS:
        return
    wrapped = wrap(text, TITLE_CHARS)
    lines = wrapped.count("<br>") + 1
    top = [a for a in figure.layout.annotations if a.yref == "paper" and (a.y or 0) >= 0.99]  # subplot titles
    clear = 14 + max((16 * (str(a.text or "").count("<br>") + 1) + (a.yshift or 0) for a in top), default=0)
    need = clear + 22 * lines + 16
    figure.update_layout(title={"text": wrapped, "y": 1, "yref": "paper", "yanchor": "bottom", "pad": {"b": clear + 22 * (lines - 1)}})
    if figure.layout.margin.t is None or figure.layout.margin.t < need:
        figure.update_layout(margin_t=need)


def _axis_title(figure: Any, axis: Any, letter: str) -> None:
    """A y title longer than its panel is tall (or an x title wider than its panel) broken into lines."""
    text = axis.title.text
    if not text or "<br>" in text:
        return
    margin = figure.layout.margin
    if letter == "y":
        size = (figure.layout.height or 450) - (margin.t if margin.t is not None else 100) - (margin.b if margin.b is not None else 80)
    else:
        size = 736 - (margin.l if margin.l is not None else 80) - (margin.r if margin.r is not None else 80)
    low, high = axis.domain if axis.domain is not None else (0, 1)
    chars = max(12, int(size * (high - low) / 7))
    if len(text) > chars:
        axis.update(title_text=wrap(text, chars), automargin=True)


def readable_axes(figure: Any) -> Any:
    """`figure` with readable ticks on every 2-D axis and colorbar (see the module docstring); returned."""
    layout = figure.layout
    for name in [key for key in layout.to_plotly_json() if key.startswith(("xaxis", "yaxis"))] or ["xaxis", "yaxis"]:
        axis = layout[name]
        fixed_scale = axis.scaleanchor is not None or axis.constrain is not None  # automargin would shrink it
        if axis.automargin is None and not fixed_scale:  # long tick labels push the title out, not under it
            axis.automargin = True
        _axis_title(figure, axis, name[0])
        if _chose_own_ticks(axis) or axis.type in ("category", "date", "multicategory"):
            continue
        data = _data_on(figure, name[0], name)
        if axis.type == "log":
            _log(axis, data)
        else:
            _linear(axis, data)
    _colorbars(figure)
    _title(figure)
    return figure
