"""Figures of an LMNet run: exact match against label count, trainable parameters per variant."""

from __future__ import annotations

import plotly.graph_objects as go

from models.lmnet.result import LABELS, Result

__all__ = ["figures"]


def figures(result: Result) -> dict[str, go.Figure]:
    counts = [r.labels for r in result.rows]
    curve = go.Figure()
    for key, symbol in (("dense", "circle"), ("text", "square"), ("single", "diamond")):
        curve.add_trace(go.Scatter(x=counts, y=[100 * getattr(r, key) for r in result.rows], mode="lines+markers",
                                   name=LABELS[key], marker={"symbol": symbol, "size": 9}))
    curve.add_hline(y=100 * result.text_ceiling, line_dash="dot",
                    annotation_text="text ceiling (test words without marks)")
    curve.update_layout(title="Exact match on the composed task", xaxis_title="labelled training words",
                        yaxis_title="test exact match (%)", yaxis_range=[0, 102],
                        legend={"orientation": "h", "y": -0.25})
    keys = list(result.trainable_parameters)
    params = go.Figure(go.Bar(x=[LABELS.get(k, k) for k in keys], y=[result.trainable_parameters[k] for k in keys]))
    params.update_layout(title=f"Trainable parameters (frozen nodes: {result.frozen_parameters:,})",
                         xaxis_title="variant", yaxis_title="trainable parameters (count)")
    return {"exact_match": curve, "parameters": params}
