"""Figures of a TN-SHAP-G result: the molecule coloured by Shapley value, pairs, bars, errors."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from models.shapley_graph.depiction import SCALE, colour
from models.shapley_graph.result import Result

__all__ = ["figures"]


SII_FLOOR = 1e-9  # below this an estimated interaction is float noise (phi are sums of order-1 terms)


def _labels(result: Result) -> list[str]:
    return [f"{e}{i + 1}" for i, e in enumerate(result.elements)]  # atoms counted from 1, as in the tables


def _sii_matrix(result: Result, exact: bool = False) -> np.ndarray:
    n = result.n_atoms
    pairs = result.exact.interactions if exact and result.exact else result.interactions
    m = np.zeros((n, n))
    for p in pairs:
        m[p.i, p.j] = m[p.j, p.i] = p.sii
    return m


def _colour(value: float, bound: float) -> str:
    return colour(value, bound)


def _colourbar(title: str, x: float) -> dict[str, object]:
    """A vertical colourbar with a horizontal title and a few short ticks, placed at x (paper units)."""
    return dict(title=dict(text=title, side="top"), x=x, len=0.8, thickness=14, nticks=5, tickformat=".2~g")


def molecule_figure(result: Result) -> go.Figure:
    """Atoms at RDKit 2D coordinates coloured by Shapley value; bonds (and strong non-bonded pairs) by SII."""
    xy = np.array(result.coords)
    phi = np.array([a.shapley for a in result.atoms])
    sii = _sii_matrix(result)
    bond_sii = np.array([sii[u, v] for u, v in result.bonds]) if result.bonds else np.zeros(0)
    bound = float(max(np.abs(bond_sii).max(initial=0.0), 1e-9))
    fig = go.Figure()
    bonded = {(min(u, v), max(u, v)) for u, v in result.bonds}
    others = sorted(((abs(sii[i, j]), i, j) for i in range(result.n_atoms) for j in range(i + 1, result.n_atoms)
                     if (i, j) not in bonded), reverse=True)[:5]
    for strength, i, j in others:
        if strength > 0.25 * bound:
            fig.add_trace(go.Scatter(x=xy[[i, j], 0], y=xy[[i, j], 1], mode="lines", hoverinfo="skip",
                                     line=dict(color=_colour(sii[i, j], bound), width=2, dash="dot"), showlegend=False))
    for (u, v), value, order in zip(result.bonds, bond_sii, result.bond_orders, strict=True):
        fig.add_trace(go.Scatter(x=xy[[u, v], 0], y=xy[[u, v], 1], mode="lines", hoverinfo="skip",
                                 line=dict(color=_colour(value, bound), width=3 + 3 * (order > 1.2)),
                                 showlegend=False))
    if result.bonds:
        mid = np.array([(xy[u] + xy[v]) / 2 for u, v in result.bonds])
        fig.add_trace(go.Scatter(
            x=mid[:, 0], y=mid[:, 1], mode="markers", name="bond SII",
            marker=dict(size=6, color=bond_sii, colorscale=SCALE, cmid=0, cmin=-bound, cmax=bound,
                        colorbar=_colourbar("bond SII", 1.16)),
            customdata=np.array([[u, v] for u, v in result.bonds]),
            hovertemplate="bond %{customdata[0]}-%{customdata[1]}<br>SII %{marker.color:.4f}<extra></extra>",
            showlegend=False))
    phi_bound = float(max(np.abs(phi).max(initial=0.0), 1e-9))
    fig.add_trace(go.Scatter(
        x=xy[:, 0], y=xy[:, 1], mode="markers+text", text=_labels(result), name="atoms",
        textfont=dict(color="black", size=11),
        marker=dict(size=34, color=phi, colorscale=SCALE, cmid=0, cmin=-phi_bound, cmax=phi_bound,
                    line=dict(color="#333", width=1), colorbar=_colourbar("phi", 1.02)),
        customdata=np.array([[a.index + 1, a.element, a.banzhaf] for a in result.atoms], dtype=object),
        hovertemplate="%{customdata[1]} atom %{customdata[0]}<br>Shapley %{marker.color:.4f}"
                      "<br>Banzhaf %{customdata[2]:.4f}<extra></extra>",
        showlegend=False))
    fig.update_layout(
        title=f"{result.name or result.smiles}: atoms coloured by Shapley value, bonds by pair interaction (SII)",
        xaxis=dict(visible=False, title="drawing x (2D layout units)"),
        yaxis=dict(visible=False, scaleanchor="x", title="drawing y (2D layout units)"), plot_bgcolor="white",
        height=520, margin=dict(r=140))
    return fig


def heatmap_figure(result: Result) -> go.Figure:
    """The full SII matrix: every pair of atoms, not only bonded ones."""
    sii = _sii_matrix(result)
    sii[np.abs(sii) < SII_FLOOR] = 0.0  # float noise around 0 is no interaction (not a "1n" colorbar)
    bound = float(np.abs(sii).max(initial=0.0)) or 1.0
    labels = _labels(result)
    fig = go.Figure(go.Heatmap(z=sii, x=labels, y=labels, colorscale=SCALE, zmid=0, zmin=-bound, zmax=bound,
                               colorbar=dict(title="SII"),
                               hovertemplate="%{y} x %{x}<br>SII %{z:.4f}<extra></extra>"))
    every = dict(tickmode="array", tickvals=labels, ticktext=labels, tickfont=dict(size=10)) if result.n_atoms <= 40 else {}
    fig.update_layout(title="Pairwise Shapley interaction index (TN-SHAP-G estimate)",
                      xaxis=dict(title="atom", **every), yaxis=dict(title="atom", autorange="reversed", **every),
                      height=560)
    return fig


def bar_figure(result: Result) -> go.Figure:
    """Shapley and Banzhaf values per atom, with the exact Shapley values when n <= 16."""
    labels = _labels(result)
    fig = go.Figure()
    spread = [a.shapley_std for a in result.atoms]
    error_y = dict(type="data", array=[2 * (v or 0.0) for v in spread]) if spread[0] is not None else None
    fig.add_trace(go.Bar(x=labels, y=[a.shapley for a in result.atoms], name="Shapley (TN-SHAP-G)",
                         marker_color="#d6604d", error_y=error_y))
    fig.add_trace(go.Bar(x=labels, y=[a.banzhaf for a in result.atoms], name="Banzhaf (TN-SHAP-G)",
                         marker_color="#92c5de"))
    if result.exact is not None:
        fig.add_trace(go.Scatter(x=labels, y=[a.shapley for a in result.exact.atoms], mode="markers",
                                 name="Shapley (exact)", marker=dict(symbol="diamond", size=10, color="black")))
    title = "Contribution of each atom to the prediction"
    if error_y is not None:
        title += f" (bars: ±2 std over {result.ensemble} fits)"
    fig.update_layout(title=title, xaxis_title="atom",
                      yaxis_title="value (logP units)", barmode="group", height=420,
                      xaxis=dict(type="category", tickmode="array", tickvals=labels, ticktext=labels, tickangle=-45
                                 if result.n_atoms > 30 else 0),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0))
    return fig


def exact_figure(result: Result) -> go.Figure:
    """Estimated against exact values: points on the diagonal are exact."""
    assert result.exact is not None
    est_phi = [a.shapley for a in result.atoms]
    true_phi = [a.shapley for a in result.exact.atoms]
    est_sii = [p.sii for p in result.interactions]
    true_sii = [p.sii for p in result.exact.interactions]
    everything = np.array(est_phi + true_phi + est_sii + true_sii)
    lo, hi = float(everything.min()), float(everything.max())
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="y = x", line=dict(color="grey", dash="dash")))
    fig.add_trace(go.Scatter(x=true_phi, y=est_phi, mode="markers", name="Shapley value of an atom",
                             text=_labels(result), marker=dict(size=9, color="#d6604d")))
    fig.add_trace(go.Scatter(x=true_sii, y=est_sii, mode="markers", name="SII of a pair",
                             text=[f"{p.i + 1}-{p.j + 1}" for p in result.interactions],
                             marker=dict(size=6, color="#4393c3", opacity=0.7)))
    method = result.exact.method.replace("_", " ")
    fig.update_layout(title=f"TN-SHAP-G estimate against the exact values ({method})",
                      xaxis_title="exact value (logP units)", yaxis_title="estimate (logP units)", height=460)
    return fig


def curve_figure(result: Result) -> go.Figure:
    """Relative L2 error against exact as the query budget grows, per estimator."""
    fig = go.Figure()
    for method in dict.fromkeys(p.method for p in result.error_curve):
        pts = [p for p in result.error_curve if p.method == method]
        if any(p.shapley_error is not None for p in pts):
            fig.add_trace(go.Scatter(x=[p.budget for p in pts], y=[100 * (p.shapley_error or 0) for p in pts],
                                     mode="lines+markers", name=f"{method} (Shapley)"))
        if any(p.sii_error is not None for p in pts):
            fig.add_trace(go.Scatter(x=[p.budget for p in pts], y=[100 * (p.sii_error or 0) for p in pts],
                                     mode="lines+markers", name=f"{method} (SII)", line=dict(dash="dot")))
    fig.update_layout(title="Error against exact values vs. query budget", xaxis_title="model queries",
                      yaxis_title="relative L2 error (%)", yaxis_type="log", xaxis_type="log", height=440)
    return fig


def masking_figure(result: Result) -> go.Figure:
    """Correlation of the exact phi with the Crippen atom contributions under each masking choice."""
    rows = result.masking_comparison
    fig = go.Figure(go.Bar(x=[r.masking for r in rows], y=[r.crippen_correlation for r in rows],
                           text=[f"{r.crippen_correlation:.2f}" for r in rows], textposition="outside",
                           marker_color=["#d6604d" if r.masking == result.masking else "#92c5de" for r in rows]))
    fig.update_layout(title="Exact phi against Crippen atom contributions, per masking choice",
                      xaxis_title="masking (this run's in red)", yaxis_title="Pearson correlation",
                      yaxis_range=[min(0.0, min(r.crippen_correlation for r in rows)) - 0.05, 1.1], height=380)
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    """molecule, bars, heatmap; plus exact comparison, error curve and maskings when they exist."""
    out = {"molecule": molecule_figure(result), "shapley_bars": bar_figure(result), "sii_heatmap": heatmap_figure(result)}
    if result.exact is not None:
        out["exact_vs_estimate"] = exact_figure(result)
    if result.error_curve:
        out["error_curve"] = curve_figure(result)
    if result.masking_comparison:
        out["masking"] = masking_figure(result)
    return out
