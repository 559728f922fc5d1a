"""Figures of an LMNet run: exact match against label count (mean ± sd over seeds), trainable parameters."""

from __future__ import annotations

import plotly.graph_objects as go

from models.lmnet.result import LABELS, Result

__all__ = ["figures"]


def figures(result: Result) -> dict[str, go.Figure]:
    counts = [r.labels for r in result.rows]
    curve = go.Figure()
    for key, symbol in zip(result.variants, ("circle", "star", "square", "diamond", "triangle-up"), strict=True):
        curve.add_trace(go.Scatter(x=counts, y=[100 * r.mean[key] for r in result.rows], mode="lines+markers" if len(counts) > 1 else "markers",
                                   error_y={"type": "data", "array": [100 * r.sd[key] for r in result.rows]},
                                   name=LABELS[key], marker={"symbol": symbol, "size": 9}))
    curve.add_hline(y=100 * result.text_ceiling, line_dash="dot", annotation_text="text ceiling (unmarked test words)")
    seeds = len(result.seeds_run)
    curve.update_layout(title=f"Exact match on the composed task ({seeds} seed{'s' if seeds > 1 else ''})",
                        xaxis_title="labelled training words (count)", yaxis_title="test exact match (%)",
                        yaxis_range=[0, 102], legend={"orientation": "h", "y": -0.25})
    if len(counts) > 1:
        curve.update_xaxes(type="log", tickvals=counts, ticktext=[str(c) for c in counts])
    else:
        curve.update_xaxes(tickvals=counts, ticktext=[str(c) for c in counts])
    keys = list(result.trainable_parameters)
    params = go.Figure(go.Bar(x=[LABELS.get(k, k) for k in keys], y=[result.trainable_parameters[k] for k in keys]))
    params.update_layout(title=f"Trainable parameters (frozen nodes: {result.frozen_parameters:,})",
                         xaxis_title="variant", yaxis_title="trainable parameters (count)")
    return {"exact_match": curve, "parameters": params}
