"""Figures of a TN-SHAP-G result: the molecule coloured by Shapley value, pairs, bars, errors."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from models.shapley_graph.result import Result

__all__ = ["figures"]

SCALE = "RdBu_r"  # red raises the prediction (more lipophilic for logP), blue lowers it


def _labels(result: Result) -> list[str]:
    return [f"{e}{i}" for i, e in enumerate(result.elements)]


def _sii_matrix(result: Result, exact: bool = False) -> np.ndarray:
    n = result.n_atoms
    pairs = result.exact.interactions if exact and result.exact else result.interactions
    m = np.zeros((n, n))
    for p in pairs:
        m[p.i, p.j] = m[p.j, p.i] = p.sii
    return m


def _colour(value: float, bound: float) -> str:
    return sample_colorscale(SCALE, [0.5 + 0.5 * max(-1.0, min(1.0, value / bound))])[0]


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
                        colorbar=dict(title="bond SII", x=1.18)),
            customdata=np.array([[u, v] for u, v in result.bonds]),
            hovertemplate="bond %{customdata[0]}-%{customdata[1]}<br>SII %{marker.color:.4f}<extra></extra>",
            showlegend=False))
    phi_bound = float(max(np.abs(phi).max(initial=0.0), 1e-9))
    fig.add_trace(go.Scatter(
        x=xy[:, 0], y=xy[:, 1], mode="markers+text", text=list(result.elements), name="atoms",
        textfont=dict(color="black", size=13),
        marker=dict(size=30, color=phi, colorscale=SCALE, cmid=0, cmin=-phi_bound, cmax=phi_bound,
                    line=dict(color="#333", width=1), colorbar=dict(title="Shapley value")),
        customdata=np.array([[a.index, a.element, a.banzhaf] for a in result.atoms], dtype=object),
        hovertemplate="%{customdata[1]} atom %{customdata[0]}<br>Shapley %{marker.color:.4f}"
                      "<br>Banzhaf %{customdata[2]:.4f}<extra></extra>",
        showlegend=False))
    fig.update_layout(
        title=f"{result.name or result.smiles}: atoms coloured by Shapley value, bonds by pair interaction (SII)",
        xaxis=dict(visible=False), yaxis=dict(visible=False, scaleanchor="x"), plot_bgcolor="white",
        height=520)
    return fig


def heatmap_figure(result: Result) -> go.Figure:
    """The full SII matrix: every pair of atoms, not only bonded ones."""
    sii = _sii_matrix(result)
    bound = float(max(np.abs(sii).max(initial=0.0), 1e-9))
    labels = _labels(result)
    fig = go.Figure(go.Heatmap(z=sii, x=labels, y=labels, colorscale=SCALE, zmid=0, zmin=-bound, zmax=bound,
                               colorbar=dict(title="SII"),
                               hovertemplate="%{y} x %{x}<br>SII %{z:.4f}<extra></extra>"))
    fig.update_layout(title="Pairwise Shapley interaction index (TN-SHAP-G estimate)",
                      xaxis_title="atom", yaxis_title="atom", yaxis_autorange="reversed", height=520)
    return fig


def bar_figure(result: Result) -> go.Figure:
    """Shapley and Banzhaf values per atom, with the exact Shapley values when n <= 16."""
    labels = _labels(result)
    fig = go.Figure()
    fig.add_trace(go.Bar(x=labels, y=[a.shapley for a in result.atoms], name="Shapley (TN-SHAP-G)",
                         marker_color="#d6604d"))
    fig.add_trace(go.Bar(x=labels, y=[a.banzhaf for a in result.atoms], name="Banzhaf (TN-SHAP-G)",
                         marker_color="#92c5de"))
    if result.exact is not None:
        fig.add_trace(go.Scatter(x=labels, y=[a.shapley for a in result.exact.atoms], mode="markers",
                                 name="Shapley (exact)", marker=dict(symbol="diamond", size=10, color="black")))
    fig.update_layout(title="Contribution of each atom to the prediction", xaxis_title="atom",
                      yaxis_title="value (logP units)", barmode="group", height=420)
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
                             text=[f"{p.i}-{p.j}" for p in result.interactions],
                             marker=dict(size=6, color="#4393c3", opacity=0.7)))
    fig.update_layout(title="TN-SHAP-G estimate against exact brute force (all 2^n coalitions)",
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


def figures(result: Result) -> dict[str, go.Figure]:
    """molecule, bars, heatmap; plus exact comparison and error curve when exact values exist."""
    out = {"molecule": molecule_figure(result), "shapley_bars": bar_figure(result), "sii_heatmap": heatmap_figure(result)}
    if result.exact is not None:
        out["exact_vs_estimate"] = exact_figure(result)
    if result.error_curve:
        out["error_curve"] = curve_figure(result)
    return out
