"""GINO (Li et al. 2023, geometry-informed neural operator) at small scale: the mesh-agnostic baseline.

A graph-kernel integral carries the point cloud onto a regular latent grid, an FNO works on that grid, and a
second graph-kernel integral carries the latent grid to any query point:
1. encoder: z_l = sum_j w_lj gelu(A h_j + C (x_j - g_l) / r) over the input points x_j within r of the latent
   node g_l, w_lj = area_j / (area of those points): a quadrature of a kernel integral, so it does not
   depend on how the input was meshed (or ordered);
2. `layers` Fourier layers (spectral convolution + pointwise map) on the 16 x 16 latent grid;
3. decoder: the mean over the latent nodes within `DECODE_RADIUS` of the query of
   gelu(D z_l + E (x_q - g_l) / r), then an MLP with the query position.
"""

from __future__ import annotations

import numpy as np
import torch
from scipy.spatial import cKDTree
from torch import nn

from models.apt_operator.nets import RADIUS, Spectral, fourier_features, gather, mlp
from models.apt_operator.solver import cell_centres

__all__ = ["DECODE_RADIUS", "GINO", "LATENT", "latent_grid", "latent_neighbours", "query_neighbours"]

LATENT = 16  # latent grid size
DECODE_RADIUS = 0.1  # latent nodes within this distance of a query (at least 3, at a corner)


def latent_grid() -> np.ndarray:
    """(LATENT^2, 2) cell centres of the latent grid, x the slow index."""
    c = cell_centres(LATENT)
    x, y = np.meshgrid(c, c, indexing="ij")
    return np.stack([x.ravel(), y.ravel()], 1)


def _balls(tree: cKDTree, centres: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Indices (C, width) of the tree's points within `radius` of each centre, padded, and an inside mask."""
    lists = tree.query_ball_point(centres, r=radius)
    width = max(1, max(len(li) for li in lists))
    idx = np.zeros((len(centres), width), dtype=np.int64)
    inside = np.zeros((len(centres), width), dtype=bool)
    for i, li in enumerate(lists):
        li = sorted(li)
        idx[i, :len(li)] = li
        inside[i, :len(li)] = True
    return idx, inside


def latent_neighbours(points: np.ndarray, area: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Input points within RADIUS of each latent node and their quadrature weights (area over the ball's area)."""
    idx, inside = _balls(cKDTree(points), latent_grid(), RADIUS)
    weight = np.where(inside, area[idx], 0.0)
    total = weight.sum(1, keepdims=True)
    return idx, np.divide(weight, total, out=np.zeros_like(weight), where=total > 0)


def query_neighbours(queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Latent nodes within DECODE_RADIUS of each query and equal weights (the latent grid is uniform)."""
    idx, inside = _balls(cKDTree(latent_grid()), queries, DECODE_RADIUS)
    weight = inside.astype(float)
    return idx, weight / weight.sum(1, keepdims=True)


class GINO(nn.Module):
    """Point cloud (x, y, ln k, q) -> latent grid -> FNO -> any query points."""

    def __init__(self, hidden: int = 12, modes: int = 5, layers: int = 2, outputs: int = 2) -> None:
        super().__init__()
        self.embed = mlp(4 + 4 * 4, hidden, hidden)
        self.enc_rel = nn.Linear(2, hidden, bias=False)
        self.enc_out = nn.Linear(hidden, hidden)
        self.spectral = nn.ModuleList(Spectral(hidden, modes) for _ in range(layers))
        self.pointwise = nn.ModuleList(nn.Conv2d(hidden, hidden, 1) for _ in range(layers))
        self.dec_own = nn.Linear(hidden, hidden)
        self.dec_rel = nn.Linear(2, hidden, bias=False)
        self.decode = mlp(hidden + 2, 2 * hidden, outputs)
        self.latent: torch.Tensor
        self.register_buffer("latent", torch.tensor(latent_grid(), dtype=torch.float32), persistent=False)

    def encode(self, feats: torch.Tensor, points: torch.Tensor, lidx: torch.Tensor, lweight: torch.Tensor) -> torch.Tensor:
        """(B, L, hidden): the kernel integral over each latent node's ball of input points (step 1)."""
        h = self.embed(torch.cat([feats, fourier_features(points)], -1))
        grid = self.latent.unsqueeze(0).expand(h.shape[0], -1, -1)
        rel = (gather(points, lidx) - grid.unsqueeze(2)) / RADIUS
        return self.enc_out((nn.functional.gelu(gather(h, lidx) + self.enc_rel(rel)) * lweight.unsqueeze(-1)).sum(2))

    def forward(self, feats: torch.Tensor, points: torch.Tensor, lidx: torch.Tensor, lweight: torch.Tensor,
                queries: torch.Tensor, gidx: torch.Tensor, gweight: torch.Tensor) -> torch.Tensor:
        """Fields (B, Q, outputs); lidx/lweight (B, L, k) input points per latent node, gidx/gweight (B, Q, k')
        latent nodes per query."""
        z = self.encode(feats, points, lidx, lweight)
        b, hidden = z.shape[0], z.shape[-1]
        grid = self.latent.unsqueeze(0).expand(b, -1, -1)
        x = z.transpose(1, 2).reshape(b, hidden, LATENT, LATENT)
        for spectral, pointwise in zip(self.spectral, self.pointwise, strict=True):
            x = nn.functional.gelu(spectral(x) + pointwise(x))
        z = x.reshape(b, hidden, -1).transpose(1, 2)
        rel_q = (queries.unsqueeze(2) - gather(grid, gidx)) / RADIUS
        hq = (nn.functional.gelu(gather(self.dec_own(z), gidx) + self.dec_rel(rel_q)) * gweight.unsqueeze(-1)).sum(2)
        return self.decode(torch.cat([hq, queries], -1))
