"""Joint distributions of (seller value s, buyer value b) on [0,1]^2 and their exact trade statistics."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from scipy.special import ndtr, ndtri

__all__ = [
    "EPS",
    "GaussianCopula",
    "Rectangle",
    "RectangleMixture",
    "TradeStats",
    "ValuationDistribution",
    "gft_table",
]

# Prices and values are compared with this slack so that atoms sitting exactly on a grid price
# (0.49 computed as 0.5 - 0.01 versus 49/100) trade the same way in the maths and in the simulation.
EPS = 1e-12

TradeStats = tuple[np.ndarray, np.ndarray, np.ndarray]


class ValuationDistribution(Protocol):
    """What the benchmarks and the simulator need from a joint distribution D of (s, b)."""

    label: str

    def sample(self, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]: ...

    def trade_stats(self, p: np.ndarray, q: np.ndarray) -> TradeStats:
        """(F, ES, EB) = (P(s<=p, b>=q), E[s 1{trade}], E[b 1{trade}]), broadcast over p and q."""
        ...

    def first_best(self) -> float: ...

    def density_bound(self) -> float: ...

    def marginal_density_bounds(self) -> tuple[float, float]:
        """Sup of the densities of s and of b (inf when a marginal has an atom)."""
        ...

    def is_discrete(self) -> bool: ...

    def breakpoints(self) -> np.ndarray: ...


def gft_table(dist: ValuationDistribution, p: np.ndarray, q: np.ndarray) -> dict[str, np.ndarray]:
    """Expected GFT, profit, L and R of the price couple (p, q) (Lunghi et al. 2026).

    GFT = E[(b - s) 1{trade}], profit = (q - p) P(trade), L = E[(p - s) 1{trade}] (seller's
    utility), R = E[(b - q) 1{trade}] (buyer's utility); GFT = L + R + profit identically.
    """
    trade_prob, seller_mean, buyer_mean = dist.trade_stats(p, q)
    return {
        "trade": trade_prob,
        "gft": buyer_mean - seller_mean,
        "profit": (q - p) * trade_prob,
        "L": p * trade_prob - seller_mean,
        "R": buyer_mean - q * trade_prob,
    }


@dataclass(frozen=True)
class Rectangle:
    """Mass `mass` spread uniformly on [s_lo, s_hi] x [b_lo, b_hi]; a zero width is an atom."""

    s_lo: float
    s_hi: float
    b_lo: float
    b_hi: float
    mass: float

    def seller_cdf(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(P(s <= p), E[s 1{s <= p}]) for s uniform on [s_lo, s_hi] (a point mass when equal)."""
        if self.s_hi - self.s_lo <= EPS:
            hit = (p + EPS >= self.s_lo).astype(float)
            return hit, self.s_lo * hit
        u = np.clip(p, self.s_lo, self.s_hi)
        width = self.s_hi - self.s_lo
        return (u - self.s_lo) / width, (u * u - self.s_lo**2) / (2 * width)

    def buyer_tail(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(P(b >= q), E[b 1{b >= q}]) for b uniform on [b_lo, b_hi] (a point mass when equal)."""
        if self.b_hi - self.b_lo <= EPS:
            hit = (self.b_lo + EPS >= q).astype(float)
            return hit, self.b_lo * hit
        v = np.clip(q, self.b_lo, self.b_hi)
        width = self.b_hi - self.b_lo
        return (self.b_hi - v) / width, (self.b_hi**2 - v * v) / (2 * width)

    def density(self) -> float:
        area = (self.s_hi - self.s_lo) * (self.b_hi - self.b_lo)
        return math.inf if area <= EPS else self.mass / area


class RectangleMixture:
    """A mixture of uniform rectangles and atoms: uniform, factor-two atoms, two markets, ...

    Seller and buyer values are independent inside each rectangle, so every trade statistic has a
    closed form; correlation comes from the mixture (Lunghi et al. 2026).
    """

    def __init__(self, rectangles: list[Rectangle], label: str) -> None:
        total = sum(r.mass for r in rectangles)
        self.rectangles = [
            Rectangle(r.s_lo, r.s_hi, r.b_lo, r.b_hi, r.mass / total) for r in rectangles if r.mass > 0
        ]
        self.label = label

    def sample(self, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
        cumulative = np.cumsum([r.mass for r in self.rectangles])
        which = np.minimum(
            np.searchsorted(cumulative / cumulative[-1], rng.random(size), side="right"), len(cumulative) - 1
        )
        lo_s = np.array([r.s_lo for r in self.rectangles])[which]
        hi_s = np.array([r.s_hi for r in self.rectangles])[which]
        lo_b = np.array([r.b_lo for r in self.rectangles])[which]
        hi_b = np.array([r.b_hi for r in self.rectangles])[which]
        uniforms = rng.random((2, size))
        return lo_s + (hi_s - lo_s) * uniforms[0], lo_b + (hi_b - lo_b) * uniforms[1]

    def trade_stats(self, p: np.ndarray, q: np.ndarray) -> TradeStats:
        p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
        shape = np.broadcast_shapes(p.shape, q.shape)
        trade_prob, seller_mean, buyer_mean = np.zeros(shape), np.zeros(shape), np.zeros(shape)
        for rect in self.rectangles:
            s_prob, s_mean = rect.seller_cdf(p)
            b_prob, b_mean = rect.buyer_tail(q)
            trade_prob += rect.mass * s_prob * b_prob
            seller_mean += rect.mass * s_mean * b_prob
            buyer_mean += rect.mass * s_prob * b_mean
        return trade_prob, seller_mean, buyer_mean

    def first_best(self) -> float:
        """E[(b - s)^+], integrated exactly: piecewise quadratic in s, 3-point Gauss-Legendre per piece."""
        nodes, weights = np.polynomial.legendre.leggauss(3)
        total = 0.0
        for rect in self.rectangles:
            if rect.s_hi - rect.s_lo <= EPS:
                b_prob, b_mean = rect.buyer_tail(np.array(rect.s_lo))
                total += rect.mass * float(b_mean - rect.s_lo * b_prob)
                continue
            cuts = [rect.s_lo, rect.s_hi] + [x for x in (rect.b_lo, rect.b_hi) if rect.s_lo < x < rect.s_hi]
            cuts = sorted(cuts)
            for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
                s = 0.5 * (hi - lo) * nodes + 0.5 * (hi + lo)
                b_prob, b_mean = rect.buyer_tail(s)
                integral = 0.5 * (hi - lo) * float(np.dot(weights, b_mean - s * b_prob))
                total += rect.mass * integral / (rect.s_hi - rect.s_lo)
        return total

    def density_bound(self) -> float:
        """Sup of the joint density; overlapping rectangles add up (checked on their cell grid)."""
        if any(math.isinf(r.density()) for r in self.rectangles):
            return math.inf
        s_cuts = np.unique([x for r in self.rectangles for x in (r.s_lo, r.s_hi)])
        b_cuts = np.unique([x for r in self.rectangles for x in (r.b_lo, r.b_hi)])
        s_mid, b_mid = 0.5 * (s_cuts[1:] + s_cuts[:-1]), 0.5 * (b_cuts[1:] + b_cuts[:-1])
        best = 0.0
        for sm in s_mid:
            for bm in b_mid:
                level = sum(
                    r.density() for r in self.rectangles if r.s_lo < sm < r.s_hi and r.b_lo < bm < r.b_hi
                )
                best = max(best, level)
        return best

    def marginal_density_bounds(self) -> tuple[float, float]:
        """Sup of the marginal densities of s and b: sums of mass / width over the rectangles
        covering each piece (inf when some rectangle has zero width on that side: an atom)."""

        def side(bounds: list[tuple[float, float, float]]) -> float:
            if any(hi - lo <= EPS for lo, hi, _ in bounds):
                return math.inf
            cuts = np.unique([x for lo, hi, _ in bounds for x in (lo, hi)])
            mids = 0.5 * (cuts[1:] + cuts[:-1])
            return max((sum(m / (hi - lo) for lo, hi, m in bounds if lo < x < hi) for x in mids), default=0.0)

        rects = self.rectangles
        return (
            side([(r.s_lo, r.s_hi, r.mass) for r in rects]),
            side([(r.b_lo, r.b_hi, r.mass) for r in rects]),
        )

    def is_discrete(self) -> bool:
        return all(r.s_hi - r.s_lo <= EPS and r.b_hi - r.b_lo <= EPS for r in self.rectangles)

    def breakpoints(self) -> np.ndarray:
        points = [0.0, 1.0] + [x for r in self.rectangles for x in (r.s_lo, r.s_hi, r.b_lo, r.b_hi)]
        return np.unique(np.clip(points, 0.0, 1.0))


class GaussianCopula:
    """s = Phi(Z1), b = Phi(Z2) with corr(Z1, Z2) = rho: uniform marginals, tunable dependence.

    Trade statistics come from a midpoint quadrature over seller quantiles (the marginal of s is
    exactly uniform) with the conditional law of b given s in closed form; accurate to ~1e-5.
    Arbitrary price couples (the simulator's) are read off a bilinear table on a 257-point grid.
    """

    def __init__(self, rho: float, label: str, levels: int = 2000) -> None:
        self.rho = rho
        self.label = label
        self._sigma = math.sqrt(1.0 - rho * rho)
        self._levels = levels
        self._s_nodes = (np.arange(levels) + 0.5) / levels
        self._z_nodes = ndtri(self._s_nodes)
        self._v_grid = np.linspace(0.0, 1.0, 1001)  # fine grid for E[b 1{b >= q} | s]
        tail = self._buyer_tail_given_z(self._v_grid[None, :], self._z_nodes[:, None])
        steps = 0.5 * (tail[:, 1:] + tail[:, :-1]) * np.diff(self._v_grid)
        # integral_v^1 P(b >= u | s_k) du, for v on the fine grid
        reverse = np.cumsum(steps[:, ::-1], axis=1)[:, ::-1]
        self._tail_integral = np.concatenate([reverse, np.zeros((levels, 1))], axis=1)
        self._table_grid = np.linspace(0.0, 1.0, 257)
        self._table: dict[str, np.ndarray] | None = None

    def _buyer_tail_given_z(self, q: np.ndarray, z: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            threshold = ndtri(np.clip(q, 0.0, 1.0))
        return 1.0 - ndtr((threshold - self.rho * z) / self._sigma)

    def sample(self, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
        z = rng.standard_normal((2, size))
        z2 = self.rho * z[0] + self._sigma * z[1]
        return ndtr(z[0]), ndtr(z2)

    def _grid_stats(self, p_grid: np.ndarray, q_grid: np.ndarray) -> TradeStats:
        """(F, ES, EB) on the outer product p_grid x q_grid."""
        tail = self._buyer_tail_given_z(q_grid[None, :], self._z_nodes[:, None])
        integral = np.stack([np.interp(q_grid, self._v_grid, row) for row in self._tail_integral])
        buyer_mean = integral + q_grid[None, :] * tail
        position = np.clip(p_grid * self._levels, 0.0, self._levels)
        whole = np.minimum(np.floor(position).astype(int), self._levels - 1)
        frac = (position - whole)[:, None]
        out = []
        for per_node in (tail, self._s_nodes[:, None] * tail, buyer_mean):
            cumulative = np.vstack([np.zeros(len(q_grid)), np.cumsum(per_node, axis=0)])
            out.append((cumulative[whole] + frac * per_node[whole]) / self._levels)
        return out[0], out[1], out[2]

    def trade_stats(self, p: np.ndarray, q: np.ndarray) -> TradeStats:
        p, q = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(q, dtype=float))
        if p.ndim == 2 and np.all(p == p[:, :1]) and np.all(q == q[:1, :]):
            return self._grid_stats(p[:, 0], q[0, :])
        if self._table is None:
            g = self._table_grid
            f, es, eb = self._grid_stats(g, g)
            self._table = {"F": f, "ES": es, "EB": eb}
        return tuple(  # type: ignore[return-value]
            _bilinear(self._table_grid, self._table[key], p, q) for key in ("F", "ES", "EB")
        )

    def first_best(self) -> float:
        """E[(b - s)^+] = E_s[integral_s^1 P(b >= v | s) dv]."""
        rows = [
            np.interp(s, self._v_grid, row) for s, row in zip(self._s_nodes, self._tail_integral, strict=True)
        ]
        return float(np.mean(rows))

    def density_bound(self) -> float:
        return 1.0 if abs(self.rho) < EPS else math.inf

    def marginal_density_bounds(self) -> tuple[float, float]:
        return 1.0, 1.0  # both marginals are exactly uniform

    def is_discrete(self) -> bool:
        return False

    def breakpoints(self) -> np.ndarray:
        return np.array([0.0, 1.0])


def _bilinear(grid: np.ndarray, table: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Bilinear interpolation of table[i, j] = f(grid[i], grid[j]) at the points (p, q)."""
    step = grid[1] - grid[0]
    x = np.clip(p / step, 0.0, len(grid) - 1.000001)
    y = np.clip(q / step, 0.0, len(grid) - 1.000001)
    i, j = x.astype(int), y.astype(int)
    fx, fy = x - i, y - j
    return (
        table[i, j] * (1 - fx) * (1 - fy)
        + table[i + 1, j] * fx * (1 - fy)
        + table[i, j + 1] * (1 - fx) * fy
        + table[i + 1, j + 1] * fx * fy
    )
