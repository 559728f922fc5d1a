"""A certified upper bound on the footprint gap two boxes can have inside a room, at any yaws.

For footprints A and B (rectangles w x d turned by yaws phi_A, phi_B) the gap is
`max_u [u.(c_B - c_A) - h_A(u) - h_B(u)]` over unit directions u, with h the half-width of a footprint
along u. Inside a W x D room the centres range over boxes shrunk by each footprint's half-extents
(hx, hy), so the largest `u.(c_B - c_A)` is `|u_x| (W - hx_A - hx_B) + |u_y| (D - hy_A - hy_B)`: for fixed
yaws the largest gap is the maximum over u of

    F(u) = |u_x| (W - hx_A - hx_B) + |u_y| (D - hy_A - hy_B) - h_A(u) - h_B(u),

a sum of |cos|, |sin| terms, so on each arc between its breakpoints F = alpha cos t + beta sin t and the
maximum over the arc is exact (its ends, or atan2(beta, alpha) inside it). Over the yaws, every half-extent
moves by at most half the footprint's diagonal per radian, so F (and its maximum) is Lipschitz in phi_A
with constant (sqrt 2 + 1) diag_A / 2; evaluating at the centres of a grid of yaw cells and adding that
constant times half a cell bounds every yaw. Other relations (yaw pins, walls) only shrink the set, so
yaw cells in which a box cannot fit the room are left out. The bound is a
necessary condition: a `far` pair whose bound is below the gap is a proof.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

__all__ = ["max_gap_bound"]

_STEP_DEG = 1.0  # yaw cell width; the rectangles' symmetry makes [0, 180) enough for each yaw


def _terms(phi: np.ndarray, w: float, d: float, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients (of cos t, sin t) of h(u) = (w |cos(t - phi)| + d |sin(t - phi)|) / 2 with the signs
    taken at angle t (the middle of an arc)."""
    c, s = np.cos(t - phi), np.sin(t - phi)
    sc, ss = np.sign(c), np.sign(s)
    # cos(t - phi) = cos t cos phi + sin t sin phi; sin(t - phi) = sin t cos phi - cos t sin phi
    alpha = 0.5 * (w * sc * np.cos(phi) - d * ss * np.sin(phi))
    beta = 0.5 * (w * sc * np.sin(phi) + d * ss * np.cos(phi))
    return alpha, beta


def _max_over_directions(pa: np.ndarray, pb: np.ndarray, a: tuple[float, float], b: tuple[float, float],
                         room: tuple[float, float]) -> np.ndarray:
    """max over t in [0, pi) of F for every pair of yaws (pa[k], pb[k]), exactly (arc by arc)."""
    (wa, da), (wb, db) = a, b
    hxa = 0.5 * (wa * np.abs(np.cos(pa)) + da * np.abs(np.sin(pa)))
    hya = 0.5 * (wa * np.abs(np.sin(pa)) + da * np.abs(np.cos(pa)))
    hxb = 0.5 * (wb * np.abs(np.cos(pb)) + db * np.abs(np.sin(pb)))
    hyb = 0.5 * (wb * np.abs(np.sin(pb)) + db * np.abs(np.cos(pb)))
    span_x, span_y = room[0] - hxa - hxb, room[1] - hya - hyb
    half = math.pi / 2
    cuts = np.stack([np.zeros_like(pa), np.full_like(pa, half), pa % np.pi, (pa + half) % np.pi,
                     pb % np.pi, (pb + half) % np.pi, np.full_like(pa, np.pi)], axis=1)
    cuts.sort(axis=1)
    best = np.full(len(pa), -np.inf)
    for k in range(cuts.shape[1] - 1):
        t0, t1 = cuts[:, k], cuts[:, k + 1]
        mid = 0.5 * (t0 + t1)
        alpha = np.sign(np.cos(mid)) * span_x
        beta = span_y.copy()  # sin t >= 0 on [0, pi)
        for phi, w, d in ((pa, wa, da), (pb, wb, db)):
            ha, hb = _terms(phi, w, d, mid)
            alpha, beta = alpha - ha, beta - hb
        peak = np.arctan2(beta, alpha) % (2 * np.pi)
        inside = (peak >= t0) & (peak <= t1)
        values = [alpha * np.cos(t0) + beta * np.sin(t0), alpha * np.cos(t1) + beta * np.sin(t1),
                  np.where(inside, np.hypot(alpha, beta), -np.inf)]
        best = np.maximum(best, np.maximum.reduce(values))
    return best


@lru_cache(maxsize=256)
def max_gap_bound(a: tuple[float, float], b: tuple[float, float], room: tuple[float, float],
                  step_deg: float = _STEP_DEG) -> float:
    """An upper bound (m) on the footprint gap of boxes a = (w, d) and b inside a room (W, D), any yaws."""
    step = math.radians(step_deg)
    centres = (np.arange(round(180.0 / step_deg)) + 0.5) * step
    pa, pb = (m.ravel() for m in np.meshgrid(centres, centres, indexing="ij"))
    lipschitz = (math.sqrt(2.0) + 1.0) * 0.5 * (math.hypot(*a) + math.hypot(*b))
    fits = _may_fit(pa, a, room, step) & _may_fit(pb, b, room, step)
    if not fits.any():
        return -math.inf  # neither box fits at any yaw (infeasibility reports it)
    values = _max_over_directions(pa[fits], pb[fits], a, b, room)
    return float(values.max() + lipschitz * step / 2)


def _may_fit(phi: np.ndarray, box: tuple[float, float], room: tuple[float, float], step: float) -> np.ndarray:
    """False for yaw cells in which the box cannot fit the room at any yaw (its half-extents move by at most
    half its diagonal per radian)."""
    w, d = box
    slack = 0.5 * math.hypot(w, d) * step / 2
    hx = 0.5 * (w * np.abs(np.cos(phi)) + d * np.abs(np.sin(phi)))
    hy = 0.5 * (w * np.abs(np.sin(phi)) + d * np.abs(np.cos(phi)))
    return (2 * (hx - slack) <= room[0]) & (2 * (hy - slack) <= room[1])
