"""The tiny models: APT-style fused operator (kNN message passing + global latent attention, decoded at
query coordinates), its local-only and global-only ablations, and an FNO on the regular grid."""

from __future__ import annotations

from typing import Literal

import numpy as np
import torch
from scipy.spatial import cKDTree
from torch import nn

__all__ = ["FNO", "APTOperator", "Variant", "knn"]

Variant = Literal["fused", "local_only", "global_only"]
NEIGHBOURS = 8
DECODE_NEIGHBOURS = 4
POSITION_SCALE = 16.0  # relative positions in units of a 16 x 16 cell


def knn(points: np.ndarray, queries: np.ndarray, k: int, skip_self: bool) -> tuple[np.ndarray, np.ndarray]:
    """Indices (Q, k) of the k nearest `points` of each query and their distances (self excluded if asked)."""
    dist, idx = cKDTree(points).query(queries, k=k + int(skip_self))
    if skip_self:
        dist, idx = dist[:, 1:], idx[:, 1:]
    return idx.astype(np.int64), dist


def _mlp(i: int, h: int, o: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(i, h), nn.GELU(), nn.Linear(h, o))


def _gather(h: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    """h (B, N, H) at idx (B, Q, k) -> (B, Q, k, H)."""
    b, q, k = idx.shape
    flat = idx.reshape(b, q * k, 1).expand(-1, -1, h.shape[-1])
    return torch.gather(h, 1, flat).reshape(b, q, k, h.shape[-1])


class _Message(nn.Module):
    """One message-passing layer: mean over neighbours j of W_o gelu(A h_i + B (h_j - h_i) + C (x_j - x_i)).

    The first linear map acts on nodes before the gather and W_o after the mean, so only the gather,
    the sum and the GELU run per edge (the same function as an MLP on the concatenated edge input).
    """

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.own = nn.Linear(hidden, hidden)
        self.other = nn.Linear(hidden, hidden, bias=False)
        self.rel = nn.Linear(2, hidden, bias=False)
        self.out = nn.Linear(hidden, hidden)

    def forward(self, h: torch.Tensor, nbr: torch.Tensor, rel: torch.Tensor) -> torch.Tensor:
        b = self.other(h)
        edge = (self.own(h) - b).unsqueeze(2) + _gather(b, nbr) + self.rel(rel)
        return self.out(nn.functional.gelu(edge).mean(2))


class APTOperator(nn.Module):
    """Encode a point cloud (x, y, log k, q) and decode the pressure at query coordinates.

    local: two kNN message-passing layers (messages from neighbour features and relative positions);
    global: `latents` learned tokens cross-attend to all nodes, self-attend, and the nodes read them back;
    decoder: inverse-distance interpolation of the encoded nodes nearest each query, plus its position.
    """

    def __init__(self, variant: Variant = "fused", hidden: int = 24, latents: int = 8, layers: int = 2) -> None:
        super().__init__()
        self.variant = variant
        self.embed = _mlp(4, hidden, hidden)
        self.messages = nn.ModuleList(_Message(hidden) for _ in range(layers))
        self.latents = nn.Parameter(torch.randn(latents, hidden) * 0.5)
        self.read = nn.MultiheadAttention(hidden, 2, batch_first=True)
        self.mix = nn.MultiheadAttention(hidden, 2, batch_first=True)
        self.write = nn.MultiheadAttention(hidden, 2, batch_first=True)
        self.norm = nn.LayerNorm(hidden)
        self.decode = _mlp(hidden + 2, hidden, 1)

    def encode(self, feats: torch.Tensor, points: torch.Tensor, nbr: torch.Tensor) -> torch.Tensor:
        h = self.embed(feats)
        if self.variant != "global_only":
            rel = (_gather(points, nbr) - points.unsqueeze(2)) * POSITION_SCALE
            for layer in self.messages:
                h = h + layer(h, nbr, rel)
        if self.variant != "local_only":
            z = self.latents.unsqueeze(0).expand(h.shape[0], -1, -1)
            z = z + self.read(z, h, h, need_weights=False)[0]
            z = z + self.mix(z, z, z, need_weights=False)[0]
            h = h + self.write(self.norm(h), z, z, need_weights=False)[0]
        return h

    def forward(self, feats: torch.Tensor, points: torch.Tensor, nbr: torch.Tensor, queries: torch.Tensor,
                qidx: torch.Tensor, qweight: torch.Tensor) -> torch.Tensor:
        """Pressure (B, Q) at `queries` (B, Q, 2); qidx/qweight (B, Q, k) the decoder's nodes and weights."""
        h = self.encode(feats, points, nbr)
        hq = (_gather(h, qidx) * qweight.unsqueeze(-1)).sum(2)
        return self.decode(torch.cat([hq, queries], -1)).squeeze(-1)


class _Spectral(nn.Module):
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

    def __init__(self, width: int = 8, modes: int = 5, layers: int = 2) -> None:
        super().__init__()
        self.lift = nn.Conv2d(4, width, 1)
        self.spectral = nn.ModuleList(_Spectral(width, modes) for _ in range(layers))
        self.pointwise = nn.ModuleList(nn.Conv2d(width, width, 1) for _ in range(layers))
        self.project = nn.Sequential(nn.Conv2d(width, 2 * width, 1), nn.GELU(), nn.Conv2d(2 * width, 1, 1))

    def forward(self, grid: torch.Tensor) -> torch.Tensor:
        """grid (B, 4, n, n) -> pressure (B, n, n)."""
        x = self.lift(grid)
        for spectral, pointwise in zip(self.spectral, self.pointwise, strict=True):
            x = torch.nn.functional.gelu(spectral(x) + pointwise(x))
        return self.project(x).squeeze(1)
