"""Every axis a figure draws has a title (issue 47): 2-D axes, 3D scenes' axes and shown colorbars, on
each method's shared smoke run."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import pytest

from tests.smoke_runs import NAMES, SPECS, smoke_run

pytestmark = pytest.mark.slow


def _used_axes(figure: go.Figure) -> set[str]:
    """Layout names of the 2-D axes and scenes that some trace draws on ("xaxis2", "scene")."""
    used: set[str] = set()
    for trace in figure.data:
        if getattr(trace, "scene", None) is not None or trace.type in ("scatter3d", "mesh3d", "surface", "cone"):
            used.add(trace.scene or "scene")
        elif hasattr(trace, "xaxis"):
            used.add("xaxis" + (trace.xaxis or "x")[1:])
            used.add("yaxis" + (trace.yaxis or "y")[1:])
    return used


def _shown_colorbars(figure: go.Figure) -> list[Any]:
    out = []
    for trace in figure.data:
        coloured = trace.type != "mesh3d" or trace.intensity is not None  # a mesh of one colour has no scale
        if hasattr(trace, "colorbar") and trace.showscale is not False and coloured:
            out.append((trace.name or trace.type, trace.colorbar))
        marker = getattr(trace, "marker", None)
        if marker is not None and getattr(marker, "showscale", None) is True:
            out.append((trace.name or trace.type, marker.colorbar))
    return out


def untitled_axes(figure: go.Figure) -> list[str]:
    """The axes, scene axes and colorbars of `figure` that are drawn without a title."""
    missing = []
    for name in sorted(_used_axes(figure)):
        if name.startswith("scene"):
            scene = figure.layout[name]
            missing += [f"{name}.{a}" for a in ("xaxis", "yaxis", "zaxis")
                        if scene[a].visible is not False and not (scene[a].title.text or "").strip()]
            continue
        axis = figure.layout[name]
        if axis.visible is False or axis.showticklabels is False:
            continue
        if not (axis.title.text or "").strip():
            missing.append(name)
    missing += [f"colorbar of {label}" for label, bar in _shown_colorbars(figure) if not (bar.title.text or "").strip()]
    return missing


def test_the_check_sees_a_missing_title() -> None:
    figure = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]))
    figure.update_layout(xaxis_title="x")
    assert untitled_axes(figure) == ["yaxis", "colorbar of heatmap"]
    figure.update_layout(yaxis_title="y")
    figure.data[0].colorbar.title = "z"
    assert untitled_axes(figure) == []
    scene = go.Figure(go.Scatter3d(x=[0], y=[0], z=[0]))
    scene.update_layout(scene={"xaxis_title": "x (m)", "yaxis_title": "y (m)"})
    assert untitled_axes(scene) == ["scene.zaxis"]


@pytest.mark.parametrize("name", NAMES)
def test_every_axis_of_every_figure_has_a_title(name: str) -> None:
    result, _ = smoke_run(name)
    missing = {key: found for key, figure in SPECS[name].figures(result).items() if (found := untitled_axes(figure))}
    assert not missing, missing
