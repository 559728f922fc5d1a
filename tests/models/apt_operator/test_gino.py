"""GINO, the mesh-agnostic baseline: the same answer for a permuted input, and for the same fields on another mesh."""

from __future__ import annotations

import dataclasses

import numpy as np
import torch

from models.apt_operator.data import MeshSample, adaptive_sample, regular_sample
from models.apt_operator.gino import (
    DECODE_RADIUS,
    GINO,
    LATENT,
    latent_grid,
    latent_neighbours,
    query_neighbours,
)
from models.apt_operator.nets import RADIUS
from models.apt_operator.train import make_batch
from tests.models.apt_operator.test_nets import permuted


def _smooth(s: MeshSample) -> MeshSample:
    """The mesh with smooth input fields (so that any two meshes sample nearly the same functions)."""
    x, y = s.points.T
    return dataclasses.replace(s, log_k=np.sin(2 * np.pi * x) * np.cos(np.pi * y), source=50 * x * y)


def _out(model: GINO, inputs: MeshSample, queries: MeshSample) -> torch.Tensor:
    b = make_batch([inputs], [queries])
    with torch.no_grad():
        return model(b.feats, b.points, b.lidx, b.lweight, b.queries, b.gidx, b.gweight)


def test_a_permuted_input_gives_the_same_output(medium) -> None:  # type: ignore[no-untyped-def]
    torch.manual_seed(0)
    model = GINO().eval()
    mesh = adaptive_sample(medium)
    order = np.random.default_rng(0).permutation(len(mesh.points))
    target = regular_sample(medium, 32)
    torch.testing.assert_close(_out(model, mesh, target), _out(model, permuted(mesh, order), target),
                               atol=1e-5, rtol=1e-4)


def test_remeshing_the_input_barely_changes_the_latent_or_the_output(medium) -> None:  # type: ignore[no-untyped-def]
    """The encoder is a quadrature (area weights) of a kernel integral, so the 32 x 32 grid, the 64 x 64 grid and
    the adaptive mesh of the same smooth fields give nearly the same latent grid and output; a plain sum over the
    ball (no quadrature weights) would scale with the number of points (4x at 64 x 64)."""
    torch.manual_seed(0)
    model = GINO().eval()
    grid = _smooth(regular_sample(medium, 32))
    latents, outputs = [], []
    for mesh in (grid, _smooth(regular_sample(medium, 64)), _smooth(adaptive_sample(medium))):
        b = make_batch([mesh], [grid])
        with torch.no_grad():
            latents.append(model.encode(b.feats, b.points, b.lidx, b.lweight))
        outputs.append(_out(model, mesh, grid))
    for other in (1, 2):
        assert float((latents[other] - latents[0]).norm() / latents[0].norm()) < 0.1
        assert float((outputs[other] - outputs[0]).norm() / outputs[0].norm()) < 0.1


def test_neighbourhoods_cover_the_square() -> None:
    g = latent_grid()
    assert g.shape == (LATENT**2, 2) and np.allclose(np.sort(np.unique(g[:, 0])), (np.arange(LATENT) + 0.5) / LATENT)
    rng = np.random.default_rng(0)
    queries = rng.uniform(0, 1, (200, 2))
    idx, w = query_neighbours(queries)
    assert np.allclose(w.sum(1), 1) and ((w > 0).sum(1) >= 3).all()  # 3 at a corner
    assert (np.linalg.norm(g[idx] - queries[:, None], axis=-1)[w > 0] <= DECODE_RADIUS).all()
    pts = rng.uniform(0, 1, (300, 2))
    idx, w = latent_neighbours(pts, rng.uniform(0.5, 1.5, 300) / 300)
    assert np.allclose(w.sum(1)[w.sum(1) > 0], 1)
    assert (np.linalg.norm(pts[idx] - g[:, None], axis=-1)[w > 0] <= RADIUS).all()
