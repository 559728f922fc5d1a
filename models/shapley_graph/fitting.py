"""Least-squares fit of the graph tensor network to game values on binary coalitions (proximal ALS)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from models.shapley_graph.contraction_tree import contraction_tree
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


class _ALS:
    """Alternating least squares over the cores; each core's problem is an exact ridge-proximal solve.

    Environments come from the cached partial contractions of `ContractionTree`, so a sweep over all n
    cores costs a few network contractions rather than n.

    For binary inputs the design of core i splits by z_i: samples with z_i = 0 see only A_i[0] and
    those with z_i = 1 only A_i[1], so each update is two small independent normal-equation solves.
    """

    def __init__(self, tn: GraphTensorNetwork, z: np.ndarray, y: np.ndarray, w: np.ndarray, ridge: float):
        device = tn.cores[0].device
        self.tn = tn
        self.z = torch.tensor(z, dtype=torch.bool, device=device)
        self.y = torch.tensor(y, dtype=torch.float64, device=device)
        self.w = torch.tensor(w, dtype=torch.float64, device=device)
        self.ridge = ridge
        self.onehot = [torch.stack([~self.z[:, i], self.z[:, i]], dim=1).to(torch.float64) for i in range(tn.layout.n)]
        self.per_atom = [tn.absorb(self.onehot[i], i) for i in range(tn.layout.n)]
        self.tree = contraction_tree(tn.layout, tn.chi, len(y))
        self.sweeps = 0

    def update(self, atom: int, environment: torch.Tensor) -> torch.Tensor:
        """Solve for atom's core given its environment; returns the new per-sample core."""
        env = environment.reshape(self.z.shape[0], -1)
        core = self.tn.cores[atom]
        new_core = torch.empty_like(core)
        for state in (0, 1):
            rows = self.z[:, atom] == bool(state)
            prev = core[state].reshape(-1)
            if not bool(rows.any()):
                new_core[state] = core[state]
                continue
            design = env[rows]
            weight = self.w[rows]
            gram = design.T @ (design * weight[:, None])
            rhs = design.T @ (weight * self.y[rows])
            lam = self.ridge * float(torch.trace(gram)) / gram.shape[0] + 1e-12
            eye = torch.eye(gram.shape[0], dtype=torch.float64, device=gram.device)
            solution = torch.linalg.solve(gram + lam * eye, rhs + lam * prev)
            new_core[state] = solution.reshape(core[state].shape)
        self.tn.cores[atom] = new_core
        self.per_atom[atom] = self.tn.absorb(self.onehot[atom], atom)
        return self.per_atom[atom]

    def sweep(self) -> None:
        """Each core once, depth first along the cached contraction tree; alternate directions."""
        self.tree.sweep(self.per_atom, self.update, mirror=self.sweeps % 2 == 1)
        self.sweeps += 1


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
    y = (values - offset) / scale
    w = np.ones(len(y))
    w[:2] = endpoint_weight

    inner = np.arange(2, len(y))
    n_heldout = int(round(holdout * len(inner))) if len(inner) >= 40 else 0
    heldout = rng.permutation(inner)[:n_heldout]
    train = np.setdiff1d(np.arange(len(y)), heldout)

    bonds = np.array(layout.edges, dtype=np.int64).reshape(-1, 2)
    intercept, linear, pair_weights = _bond_quadratic_fit(coalitions[train], y[train], w[train], bonds, chi >= 3)
    zf = coalitions.astype(np.float64)
    residual = y - intercept - zf @ linear
    remainder = residual - (zf[:, bonds[:, 0]] * zf[:, bonds[:, 1]]) @ pair_weights if len(bonds) else residual
    residual_scale = float(residual[train].std())
    zero = np.zeros(layout.n)
    tn = GraphTensorNetwork(layout, chi, quadratic_cores(layout, chi, 0.0, zero, pair_weights * 0, rng, device=device))
    history: list[float] = []
    sweeps = 0
    heldout_r2: float | None = None
    if residual_scale <= 1e-9:  # the game is additive to machine precision: nothing left to fit
        residual_scale = 0.0
        if n_heldout:
            heldout_r2 = r_squared(y[heldout], intercept + zf[heldout] @ linear)
    elif float(remainder[train].std()) <= 1e-7 * residual_scale:  # exactly additive plus bond pairs
        tn.cores = quadratic_cores(layout, chi, 0.0, zero, pair_weights / residual_scale, rng, device=device)
        if n_heldout:
            pred = tn.evaluate(zf[heldout]).cpu().numpy()
            heldout_r2 = r_squared(y[heldout], intercept + zf[heldout] @ linear + residual_scale * pred)
    else:
        r = residual / residual_scale
        tn.cores = quadratic_cores(layout, chi, 0.0, zero, pair_weights / residual_scale, rng, noise=0.02, device=device)
        solver = _ALS(tn, coalitions[train], r[train], w[train], ridge)
        best = ([c.clone() for c in tn.cores], np.inf)
        warm_cores: list[torch.Tensor] | None = None
        if n_heldout:  # the sweeps must beat the warm start itself on held-out coalitions, or it is kept
            warm_cores = quadratic_cores(layout, chi, 0.0, zero, pair_weights / residual_scale, rng, device=device)
            warm_pred = GraphTensorNetwork(layout, chi, warm_cores).evaluate(zf[heldout]).cpu().numpy()
            best = (warm_cores, float(np.mean((warm_pred - r[heldout]) ** 2)))
        stale = 0
        total = max_sweeps + (refit_sweeps if n_heldout else 0)
        for sweep in range(max_sweeps):
            solver.ridge = max(ridge * 0.6**sweep, 1e-4)
            solver.sweep()
            sweeps += 1
            if progress is not None:
                progress((sweep + 1) / total)
            if n_heldout:
                pred = tn.evaluate(coalitions[heldout].astype(np.float64)).cpu().numpy()
                mse = float(np.mean((pred - r[heldout]) ** 2))
                history.append(mse)
                if mse < best[1] * (1 - 1e-4):
                    best = ([c.clone() for c in tn.cores], mse)
                    stale = 0
                else:
                    stale += 1
                    if stale >= 3:
                        break
        if n_heldout:
            tn.cores = best[0]
            pred = tn.evaluate(coalitions[heldout].astype(np.float64)).cpu().numpy()
            full = intercept + coalitions[heldout].astype(np.float64) @ linear + residual_scale * pred
            heldout_r2 = r_squared(y[heldout], full)
            solver = _ALS(tn, coalitions, r, w, max(ridge * 0.6**sweeps, 1e-4))
            for k in range(refit_sweeps if best[0] is not warm_cores else 0):
                solver.sweep()
                if progress is not None:
                    progress((max_sweeps + k + 1) / total)
    surrogate = Surrogate(tn, offset, scale, intercept, linear, residual_scale)
    _match_endpoints(surrogate, y[0], y[1])
    warm_start = _warm_start_surrogate(layout, chi, offset, scale, intercept, linear.copy(), pair_weights, rng,
                                       device)
    _match_endpoints(warm_start, y[0], y[1])
    train_r2 = r_squared(values, surrogate.predict(coalitions))
    report = FitReport(
        warm_start=warm_start,
        heldout_r2=heldout_r2,
        train_r2=train_r2,
        sweeps=sweeps,
        n_train=len(train),
        n_heldout=n_heldout,
        heldout_mse_per_sweep=history,
    )
    return surrogate, report


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
