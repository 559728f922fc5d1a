"""Plotly figures of a low-precision scaling run: risk vs M, risk vs N, effective model size."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from models.common.plots import Series, theory_vs_simulation
from models.precision_scaling.claims import KAPPA_MARK
from models.precision_scaling.result import SCHEMES, Result

__all__ = ["figures"]

COLOURS = {"full": "#1f77b4", "multiplicative": "#2ca02c", "additive": "#d62728"}
SYMBOLS = {"full": "circle-open", "multiplicative": "x-thin-open", "additive": "square-open"}
DASHES = {"full": "solid", "multiplicative": "dash", "additive": "solid"}


def _fitted(result: Result, scheme: str, which: str) -> str:
    """The simulation's legend label with its fitted log-log slope."""
    fit = result.fits[scheme]  # type: ignore[index]
    exponent = fit.m_exponent if which == "m" else fit.n_exponent
    return "simulation" + ("" if exponent is None else f", slope {exponent:.2f}")


def _risk_vs_m(result: Result) -> go.Figure:
    series = [
        Series(s, simulation_label=_fitted(result, s, "m"), x=[p.m for p in result.risk[s]], simulation=[p.risk for p in result.risk[s]],
               low=[p.risk_min for p in result.risk[s]], high=[p.risk_max for p in result.risk[s]],
               theory=[p.theory for p in result.risk[s]], colour=COLOURS[s], symbol=SYMBOLS[s], dash=DASHES[s])
        for s in SCHEMES
    ]
    return theory_vs_simulation(
        series, title=f"Excess risk against model size M after N = {result.n_samples:,} samples "
        f"(multiplicative {result.multiplicative_bits} bit(s), additive {result.additive_bits} bits)",
        x_title="model size M (sketch dimension)", y_title="excess risk", log_x=True, log_y=True,
    )


def _risk_vs_n(result: Result) -> go.Figure:
    largest = result.risk["full"][-1].m
    series = [
        Series(s, simulation_label=_fitted(result, s, "n"), x=[p.n for p in result.risk_vs_n[s]], simulation=[p.risk for p in result.risk_vs_n[s]],
               theory=[p.theory for p in result.risk_vs_n[s]], colour=COLOURS[s], symbol=SYMBOLS[s], dash=DASHES[s])
        for s in SCHEMES
    ]
    return theory_vs_simulation(
        series, title=f"Excess risk against samples N at M = {largest} (tail-averaged SGD)",
        x_title="samples seen N", y_title="excess risk", log_x=True, log_y=True,
    )


def _effective(result: Result) -> go.Figure:
    sizes = [e.m for e in result.effective_model_size["full"]]
    series = [
        Series(s, x=sizes, theory=[e.m_eff for e in result.effective_model_size[s]], colour=COLOURS[s],
               theory_label="m_eff, theory", dash=DASHES[s],
               simulation=[e.m_from_risk for e in result.effective_model_size[s]], symbol=SYMBOLS[s],
               simulation_label="full-precision size with the same simulated risk")
        for s in SCHEMES
    ]
    fig = theory_vs_simulation(
        series, title="Effective model size: trace formula (theory), same-risk size, and kappa M from the fit",
        x_title="model size M", y_title="effective model size m_eff", log_x=True, log_y=True,
    )
    fig.add_trace(go.Scatter(x=sizes, y=sizes, mode="lines", line={"color": "grey", "dash": "dot"}, name="m_eff = M"))
    for scheme in ("multiplicative", "additive"):
        kappa = sum(r.kappa[scheme] for r in result.per_seed) / len(result.per_seed)
        fig.add_trace(go.Scatter(x=sizes, y=[kappa * m for m in sizes], mode="lines",
                                 line={"color": COLOURS[scheme], "width": 4}, opacity=0.4,
                                 name=f"{scheme}: kappa M from the risk fit (kappa {kappa:.2f}, seed mean)"))
    return fig


def _per_seed(result: Result) -> go.Figure:
    """The claims' two quantities seed by seed, with their thresholds."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=("kappa = M_eff / M, fitted to<br>the simulated risks over M",
                                                        f"N_eff / N at N = {result.per_seed[0].n:,}"), horizontal_spacing=0.16)
    seeds = [str(r.seed) for r in result.per_seed]
    for scheme in ("multiplicative", "additive"):
        fig.add_trace(go.Bar(x=seeds, y=[r.kappa[scheme] for r in result.per_seed], name=scheme,
                             marker_color=COLOURS[scheme], legendgroup=scheme), row=1, col=1)
        fig.add_trace(go.Bar(x=seeds, y=[r.n_eff_fraction[scheme] for r in result.per_seed], name=scheme,
                             marker_color=COLOURS[scheme], legendgroup=scheme, showlegend=False), row=1, col=2)
    fig.add_hline(y=KAPPA_MARK, line_dash="dash", line_color="grey", row=1, col=1,
                  annotation_text=f"kept: >= {KAPPA_MARK}; reduced: < {KAPPA_MARK}")
    fig.add_hline(y=1.0, line_dash="dash", line_color="grey", row=1, col=2, annotation_text="degrades: < 1")
    fig.update_xaxes(title_text="seed", type="category")
    fig.update_yaxes(title_text="effective model size / M (from risk)", row=1, col=1)
    fig.update_yaxes(title_text="effective data size / N", row=1, col=2)
    fig.update_layout(title="The claims per seed at matched noise", barmode="group")
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    return {"claims_per_seed": _per_seed(result), "risk_vs_model_size": _risk_vs_m(result),
            "risk_vs_samples": _risk_vs_n(result), "effective_model_size": _effective(result)}
