"""Figures of an HEDP run: energy histograms with and without the band, the selection confusion, accuracies."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.hedp.result import SELECTOR_LABELS, Result

__all__ = ["figures"]

SHORT = {"hybrid": "hybrid (HEDP)", "energy_only": "energy only", "distance_only": "distance only",
         "nearest_centroid": "nearest centroid"}


def _energies(result: Result) -> go.Figure:
    seen = result.seen_domains
    rows = [("regulariser on", result.regularised), ("regulariser off", result.unregularised)]
    fig = make_subplots(  # one column per prompt (titled once), one row per variant (named on the y axis)
        rows=2, cols=len(seen), subplot_titles=[f"'{d}'<br>prompt" for d in seen] + [""] * len(seen),
        vertical_spacing=0.12, horizontal_spacing=0.04, shared_xaxes=True, shared_yaxes=True,
    )
    for r, (_, variant) in enumerate(rows):
        for c, sample in enumerate(variant.energies):
            for kind, values, colour in (("own domain", sample.matched, "#1f77b4"), ("other seen domains", sample.mismatched, "#d62728")):
                fig.add_histogram(
                    x=values, name=kind, marker_color=colour, opacity=0.6, nbinsx=30,
                    showlegend=r == 0 and c == 0, legendgroup=kind, row=r + 1, col=c + 1,
                )
    for r, (label, _) in enumerate(rows):  # shared axes: ticks and title on the first column and the last row
        fig.update_yaxes(title_text=f"{label}: inputs (count)", row=r + 1, col=1)
    fig.update_xaxes(title_text="energy E", row=2)
    fig.update_layout(title="Energy E = -logsumexp(logits) of each prompt (first seed): own domain vs other seen domains",
                      barmode="overlay", height=620,
                      legend={"orientation": "h", "yanchor": "top", "y": -0.12, "xanchor": "left", "x": 0})
    return fig


def _confusion(result: Result) -> go.Figure:
    v = result.regularised
    fig = go.Figure(
        go.Heatmap(
            z=[[c / max(sum(row), 1) * 100 for c in row] for row in v.confusion],
            x=[f"prompt '{d}'" for d in result.seen_domains],
            y=result.domains,
            zmin=0, zmax=100, colorscale="Blues", texttemplate="%{z:.0f}",
            colorbar={"title": "share of inputs (%)"},
        )
    )
    fig.update_layout(
        title="Hybrid domain selection, first seed: chosen prompt per true domain (%; last row unseen)",
        xaxis_title="prompt chosen (arg-max fused weight)", yaxis_title="true domain of the test input",
        yaxis_autorange="reversed",
    )
    return fig


def _accuracy(result: Result) -> go.Figure:
    fig = go.Figure()
    keys = list(SELECTOR_LABELS)
    n = len(result.per_seed)
    for label, metric in (
        ("domain selection (seen)", "selection_accuracy"),
        ("classification, seen domains", "seen_accuracy"),
        (f"classification, unseen ({result.unseen_domain})", "unseen_accuracy"),
    ):
        per_seed = [[100 * getattr(s, metric)[k] for s in result.per_seed] for k in keys]
        spread = [float(np.std(v, ddof=1)) if n > 1 else 0.0 for v in per_seed]
        fig.add_bar(x=[SHORT[k] for k in keys], y=[float(np.mean(v)) for v in per_seed], name=label,
                    error_y={"type": "data", "array": spread, "visible": n > 1},
                    texttemplate="%{y:.1f}", textposition="outside")
    fig.update_layout(
        title=f"Selection and classification accuracy per selector (mean ± sd over {n} seed{'s' * (n > 1)})",
        xaxis_title="selector", yaxis_title="accuracy (%)", yaxis_range=[0, 105], barmode="group",
    )
    return fig


def _per_domain(result: Result) -> go.Figure:
    fig = go.Figure()
    for key in SELECTOR_LABELS:
        per = result.regularised.per_domain_accuracy[key]
        fig.add_bar(x=list(per), y=[100 * v for v in per.values()], name=SHORT[key])
    fig.update_layout(
        title="Classification accuracy per test domain, first seed (the last one is unseen)",
        xaxis_title="test domain", yaxis_title="accuracy (%)", barmode="group", yaxis_range=[0, 100],
    )
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {
        "energy_histograms": _energies(result),
        "selection_confusion": _confusion(result),
        "accuracy": _accuracy(result),
        "per_domain": _per_domain(result),
    }
