"""The models: message layer identity, permutation equivariance (mesh-agnostic), shapes."""

from __future__ import annotations

import dataclasses

import numpy as np
import torch

from models.apt_operator.data import MeshSample, adaptive_sample, regular_sample
from models.apt_operator.nets import FNO, RADIUS, APTOperator, ball_neighbours, gather
from models.apt_operator.train import VARIANTS, fno_grid, make_batch


def permuted(s: MeshSample, order: np.ndarray) -> MeshSample:
    """The same sample with its points listed in another order."""
    return dataclasses.replace(s, points=s.points[order], area=s.area[order], log_k=s.log_k[order],
                               source=s.source[order], pressure=s.pressure[order], saturation=s.saturation[order],
                               cells=None)


def test_message_layer_is_the_weighted_mean_of_an_mlp_on_each_edge() -> None:
    torch.manual_seed(0)
    model = APTOperator("local_only", hidden=6)
    layer = model.messages[0]
    h = torch.randn(1, 5, 6)
    nbr = torch.tensor([[[1, 2], [0, 3], [4, 1], [2, 0], [3, 2]]])
    rel = torch.randn(1, 5, 2, 2)
    weight = torch.softmax(torch.randn(1, 5, 2), -1)  # quadrature weights: each row sums to 1
    hj = gather(h, nbr)
    hi = h.unsqueeze(2).expand_as(hj)
    w_own, w_other, w_rel = layer.own.weight, layer.other.weight, layer.rel.weight
    brute = torch.zeros(1, 5, 6)
    for i in range(5):
        for j in range(2):
            edge = hi[0, i, j] @ w_own.T + layer.own.bias + (hj[0, i, j] - hi[0, i, j]) @ w_other.T + rel[0, i, j] @ w_rel.T
            brute[0, i] += layer.out(torch.nn.functional.gelu(edge)) * weight[0, i, j]
    torch.testing.assert_close(layer(h, nbr, rel, weight), brute, atol=1e-5, rtol=1e-5)


def test_every_variant_is_permutation_equivariant(medium) -> None:  # type: ignore[no-untyped-def]
    mesh = adaptive_sample(medium)  # jittered, so that no two neighbour distances tie
    points = mesh.points + np.random.default_rng(1).uniform(-1e-3, 1e-3, mesh.points.shape)
    s = dataclasses.replace(mesh, points=points, cells=None)
    order = np.random.default_rng(0).permutation(len(s.points))
    shuffled = permuted(s, order)
    a, b = make_batch([s]), make_batch([shuffled])
    for variant in VARIANTS:
        torch.manual_seed(0)
        model = APTOperator(variant).eval()
        with torch.no_grad():
            pa = model(a.feats, a.points, a.nbr, a.nweight, a.node_area, a.queries, a.qidx, a.qweight)
            pb = model(b.feats, b.points, b.nbr, b.nweight, b.node_area, b.queries, b.qidx, b.qweight)
        torch.testing.assert_close(pa[0, order], pb[0], atol=1e-5, rtol=1e-4)


def test_decoding_at_other_query_points_and_fno_shapes(medium) -> None:  # type: ignore[no-untyped-def]
    low, high = regular_sample(medium, 32), regular_sample(medium, 64)
    batch = make_batch([low], [high])
    assert batch.queries.shape == (1, 4096, 2) and batch.feats.shape == (1, 1024, 4)
    torch.testing.assert_close(batch.qweight.sum(-1), torch.ones(1, 4096))
    out = APTOperator("fused")(batch.feats, batch.points, batch.nbr, batch.nweight, batch.node_area, batch.queries,
                               batch.qidx, batch.qweight)
    assert out.shape == (1, 4096, 2)  # pressure and saturation
    assert FNO()(fno_grid([low])).shape == (1, 2, 32, 32)


def test_the_ball_quadrature_does_not_depend_on_the_resolution(medium) -> None:  # type: ignore[no-untyped-def]
    """The local encoder averages over a ball of fixed radius with area weights, so the spread of the points it
    averages is the same at 32 x 32 and 64 x 64 (a fixed-k neighbour graph would halve its reach at 64 x 64)."""
    means = []
    for n in (32, 64):
        s = regular_sample(medium, n)
        idx, w = ball_neighbours(s.points, s.area)
        assert np.allclose(w.sum(1), 1.0)
        reach = np.sqrt(((s.points[idx] - s.points[:, None]) ** 2).sum(-1))
        assert (reach[w > 0] <= RADIUS + 1e-12).all()
        centre = np.argmin(((s.points - 0.5) ** 2).sum(1))
        means.append(float((w[centre] * ((s.points[idx[centre]] - s.points[centre]) ** 2).sum(-1)).sum()))
        assert reach[centre][w[centre] > 0].max() > 0.8 * RADIUS
    assert abs(means[0] - means[1]) < 0.2 * means[1]  # ~r^2 / 2 at both resolutions
