"""Figures: the LGSSM benchmark (landscape, errors), moment error against N, the shift derivative, filter
gradients against Kalman, estimation paths."""

from __future__ import annotations

import plotly.graph_objects as go

from models.diffusion_resampling.result import Result

__all__ = ["figures"]

_COLORS = {
    "multinomial": "#636efa",
    "systematic": "#00cc96",
    "soft": "#ab63fa",
    "gumbel": "#19d3f3",
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
        xaxis={"title": "particles N", "type": "log", "dtick": 1},
        yaxis={"title": "RMSE of (mean, covariance) over repeats (unitless)", "type": "log", "dtick": 1},
    )
    return fig


def _derivative(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in result.resamplers:
        points = result.derivative[name]
        fig.add_trace(go.Scatter(
            x=[p.n for p in points], y=[p.rmse for p in points], mode="lines+markers",
            name=f"{result.labels[name]} ({'autograd' if 'autograd' in points[0].estimator else 'finite diff., CRN'})",
            line={"color": _COLORS[name]},
        ))
    own = result.importance_derivative
    fig.add_trace(go.Scatter(
        x=[p.n for p in own], y=[p.rmse for p in own], mode="lines+markers",
        name="Weighted set before resampling", line={"color": "gray", "dash": "dash"},
    ))
    fig.update_layout(
        title=f"d(resampled mean)/dy: error to the exact {result.exact_derivative:.3f}",
        xaxis={"title": "particles N", "type": "log", "dtick": 1},
        yaxis={"title": "RMSE of d mean_1 / dy over repeats (unitless)", "type": "log", "dtick": 1},
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
        title=f"dl/dtheta at theta = {result.theta_eval}: {result.filters} filters of {result.filter_particles} particles",
        xaxis={"title": "resampler"},
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


def _paired(result: Result) -> go.Figure:
    fig = go.Figure()
    for rival in ("ot",):
        rows = [(s.seed, s.comparisons[rival]) for s in result.per_seed if rival in s.comparisons]
        if not rows:
            continue
        fig.add_trace(go.Scatter(
            x=[f"seed {seed}" for seed, _ in rows], y=[c.point for _, c in rows], mode="markers",
            name=f"vs {result.labels[rival]}", marker={"color": _COLORS[rival], "size": 10},
            error_y={"type": "data", "symmetric": False, "array": [c.high - c.point for _, c in rows],
                     "arrayminus": [c.point - c.low for _, c in rows]},
        ))
    fig.add_hline(y=0.0, line_dash="dot", annotation_text="no difference")
    fig.update_layout(
        title=f"RMSE(diffusion) - RMSE(rival) of dl/dtheta, paired bootstrap 95% interval over {result.filters} filters",
        xaxis={"title": "seed"}, yaxis={"title": "RMSE difference (nats per unit theta); below 0: diffusion better"},
    )
    return fig


def _landscape(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in result.resamplers:
        fig.add_trace(go.Scatter(
            x=result.thetas, y=[a - b for a, b in zip(result.landscape[name], result.kalman_landscape, strict=True)],
            mode="lines+markers", name=result.labels[name], line={"color": _COLORS[name]},
        ))
    fig.add_hline(y=0.0, line_dash="dot", annotation_text="Kalman (exact)")
    fig.update_layout(
        title=f"Log-likelihood landscape, data set 1 of seed {result.seeds[0]} ({result.observations} observations; "
              "each filter with common random numbers over the grid)",
        xaxis={"title": "theta (transition coefficient)"},
        yaxis={"title": "filter log-likelihood - Kalman's (nats)"},
    )
    return fig


def _benchmark(result: Result) -> go.Figure:
    fig = go.Figure()
    for name in result.resamplers:
        values = [v for s in result.per_seed for v in s.benchmark[name].landscape]
        fig.add_trace(go.Box(y=values, name=result.labels[name], boxpoints="all", jitter=0.4,
                             marker={"color": _COLORS[name]}))
    fig.update_layout(
        title=f"Landscape error of each tuned resampler: {result.data_sets} data sets x {len(result.seeds)} seed(s)",
        xaxis={"title": "resampler (tuned on its grid)"},
        yaxis={"title": "RMS over the theta grid of log-lik. - Kalman's (nats)"}, showlegend=False,
    )
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    out = {
        "landscape": _landscape(result),
        "benchmark": _benchmark(result),
        "moment_error": _moment_error(result),
        "derivative": _derivative(result),
        "gradient": _gradient(result),
        "paired": _paired(result),
    }
    if result.estimation:
        out["estimation"] = _estimation(result)
    return out
