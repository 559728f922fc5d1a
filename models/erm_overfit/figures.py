"""Plotly figures: population excess per seed (bad exact ERM vs regularised ERM), inner products at the ERM."""

from __future__ import annotations

import plotly.graph_objects as go

from models.erm_overfit.result import Result

__all__ = ["figures"]


def _excess(result: Result) -> go.Figure:
    seeds = [f"seed {o.seed}" for o in result.outcomes]
    fig = go.Figure()
    fig.add_trace(go.Bar(x=seeds, y=[o.bad_erm_excess or 0.0 for o in result.outcomes], marker_color="#d62728",
                         name="a codeword in no sample (an exact minimiser of the Feldman part)"))
    fig.add_trace(go.Bar(x=seeds, y=[o.erm_excess for o in result.outcomes], marker_color="#1f77b4",
                         name="the unique regularised ERM (solver), Feldman part"))
    fig.add_trace(go.Bar(x=seeds, y=[o.erm_excess_total for o in result.outcomes], marker_color="#9ecae1",
                         name="the unique regularised ERM, with lambda/2 ||x||^2"))
    fig.add_hline(y=result.guarantee, line_dash="dot", annotation_text="(1 - theta)/2: guaranteed for an unseen codeword")
    fig.update_layout(barmode="group", height=440, xaxis_title="training sample",
                      yaxis_title="population excess F(x) - min F (loss units)",
                      title=f"Population excess of two empirical minimisers (d = {result.dimension}, m = "
                      f"{result.samples}, {result.code_size:,} codewords)",
                      legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0})
    return fig


def _inner(result: Result) -> go.Figure:
    seen = [v for v, u in zip(result.inner_products, result.unseen_mask, strict=True) if not u]
    unseen = [v for v, u in zip(result.inner_products, result.unseen_mask, strict=True) if u]
    fig = go.Figure()
    fig.add_trace(go.Histogram(x=seen, name="codewords in some sample", marker_color="#7f7f7f", nbinsx=60))
    fig.add_trace(go.Histogram(x=unseen, name="codewords in no sample", marker_color="#d62728", nbinsx=60))
    fig.add_vline(x=result.theta, line_dash="dash", annotation_text="theta: above it a codeword's term is active")
    fig.update_layout(barmode="overlay", height=400, yaxis_type="log", xaxis_title="<w, x> at the regularised ERM",
                      yaxis_title="number of codewords", legend={"orientation": "h", "yanchor": "top", "y": -0.2},
                      title=f"Where the regularised ERM lies (seed {result.outcomes[0].seed}): it overfits only if "
                      "some unseen codeword has <u, x> > theta")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"excess": _excess(result), "inner_products": _inner(result)}
