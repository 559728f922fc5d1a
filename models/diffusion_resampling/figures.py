"""Figures: moment error against N, the shift derivative, filter gradients against Kalman, estimation paths."""

from __future__ import annotations

import plotly.graph_objects as go

from models.diffusion_resampling.result import Result

__all__ = ["figures"]

_COLORS = {
    "multinomial": "#636efa",
    "systematic": "#00cc96",
    "soft": "#ab63fa",
    "ot": "#ffa15a",
    "diffusion": "#ef553b",
}


def _moment_error(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in result.resamplers:
        points = result.moment_error[name]
        fig.add_trace(go.Scatter(
            x=[p.n for p in points], y=[p.rmse for p in points], mode="lines+markers",
            name=result.labels[name], line={"color": _COLORS[name]},
        ))
    fig.add_trace(go.Scatter(
        x=[p.n for p in result.importance_error], y=[p.rmse for p in result.importance_error],
        mode="lines+markers", name="Weighted set before resampling", line={"color": "gray", "dash": "dash"},
    ))
    fig.update_layout(
        title="Moment error vs N (exact posterior)",
        xaxis={"title": "particles N", "type": "log"},
        yaxis={"title": "RMSE of (mean, covariance) over repeats", "type": "log"},
    )
    return fig


def _shift_derivative(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in result.resamplers:
        points = result.mean_shift_derivative[name]
        fig.add_trace(go.Scatter(
            x=[p.n for p in points], y=[p.value for p in points], mode="lines+markers",
            error_y={"type": "data", "array": [p.std for p in points], "visible": True},
            name=f"{result.labels[name]} ({'autograd' if 'autograd' in points[0].estimator else 'finite diff.'})",
            line={"color": _COLORS[name]},
        ))
    fig.add_hline(y=1.0, line_dash="dot", annotation_text="exact: 1")
    fig.update_layout(
        title="d(resampled mean) / d(shift): mean ± std",
        xaxis={"title": "particles N", "type": "log"},
        yaxis={"title": "derivative (dimensionless)"},
    )
    return fig


def _gradient(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in result.resamplers:
        fig.add_trace(go.Box(
            y=result.gradient[name].samples, name=result.labels[name], boxpoints="all", jitter=0.4,
            marker={"color": _COLORS[name]},
        ))
    fig.add_hline(y=result.kalman_gradient, line_dash="dash", annotation_text="Kalman (exact)")
    fig.update_layout(
        title=f"dl/dtheta at theta = {result.theta_eval}, {result.filter_particles} particles",
        yaxis={"title": "d log-likelihood / d theta (nats per unit theta)"},
        showlegend=False,
    )
    return fig


def _estimation(result: Result) -> go.Figure:
    fig = go.Figure()
    for name, summary in result.estimation.items():
        mean_path = [sum(thetas) / len(thetas) for thetas in summary.path]
        fig.add_trace(go.Scatter(
            x=list(range(len(mean_path))), y=mean_path, mode="lines+markers", name=result.labels[name],
            line={"color": _COLORS[name]},
        ))
    fig.add_hline(y=result.kalman_mle, line_dash="dash", annotation_text="Kalman MLE")
    fig.add_hline(y=result.true_theta, line_dash="dot", annotation_text="true theta")
    fig.update_layout(
        title="Gradient ascent on theta through the filter",
        xaxis={"title": "Adam step"},
        yaxis={"title": "theta (transition coefficient)"},
    )
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    out = {
        "moment_error": _moment_error(result),
        "shift_derivative": _shift_derivative(result),
        "gradient": _gradient(result),
    }
    if result.estimation:
        out["estimation"] = _estimation(result)
    return out
