"""The sweeps stage of the surrogate fit: proximal ALS over the cores, early-stopped on held-out coalitions."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from models.shapley_graph.contraction_tree import contraction_tree
from models.shapley_graph.tensor_network import GraphTensorNetwork

__all__ = ["ProximalALS", "early_stopped_sweeps"]

Best = tuple[list[torch.Tensor], float]  # the cores kept so far and their held-out MSE


class ProximalALS:
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


def early_stopped_sweeps(
    solver: ProximalALS,
    z_heldout: np.ndarray,
    r_heldout: np.ndarray,
    best: Best,
    *,
    ridge: float,
    max_sweeps: int,
    total: int,
    progress: Callable[[float], None] | None,
) -> tuple[Best, int, list[float]]:
    """Up to `max_sweeps` sweeps, the ridge annealed (times 0.6 a sweep, floor 1e-4); returns best, sweeps, MSEs.

    With held-out rows (z_heldout as float64, r_heldout the standardised residual there) each sweep's
    held-out MSE is recorded, a sweep that lowers `best`'s by more than a relative 1e-4 becomes the new
    best, and three sweeps in a row that do not stop the fit. Without them every sweep runs and `best`
    comes back as it was given. `progress` gets (sweep + 1) / total after each sweep.
    """
    tn = solver.tn
    history: list[float] = []
    sweeps = 0
    stale = 0
    for sweep in range(max_sweeps):
        solver.ridge = max(ridge * 0.6**sweep, 1e-4)
        solver.sweep()
        sweeps += 1
        if progress is not None:
            progress((sweep + 1) / total)
        if len(z_heldout):
            pred = tn.evaluate(z_heldout).cpu().numpy()
            mse = float(np.mean((pred - r_heldout) ** 2))
            history.append(mse)
            if mse < best[1] * (1 - 1e-4):
                best = ([c.clone() for c in tn.cores], mse)
                stale = 0
            else:
                stale += 1
                if stale >= 3:
                    break
    return best, sweeps, history
