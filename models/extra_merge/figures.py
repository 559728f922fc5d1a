"""Plotly figures of an Extra-Merge run: losses per method and phase, loss against beta, PCA, the training curve."""

from __future__ import annotations

import plotly.graph_objects as go

from models.common.plots import PALETTE, Series, theory_vs_simulation
from models.extra_merge.result import Result

__all__ = ["figures"]

_METHODS = (("last checkpoint", "loss_last"), ("plain merge", "loss_merge"), ("EMA", "loss_ema"),
            ("LAWA", "loss_lawa"), ("Extra-Merge", "loss_extrapolated"))


def _methods(result: Result) -> go.Figure:
    """Test loss above the floor, per method, for both phases; one marker per seed."""
    fig = go.Figure()
    for k, (name, key) in enumerate(_METHODS):
        for phase in ("falling", "plateau"):
            cuts = [getattr(s, phase) for s in result.seeds_run]
            fig.add_trace(go.Box(
                x=[f"{phase} (step {cuts[0].step})"] * len(cuts), y=[getattr(c, key) - c.floor for c in cuts],
                name=name, marker_color=PALETTE[k], boxpoints="all", legendgroup=name, showlegend=phase == "falling",
                hovertext=[f"seed {s.seed}" for s in result.seeds_run],
            ))
    fig.update_layout(boxmode="group", height=440, title="Test loss above the loss floor, per method (one point per "
                      "seed)", xaxis_title="analysis point", yaxis_title="test loss - Bayes floor (nats/token)",
                      legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0})
    return fig


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
        fig.add_trace(go.Scatter(x=[p.pc1 for p in points], y=[p.pc2 for p in points], name=names[kind],
                                 text=[f"{label} {p.step:g}" for p in points],
                                 hovertemplate="%{text}<extra></extra>", **styles[kind]))
    cut = result.seeds_run[0].falling
    fig.update_layout(
        title=f"Trajectory before step {cut.step} on the top two principal axes of the raw<br>checkpoints (seed "
        f"{result.seeds_run[0].seed})<br><sup>top-1 variance share of the last {cut.pca_steps + 1} merges "
        f"{cut.pca_merged:.2f} (raw {cut.pca_raw:.2f}, random walk {cut.pca_random_walk:.2f}; regime from 0.8)</sup>",
        xaxis_title="principal component 1 (parameter units)", yaxis_title="principal component 2 (parameter units)",
        height=480, legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0}, margin={"t": 110},
    )
    return fig


def _beta(result: Result) -> go.Figure:
    betas = [p.beta for p in result.betas]
    cut = result.seeds_run[0].falling
    fig = theory_vs_simulation(
        [Series("validation", x=betas, simulation=[p.val_loss for p in result.betas], simulation_label="chooses beta"),
         Series("test", x=betas, theory=[p.test_loss for p in result.betas], theory_label="reported")],
        title=f"Loss of merged + beta x step at step {cut.step} (beta chosen on validation: {cut.beta:g})",
        x_title="beta (mean merged steps along the top direction)", y_title="cross-entropy (nats/token)",
    )
    fig.add_hline(y=cut.best_baseline, line_dash="dot", line_color="#7f7f7f",
                  annotation_text="best of merge, EMA, LAWA (test)")
    return fig


def _training(result: Result) -> go.Figure:
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=result.train_steps, y=result.train_loss, mode="lines", line={"color": "#bbbbbb"},
                             name="training mini-batches (binned)"))
    fig.add_trace(go.Scatter(x=result.checkpoint_steps, y=result.val_loss, mode="markers", name="checkpoints "
                             "(validation)", marker={"color": "#1f77b4", "size": 4}))
    fig.add_trace(go.Scatter(x=result.checkpoint_steps, y=result.learning_rate, mode="lines", yaxis="y2",
                             name="learning rate / peak", line={"color": "#ff7f0e", "dash": "dot"}))
    fig.add_hline(y=result.floor, line_dash="dot", annotation_text="Bayes floor of the HMM")
    first = result.seeds_run[0]
    for cut in (first.falling, first.plateau):
        fig.add_vline(x=cut.step, line_dash="dash", line_color="grey", annotation_text=f"{cut.phase} analysis")
    fig.update_layout(title=f"Training curve (seed {first.seed}, {result.optimizer})", xaxis_title="training step",
                      yaxis_title="cross-entropy (nats/token)", height=420,
                      yaxis2={"title": "learning rate / peak", "overlaying": "y", "side": "right", "range": [0, 1.05]},
                      legend={"orientation": "h", "yanchor": "top", "y": -0.25, "x": 0})
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"methods": _methods(result), "loss_vs_beta": _beta(result), "trajectory_pca": _pca(result),
            "training_curve": _training(result)}
