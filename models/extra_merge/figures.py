"""Plotly figures of an Extra-Merge run: PCA of the trajectories, loss against beta, the training curve."""

from __future__ import annotations

import plotly.graph_objects as go

from models.common.plots import Series, theory_vs_simulation
from models.extra_merge.result import Result

__all__ = ["figures"]


def _pca(result: Result) -> go.Figure:
    fig = go.Figure()
    styles = {
        "raw": {"mode": "lines+markers", "line": {"color": "#9e9e9e", "width": 1}, "marker": {"size": 4}},
        "merged": {"mode": "lines+markers", "line": {"color": "#1f77b4", "width": 3}, "marker": {"size": 9}},
        "extrapolated": {"mode": "lines+markers", "line": {"color": "#d62728", "dash": "dot"},
                         "marker": {"size": 7, "symbol": "diamond"}},
    }
    names = {"raw": "raw checkpoints", "merged": "merged checkpoints (block means)",
             "extrapolated": "extrapolation theta(beta)"}
    for kind in ("raw", "merged", "extrapolated"):
        points = [p for p in result.trajectory if p.kind == kind]
        label = "beta" if kind == "extrapolated" else "step"
        fig.add_trace(go.Scatter(
            x=[p.pc1 for p in points], y=[p.pc2 for p in points], name=names[kind],
            text=[f"{label} {p.step:g}" for p in points], hovertemplate="%{text}<extra></extra>", **styles[kind],
        ))
    fig.update_layout(
        title="Late trajectory on the top two principal axes of the raw checkpoints<br><sup>top-1 share of the "
        f"last {result.pca_steps} steps: raw {result.top1_share_raw:.2f}, merged {result.top1_share_merged:.2f}</sup>",
        xaxis_title="principal component 1 (parameter units)", yaxis_title="principal component 2 (parameter units)",
        height=480, legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0},
    )
    return fig


def _beta(result: Result) -> go.Figure:
    betas = [p.beta for p in result.betas]
    fig = theory_vs_simulation(
        [Series("validation", x=betas, simulation=[p.val_loss for p in result.betas], simulation_label="picks beta"),
         Series("test", x=betas, theory=[p.test_loss for p in result.betas], theory_label="reported")],
        title=f"Loss of merged + beta x step (best beta on validation: {result.best_beta:g})",
        x_title="beta (mean merged steps along the top direction)", y_title="cross-entropy (nats/token)",
    )
    fig.add_vline(x=0.0, line_dash="dash", line_color="grey", annotation_text="beta = 0: plain merge")
    fig.add_hline(y=result.loss_last, line_dash="dot", line_color="#7f7f7f", annotation_text="last checkpoint (test)")
    return fig


def _training(result: Result) -> go.Figure:
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=result.train_steps, y=result.train_loss, mode="lines", name="training mini-batches (binned)",
                             line={"color": "#bbbbbb"}))
    fig.add_trace(go.Scatter(x=result.checkpoint_steps, y=result.val_loss, mode="markers", name="checkpoints (validation)",
                             marker={"color": "#1f77b4", "size": 5}))
    fig.add_hline(y=result.entropy_rate, line_dash="dot", annotation_text="entropy rate of the chain (floor)")
    fig.update_layout(title=f"Training curve ({result.optimizer}, {result.device})", xaxis_title="training step",
                      yaxis_title="cross-entropy (nats/token)", height=420,
                      legend={"orientation": "h", "yanchor": "top", "y": -0.25, "x": 0})
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"trajectory_pca": _pca(result), "loss_vs_beta": _beta(result), "training_curve": _training(result)}
