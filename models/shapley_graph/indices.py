"""Shapley, Banzhaf, SII and STII of a tensor-network surrogate from its multilinear extension."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from models.shapley_graph.tensor_network import GraphTensorNetwork

__all__ = ["GameIndices", "gauss_legendre_01", "surrogate_indices"]


@dataclass
class GameIndices:
    """First- and second-order indices of one game (exact or estimated), all float64.

    shapley, banzhaf, stii_single: shape (n,); sii, stii, banzhaf_pair: symmetric (n, n), zero diagonal.
    """

    shapley: np.ndarray
    banzhaf: np.ndarray
    sii: np.ndarray
    stii: np.ndarray
    banzhaf_pair: np.ndarray
    stii_single: np.ndarray

    def scaled(self, factor: float) -> GameIndices:
        """The indices of factor * v (all indices are linear in the game)."""
        return GameIndices(*(factor * getattr(self, f) for f in self.__dataclass_fields__))


def gauss_legendre_01(n_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights on [0, 1] in float64: exact for degree <= 2 n_nodes - 1."""
    x, w = np.polynomial.legendre.leggauss(n_nodes)
    return (x + 1.0) / 2.0, w / 2.0


def surrogate_indices(tn: GraphTensorNetwork, n_nodes: int | None = None) -> GameIndices:
    """All indices of the multilinear surrogate g, without any model query.

    Heidari & Rabusseau (ICML 2026), TN-SHAP-G: for a multilinear g,
      phi_i   = int_0^1 dg/dz_i (t,...,t) dt,          Banzhaf_i = dg/dz_i (1/2,...,1/2),
      SII_ij  = int_0^1 d2g/dz_i dz_j (t,...,t) dt,    STII_ij = int_0^1 2 (1 - t) d2g/dz_i dz_j dt,
    and STII_i = g(e_i) - g(0). dg/dz_i is the network with atom i's input vector replaced by [-1, 1].
    The integrands are polynomials of degree <= n - 1, so ceil(n/2) Gauss-Legendre nodes are exact; we
    use one more. One batched contraction over (node, atom) gives every dg/dz_i; its reverse pass
    (the cached partial contractions, i.e. environments of every core) gives every d2g/dz_i dz_j.
    """
    n = tn.layout.n
    if n_nodes is None:
        n_nodes = math.ceil(n / 2) + 1
    t_nodes, t_weights = gauss_legendre_01(n_nodes)
    t_all = np.append(t_nodes, 0.5)  # the last point is Banzhaf's
    first_np, pair_np = _diagonal_derivatives(tn, t_all)

    w = t_weights
    tk = t_nodes
    inner_first = first_np[:-1]
    inner_pair = pair_np[:-1]
    shapley = w @ inner_first
    sii = np.tensordot(w, inner_pair, axes=1)
    stii = np.tensordot(w * 2.0 * (1.0 - tk), inner_pair, axes=1)

    corners = np.vstack([np.zeros((1, n)), np.eye(n)])
    g_corners = tn.evaluate(corners).cpu().numpy()
    return GameIndices(
        shapley=shapley,
        banzhaf=first_np[-1],
        sii=sii,
        stii=stii,
        banzhaf_pair=pair_np[-1],
        stii_single=g_corners[1:] - g_corners[0],
    )


def _derivative_leaves(tn: GraphTensorNetwork, t: torch.Tensor) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """Per-atom leaves over rows (k, i): atom j's core at z_j = t_k, or its derivative A_j[1] - A_j[0] when j = i.

    Contracted, row (k, i) is dg/dz_i at (t_k, ..., t_k). The leaves require grad (for the reverse
    pass); the derivative cores come back too, detached.
    """
    n = tn.layout.n
    k_points = len(t)
    leaves = []
    derivative_cores = []
    for j in range(n):
        core = tn.cores[j]
        along = (1 - t).reshape(-1, *([1] * (core.dim() - 1))) * core[0] + t.reshape(
            -1, *([1] * (core.dim() - 1))
        ) * core[1]  # (K, bonds...)
        deriv = core[1] - core[0]  # (bonds...)
        block = along.unsqueeze(1).repeat(1, n, *([1] * (core.dim() - 1)))  # (K, n, bonds...)
        block[:, j] = deriv
        leaf = block.reshape(k_points * n, *core.shape[1:]).detach().requires_grad_(True)
        leaves.append(leaf)
        derivative_cores.append(deriv.detach())
    return leaves, derivative_cores


def _diagonal_derivatives(tn: GraphTensorNetwork, t_all: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """dg/dz_i, shape (K, n), and the symmetrised d2g/dz_i dz_j, shape (K, n, n) with zero diagonal, at z = t_k 1.

    One batched contraction gives every first derivative; its reverse pass (the environments of every
    leaf) times atom j's derivative core gives every second derivative along j.
    """
    n = tn.layout.n
    k_points = len(t_all)
    device = tn.cores[0].device
    t = torch.tensor(t_all, dtype=torch.float64, device=device)
    leaves, derivative_cores = _derivative_leaves(tn, t)

    first = tn.contract(leaves)  # (K * n,): dg/dz_i at t_k for row (k, i)
    first.sum().backward()
    pair = torch.zeros(k_points, n, n, dtype=torch.float64, device=device)
    for j in range(n):
        grad = leaves[j].grad
        assert grad is not None
        env = grad.reshape(k_points, n, -1)
        pair[:, :, j] = env @ derivative_cores[j].reshape(-1)
    first_np = first.detach().reshape(k_points, n).cpu().numpy()
    pair_np = pair.cpu().numpy()
    idx = np.arange(n)
    pair_np[:, idx, idx] = 0.0
    pair_np = 0.5 * (pair_np + pair_np.transpose(0, 2, 1))
    return first_np, pair_np
