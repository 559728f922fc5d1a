"""Least-squares fit of the graph tensor network to game values on binary coalitions (proximal ALS)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from models.shapley_graph.fitting_sweeps import ProximalALS, early_stopped_sweeps
from models.shapley_graph.tensor_network import GraphTensorNetwork, NetworkLayout, quadratic_cores

__all__ = ["FitReport", "Surrogate", "fit_surrogate", "r_squared"]


def r_squared(truth: np.ndarray, prediction: np.ndarray) -> float:
    """Coefficient of determination 1 - SS_res / SS_tot (1.0 when the truth is constant and matched)."""
    ss_tot = float(np.sum((truth - truth.mean()) ** 2))
    ss_res = float(np.sum((truth - prediction) ** 2))
    if ss_tot <= 1e-300:
        return 1.0 if ss_res <= 1e-18 else 0.0
    return 1.0 - ss_res / ss_tot


@dataclass
class FitReport:
    """How well the surrogate fits: held-out R^2 (before the final refit on every query) and in-sample R^2.

    `warm_start` is the closed-form graph-local quadratic the sweeps started from (the ablation).
    """

    warm_start: Surrogate
    heldout_r2: float | None
    train_r2: float
    sweeps: int
    n_train: int
    n_heldout: int
    heldout_mse_per_sweep: list[float] = field(default_factory=list)


@dataclass
class Surrogate:
    """g(z) = intercept + linear . z + residual_scale * network(z), for the standardised game (v - offset) / scale.

    The first-order part is solved in closed form and the network models what it leaves (the
    interactions). A linear term is itself a bond-dimension-2 network on the same graph, so the sum is a
    graph tensor network of bond dimension chi + 2 and stays multilinear.
    """

    network: GraphTensorNetwork
    offset: float
    scale: float
    intercept: float
    linear: np.ndarray
    residual_scale: float

    def standardised(self, coalitions: np.ndarray) -> np.ndarray:
        z = coalitions.astype(np.float64)
        tn = self.network.evaluate(z).cpu().numpy() if self.residual_scale else 0.0
        return self.intercept + z @ self.linear + self.residual_scale * tn

    def predict(self, coalitions: np.ndarray) -> np.ndarray:
        return self.offset + self.scale * self.standardised(coalitions)


@dataclass
class _Queries:
    """The standardised game y = (v - offset) / scale on the queried coalitions, its weights and split."""

    coalitions: np.ndarray  # (rows, n) bool; rows 0 and 1 are the empty and full sets
    zf: np.ndarray  # the coalitions as float64
    y: np.ndarray
    w: np.ndarray  # 1 per query, endpoint_weight for the two endpoints
    train: np.ndarray
    heldout: np.ndarray


def _queries(coalitions: np.ndarray, y: np.ndarray, endpoint_weight: float, holdout: float,
             rng: np.random.Generator) -> _Queries:
    """Weigh the endpoints and hold out a share `holdout` of the other rows (none under 40 of them)."""
    w = np.ones(len(y))
    w[:2] = endpoint_weight
    inner = np.arange(2, len(y))
    n_heldout = int(round(holdout * len(inner))) if len(inner) >= 40 else 0
    heldout = rng.permutation(inner)[:n_heldout]
    train = np.setdiff1d(np.arange(len(y)), heldout)
    return _Queries(coalitions, coalitions.astype(np.float64), y, w, train, heldout)


@dataclass
class _FirstOrder:
    """The graph-local quadratic fitted in closed form on the training rows, and what it leaves."""

    intercept: float
    linear: np.ndarray
    pair_weights: np.ndarray  # one per bond (zero for chi = 2, which has no room for them)
    residual: np.ndarray  # y - intercept - z . linear, on every row: what the network models
    remainder: np.ndarray  # the residual less the bond pairs
    residual_scale: float  # the residual's standard deviation on the training rows


def _bond_quadratic_fit(
    z: np.ndarray, y: np.ndarray, w: np.ndarray, bonds: np.ndarray, with_pairs: bool
) -> tuple[float, np.ndarray, np.ndarray]:
    """Weighted ridge fit of y ~ c + sum_i a_i z_i + sum_{bonds uv} b_uv z_u z_v (graph-local, closed form)."""
    zf = z.astype(np.float64)
    columns = [np.ones((z.shape[0], 1)), zf]
    if with_pairs and len(bonds):
        columns.append(zf[:, bonds[:, 0]] * zf[:, bonds[:, 1]])
    design = np.hstack(columns)
    gram = design.T @ (design * w[:, None]) + 1e-9 * np.eye(design.shape[1])
    coef = np.linalg.solve(gram, design.T @ (w * y))
    n = z.shape[1]
    pairs = coef[n + 1 :] if with_pairs and len(bonds) else np.zeros(len(bonds))
    return float(coef[0]), coef[1 : n + 1], pairs


def _first_order(layout: NetworkLayout, chi: int, q: _Queries) -> _FirstOrder:
    """Solve the graph-local quadratic on the training rows and take its first-order part off y."""
    bonds = np.array(layout.edges, dtype=np.int64).reshape(-1, 2)
    intercept, linear, pair_weights = _bond_quadratic_fit(q.coalitions[q.train], q.y[q.train], q.w[q.train], bonds,
                                                          chi >= 3)
    residual = q.y - intercept - q.zf @ linear
    remainder = residual - (q.zf[:, bonds[:, 0]] * q.zf[:, bonds[:, 1]]) @ pair_weights if len(bonds) else residual
    return _FirstOrder(intercept, linear, pair_weights, residual, remainder, float(residual[q.train].std()))


def fit_surrogate(
    layout: NetworkLayout,
    coalitions: np.ndarray,
    values: np.ndarray,
    chi: int,
    rng: np.random.Generator,
    *,
    max_sweeps: int = 40,
    refit_sweeps: int = 2,
    ridge: float = 0.05,
    holdout: float = 0.15,
    endpoint_weight: float = 20.0,
    device: str = "cpu",
    progress: Callable[[float], None] | None = None,
) -> tuple[Surrogate, FitReport]:
    """Fit g to (coalition, value) pairs by least squares; rows 0 and 1 must be the empty and full sets.

    TN-SHAP-G (Heidari & Rabusseau, ICML 2026) fits only binary coalitions, so g matches the game where
    the game is defined and its multilinear extension is the surrogate's own. We standardise the
    values and solve the graph-local quadratic least squares (intercept, one term per atom, one per
    bond) in closed form. The first-order part stays outside the network; the bond terms are embedded
    exactly as its warm start, and the network then fits what is left by proximal ALS sweeps (ridge
    annealed) on a training split, watching a held-out split (for the reported held-out R^2). The best
    sweep is kept and refitted on every query for a couple of sweeps; when no sweep beats the warm
    start on the held-out split (few queries for many cores), the warm start is kept as it is. A game that is exactly additive,
    or additive plus bond pairs, is represented exactly without any sweep. Finally the intercept and a
    uniform shift of the linear part make g match v(empty) and v(N) exactly, so the Shapley values are
    exactly efficient (sum phi = v(N) - v(empty)); the graph-local quadratic alone (the warm start) is
    returned too, with the same correction, for the ablation.
    """
    values = np.asarray(values, dtype=np.float64)
    offset = float(values.mean())
    scale = float(values.std()) or 1.0
    q = _queries(coalitions, (values - offset) / scale, endpoint_weight, holdout, rng)
    first = _first_order(layout, chi, q)
    zero = np.zeros(layout.n)
    tn = GraphTensorNetwork(layout, chi, quadratic_cores(layout, chi, 0.0, zero, first.pair_weights * 0, rng, device=device))
    residual_scale, heldout_r2, sweeps, history = _fit_network(
        tn, q, first, rng, max_sweeps=max_sweeps, refit_sweeps=refit_sweeps, ridge=ridge, device=device, progress=progress
    )
    surrogate = Surrogate(tn, offset, scale, first.intercept, first.linear, residual_scale)
    _match_endpoints(surrogate, q.y[0], q.y[1])
    warm_start = _warm_start_surrogate(layout, chi, offset, scale, first.intercept, first.linear.copy(),
                                       first.pair_weights, rng, device)
    _match_endpoints(warm_start, q.y[0], q.y[1])
    train_r2 = r_squared(values, surrogate.predict(coalitions))
    report = FitReport(
        warm_start=warm_start,
        heldout_r2=heldout_r2,
        train_r2=train_r2,
        sweeps=sweeps,
        n_train=len(q.train),
        n_heldout=len(q.heldout),
        heldout_mse_per_sweep=history,
    )
    return surrogate, report


def _fit_network(
    tn: GraphTensorNetwork,
    q: _Queries,
    first: _FirstOrder,
    rng: np.random.Generator,
    *,
    max_sweeps: int,
    refit_sweeps: int,
    ridge: float,
    device: str,
    progress: Callable[[float], None] | None,
) -> tuple[float, float | None, int, list[float]]:
    """Fit the network to the residual; returns the residual scale, held-out R^2, sweeps and held-out MSEs.

    An additive game leaves nothing to fit (scale 0); additive plus bond pairs is set exactly from the
    pair weights; anything else goes to the ALS sweeps.
    """
    heldout = q.heldout
    if first.residual_scale <= 1e-9:  # the game is additive to machine precision: nothing left to fit
        heldout_r2 = r_squared(q.y[heldout], first.intercept + q.zf[heldout] @ first.linear) if len(heldout) else None
        return 0.0, heldout_r2, 0, []
    residual_scale = first.residual_scale
    if float(first.remainder[q.train].std()) <= 1e-7 * residual_scale:  # exactly additive plus bond pairs
        zero = np.zeros(tn.layout.n)
        tn.cores = quadratic_cores(tn.layout, tn.chi, 0.0, zero, first.pair_weights / residual_scale, rng, device=device)
        heldout_r2 = None
        if len(heldout):
            pred = tn.evaluate(q.zf[heldout]).cpu().numpy()
            heldout_r2 = r_squared(q.y[heldout], first.intercept + q.zf[heldout] @ first.linear + residual_scale * pred)
        return residual_scale, heldout_r2, 0, []
    heldout_r2, sweeps, history = _fit_by_sweeps(
        tn, q, first, rng, max_sweeps=max_sweeps, refit_sweeps=refit_sweeps, ridge=ridge, device=device, progress=progress
    )
    return residual_scale, heldout_r2, sweeps, history


def _fit_by_sweeps(
    tn: GraphTensorNetwork,
    q: _Queries,
    first: _FirstOrder,
    rng: np.random.Generator,
    *,
    max_sweeps: int,
    refit_sweeps: int,
    ridge: float,
    device: str,
    progress: Callable[[float], None] | None,
) -> tuple[float | None, int, list[float]]:
    """ALS from the bond pairs plus noise on the training rows; returns held-out R^2, sweeps and held-out MSEs.

    With a held-out split the sweeps must beat the warm start itself there, or it is kept; the best is
    then refitted on every query for `refit_sweeps` sweeps (not the warm start).
    """
    layout, chi, heldout = tn.layout, tn.chi, q.heldout
    zero = np.zeros(layout.n)
    r = first.residual / first.residual_scale
    tn.cores = quadratic_cores(layout, chi, 0.0, zero, first.pair_weights / first.residual_scale, rng, noise=0.02,
                               device=device)
    solver = ProximalALS(tn, q.coalitions[q.train], r[q.train], q.w[q.train], ridge)
    best = ([c.clone() for c in tn.cores], np.inf)
    warm_cores: list[torch.Tensor] | None = None
    if len(heldout):  # the sweeps must beat the warm start itself on held-out coalitions, or it is kept
        warm_cores = quadratic_cores(layout, chi, 0.0, zero, first.pair_weights / first.residual_scale, rng, device=device)
        warm_pred = GraphTensorNetwork(layout, chi, warm_cores).evaluate(q.zf[heldout]).cpu().numpy()
        best = (warm_cores, float(np.mean((warm_pred - r[heldout]) ** 2)))
    total = max_sweeps + (refit_sweeps if len(heldout) else 0)
    best, sweeps, history = early_stopped_sweeps(solver, q.zf[heldout], r[heldout], best, ridge=ridge,
                                                 max_sweeps=max_sweeps, total=total, progress=progress)
    heldout_r2: float | None = None
    if len(heldout):
        tn.cores = best[0]
        pred = tn.evaluate(q.zf[heldout]).cpu().numpy()
        heldout_r2 = r_squared(q.y[heldout], first.intercept + q.zf[heldout] @ first.linear + first.residual_scale * pred)
        solver = ProximalALS(tn, q.coalitions, r, q.w, max(ridge * 0.6**sweeps, 1e-4))
        for k in range(refit_sweeps if best[0] is not warm_cores else 0):
            solver.sweep()
            if progress is not None:
                progress((max_sweeps + k + 1) / total)
    return heldout_r2, sweeps, history


def _match_endpoints(surrogate: Surrogate, y_empty: float, y_full: float) -> None:
    """Shift the intercept and the linear part so g(empty) = y_empty and g(N) = y_full exactly."""
    n = len(surrogate.linear)
    ends = surrogate.standardised(np.vstack([np.zeros(n, dtype=bool), np.ones(n, dtype=bool)]))
    surrogate.intercept += y_empty - float(ends[0])
    surrogate.linear = surrogate.linear + (y_full - y_empty - float(ends[1] - ends[0])) / n


def _warm_start_surrogate(layout: NetworkLayout, chi: int, offset: float, scale: float, intercept: float,
                          linear: np.ndarray, pair_weights: np.ndarray, rng: np.random.Generator,
                          device: str) -> Surrogate:
    """The graph-local quadratic c + a . z + sum_bonds b z_u z_v as a surrogate (no ALS sweep)."""
    zero = np.zeros(layout.n)
    width = max(chi, 3)
    tn = GraphTensorNetwork(layout, width, quadratic_cores(layout, width, 0.0, zero, pair_weights, rng, device=device))
    return Surrogate(tn, offset, scale, intercept, linear, 1.0 if len(pair_weights) and chi >= 3 else 0.0)
