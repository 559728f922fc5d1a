"""Compare methods at one reward hit rate: interpolate each method's (hit rate, on-manifold) curve."""

from __future__ import annotations

import numpy as np

__all__ = ["HEADLINE", "matched_hit_rate", "on_manifold_at"]

HEADLINE = ("sdg", "dps")  # the pair the paper's claim is about


def matched_hit_rate(requested: float, curves: dict[str, list[tuple[float, float]]]) -> float:
    """The requested hit rate, lowered to the largest rate that SDG and DPS both reach on their sweeps.

    Without both of them, lowered to the largest rate every selected method reaches. An ablation that
    never reaches the rate does not lower it: it is reported as not reaching it instead.
    """
    deciding = [name for name in HEADLINE if name in curves] if all(n in curves for n in HEADLINE) else list(curves)
    reachable = min(max(hit for hit, _ in curves[name]) for name in deciding)
    return min(requested, reachable)


def on_manifold_at(hit_rate: float, points: list[tuple[float, float]]) -> float | None:
    """On-manifold fraction at `hit_rate`, linear between the sweep points ordered by hit rate;
    None when the sweep never reaches that hit rate."""
    ordered = sorted(points)
    hits = np.array([p[0] for p in ordered])
    if hits.max() < hit_rate - 1e-12:
        return None
    fractions = np.array([p[1] for p in ordered])
    return float(np.interp(hit_rate, hits, fractions))
