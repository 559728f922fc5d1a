"""The models: APT as the paper builds it, scaled down (a radius-based local graph encoder and a global latent
attention in parallel, fused by a learned gate, decoded at query coordinates), its local-only and
global-only ablations, and an FNO on the regular grid.

Resolution invariance (GINO-style): the local encoder averages messages over a ball of fixed radius with
the cells' areas as quadrature weights, and the latents read the nodes with area-weighted attention, so
both converge to integrals as the mesh is refined instead of depending on a neighbour count.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
import torch
from scipy.spatial import cKDTree
from torch import nn

__all__ = ["FNO", "RADIUS", "APTOperator", "Spectral", "Variant", "ball_neighbours", "fourier_features", "gather", "knn", "mlp"]

Variant = Literal["fused", "local_only", "global_only"]
RADIUS = 0.07  # ball radius of the local encoder (domain units): ~15 points at 32 x 32, ~60 at 64 x 64
DECODE_NEIGHBOURS = 4
FOURIER = 4  # positional features sin/cos(2 pi k x), k = 1..FOURIER, for x and y


def knn(points: np.ndarray, queries: np.ndarray, k: int, skip_self: bool) -> tuple[np.ndarray, np.ndarray]:
    """Indices (Q, k) of the k nearest `points` of each query and their distances (self excluded if asked)."""
    dist, idx = cKDTree(points).query(queries, k=k + int(skip_self))
    if skip_self:
        dist, idx = dist[:, 1:], idx[:, 1:]
    return idx.astype(np.int64), dist


def ball_neighbours(points: np.ndarray, area: np.ndarray, radius: float = RADIUS,
                    width: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every point's neighbours within `radius` (itself included), nearest first, padded to `width`, and
    quadrature weights area_j / sum of the areas in the ball (0 on padding): a mean over the ball."""
    tree = cKDTree(points)
    width = width or int(tree.query_ball_point(points, r=radius, return_length=True).max())
    dist, idx = tree.query(points, k=width, distance_upper_bound=radius)
    dist, idx = dist.reshape(len(points), width), idx.reshape(len(points), width)
    inside = np.isfinite(dist)
    idx = np.where(inside, idx, 0).astype(np.int64)
    weight = np.where(inside, area[idx], 0.0)
    return idx, weight / weight.sum(1, keepdims=True)


def mlp(i: int, h: int, o: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(i, h), nn.GELU(), nn.Linear(h, o))


def gather(h: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    """h (B, N, H) at idx (B, Q, k) -> (B, Q, k, H)."""
    b, q, k = idx.shape
    flat = idx.reshape(b, q * k, 1).expand(-1, -1, h.shape[-1])
    return torch.gather(h, 1, flat).reshape(b, q, k, h.shape[-1])


def fourier_features(points: torch.Tensor) -> torch.Tensor:
    """(B, N, 2) -> (B, N, 4 FOURIER): sin and cos of 2 pi k x and 2 pi k y."""
    freqs = 2 * math.pi * torch.arange(1, FOURIER + 1, dtype=points.dtype, device=points.device)
    arg = points.unsqueeze(-1) * freqs  # (B, N, 2, F)
    return torch.cat([torch.sin(arg), torch.cos(arg)], -1).flatten(-2)


class _Message(nn.Module):
    """One GNO layer: sum_j w_ij W_o gelu(A h_i + B (h_j - h_i) + C (x_j - x_i) / r) over the ball of x_i.

    w_ij are the quadrature weights (area_j over the ball's area): the layer approximates the mean of the
    kernel over the ball, which converges as the mesh is refined. The first linear map acts on nodes before
    the gather and W_o after the sum, so only the gather, the sum and the GELU run per edge.
    """

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.own = nn.Linear(hidden, hidden)
        self.other = nn.Linear(hidden, hidden, bias=False)
        self.rel = nn.Linear(2, hidden, bias=False)
        self.out = nn.Linear(hidden, hidden)

    def forward(self, h: torch.Tensor, nbr: torch.Tensor, rel: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        b = self.other(h)
        edge = (self.own(h) - b).unsqueeze(2) + gather(b, nbr) + self.rel(rel)
        return self.out((nn.functional.gelu(edge) * weight.unsqueeze(-1)).sum(2))


class APTOperator(nn.Module):
    """Encode a point cloud (x, y, log k, q, Fourier features of x, y) and decode the pressure at query points.

    local branch: `layers` GNO layers over fixed-radius balls; global branch: `latents` learned tokens read
    the nodes (area-weighted cross-attention), a latent block (self-attention + MLP) mixes them, and the
    nodes read them back; fused: a per-node, per-channel gate g = sigmoid(W [local, global]) mixes the two
    branches, g local + (1 - g) global. Decoder: inverse-distance interpolation of the encoded nodes
    nearest each query, plus its position.
    """

    def __init__(self, variant: Variant = "fused", hidden: int = 24, latents: int = 8, layers: int = 2,
                 outputs: int = 2) -> None:
        super().__init__()
        self.variant = variant
        self.embed = mlp(4 + 4 * FOURIER, hidden, hidden)
        self.messages = nn.ModuleList(_Message(hidden) for _ in range(layers))
        self.latents = nn.Parameter(torch.randn(latents, hidden) * 0.5)
        self.read = nn.MultiheadAttention(hidden, 2, batch_first=True)
        self.mix = nn.MultiheadAttention(hidden, 2, batch_first=True)
        self.latent_mlp = mlp(hidden, 2 * hidden, hidden)
        self.write = nn.MultiheadAttention(hidden, 2, batch_first=True)
        self.norm = nn.LayerNorm(hidden)
        self.gate = nn.Linear(2 * hidden, hidden)
        self.decode = mlp(hidden + 2, hidden, outputs)

    def _global(self, h: torch.Tensor, area: torch.Tensor) -> torch.Tensor:
        z = self.latents.unsqueeze(0).expand(h.shape[0], -1, -1)
        bias = torch.log(area).unsqueeze(1).expand(-1, z.shape[1], -1)  # (B, L, N): area-weighted softmax
        bias = bias.repeat_interleave(self.read.num_heads, dim=0)
        z = z + self.read(z, h, h, attn_mask=bias, need_weights=False)[0]
        z = z + self.mix(z, z, z, need_weights=False)[0]
        z = z + self.latent_mlp(z)
        return h + self.write(self.norm(h), z, z, need_weights=False)[0]

    def encode(self, feats: torch.Tensor, points: torch.Tensor, nbr: torch.Tensor, weight: torch.Tensor,
               area: torch.Tensor) -> torch.Tensor:
        h = self.embed(torch.cat([feats, fourier_features(points)], -1))
        local = h
        if self.variant != "global_only":
            rel = (gather(points, nbr) - points.unsqueeze(2)) / RADIUS
            for layer in self.messages:
                local = local + layer(local, nbr, rel, weight)
        if self.variant == "local_only":
            return local
        glob = self._global(h, area)
        if self.variant == "global_only":
            return glob
        g = torch.sigmoid(self.gate(torch.cat([local, glob], -1)))
        return g * local + (1 - g) * glob

    def forward(self, feats: torch.Tensor, points: torch.Tensor, nbr: torch.Tensor, weight: torch.Tensor,
                area: torch.Tensor, queries: torch.Tensor, qidx: torch.Tensor, qweight: torch.Tensor) -> torch.Tensor:
        """Fields (B, Q, outputs) at `queries` (B, Q, 2); qidx/qweight (B, Q, k) the decoder's nodes and weights."""
        h = self.encode(feats, points, nbr, weight, area)
        hq = (gather(h, qidx) * qweight.unsqueeze(-1)).sum(2)
        return self.decode(torch.cat([hq, queries], -1))

    def mean_gate(self, feats: torch.Tensor, points: torch.Tensor, nbr: torch.Tensor, weight: torch.Tensor,
                  area: torch.Tensor) -> float:
        """The fused model's mean gate value (1: all local, 0: all global)."""
        h = self.embed(torch.cat([feats, fourier_features(points)], -1))
        local = h
        rel = (gather(points, nbr) - points.unsqueeze(2)) / RADIUS
        for layer in self.messages:
            local = local + layer(local, nbr, rel, weight)
        return float(torch.sigmoid(self.gate(torch.cat([local, self._global(h, area)], -1))).mean())


class Spectral(nn.Module):
    def __init__(self, width: int, modes: int) -> None:
        super().__init__()
        self.modes = modes
        scale = 1.0 / (width * width)
        self.w1 = nn.Parameter(scale * torch.randn(width, width, modes, modes, dtype=torch.cfloat))
        self.w2 = nn.Parameter(scale * torch.randn(width, width, modes, modes, dtype=torch.cfloat))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, _, n, m = x.shape
        xf = torch.fft.rfft2(x)
        out = torch.zeros(b, self.w1.shape[1], n, m // 2 + 1, dtype=torch.cfloat, device=x.device)
        k = self.modes
        out[:, :, :k, :k] = torch.einsum("bixy,ioxy->boxy", xf[:, :, :k, :k], self.w1)
        out[:, :, -k:, :k] = torch.einsum("bixy,ioxy->boxy", xf[:, :, -k:, :k], self.w2)
        return torch.fft.irfft2(out, s=(n, m))


class FNO(nn.Module):
    """A two-layer Fourier neural operator on the regular grid (channels x, y, log k, q)."""

    def __init__(self, width: int = 12, modes: int = 5, layers: int = 2, outputs: int = 2) -> None:
        super().__init__()
        self.lift = nn.Conv2d(4, width, 1)
        self.spectral = nn.ModuleList(Spectral(width, modes) for _ in range(layers))
        self.pointwise = nn.ModuleList(nn.Conv2d(width, width, 1) for _ in range(layers))
        self.project = nn.Sequential(nn.Conv2d(width, 2 * width, 1), nn.GELU(), nn.Conv2d(2 * width, outputs, 1))

    def forward(self, grid: torch.Tensor) -> torch.Tensor:
        """grid (B, 4, n, n) -> fields (B, outputs, n, n)."""
        x = self.lift(grid)
        for spectral, pointwise in zip(self.spectral, self.pointwise, strict=True):
            x = torch.nn.functional.gelu(spectral(x) + pointwise(x))
        return self.project(x)
