"""Energy, the band loss and its gradient, the fused selection rule and the domains."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.hedp.domains import build_domains
from models.hedp.prompts import energy, energy_band_loss
from models.hedp.selection import (
    CueStatistics,
    DomainScores,
    nearest_centre_domain,
    prompt_weights,
    select,
)


def test_energy_is_minus_logsumexp() -> None:
    logits = torch.tensor([[0.0, 0.0], [3.0, -1.0]])
    assert torch.allclose(energy(logits), torch.tensor([-np.log(2.0), -np.log(np.exp(3.0) + np.exp(-1.0))], dtype=torch.float32))


def test_band_loss_is_zero_inside_and_quadratic_outside() -> None:
    e = torch.tensor([-8.0, -7.0])
    assert float(energy_band_loss(e, -10.0, -6.0)) == 0.0
    assert float(energy_band_loss(torch.tensor([-4.0, -12.0]), -10.0, -6.0)) == pytest.approx((4.0 + 4.0) / 2)


def test_band_loss_gradient_matches_finite_differences() -> None:
    e = torch.tensor([-12.5, -8.0, -3.0, -6.2], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda v: energy_band_loss(v, -10.0, -6.0), (e,))


def _scores() -> tuple[DomainScores, CueStatistics]:
    energy_ = np.array([[-9.0, -5.0, -6.0], [-4.0, -8.0, -3.0]])
    distance = np.array([[5.0, 1.0, 9.0], [3.0, 2.0, 0.5]])
    probs = np.zeros((2, 3, 4))
    probs[:, 0, 0] = probs[:, 1, 1] = probs[:, 2, 2] = 1.0
    stats = CueStatistics(np.full(3, -7.0), np.ones(3), np.full(3, 2.0), np.ones(3))
    return DomainScores(energy_, distance, probs, np.array([2, 1])), stats


def test_fused_weights_follow_the_rule() -> None:
    scores, stats = _scores()
    pi = prompt_weights(scores, stats, 0.5, 1.0)
    assert np.allclose(pi.sum(axis=1), 1.0)
    z_e, z_d = scores.energy + 7.0, scores.distance - 2.0
    fused = -(0.5 * z_e + 0.5 * z_d)
    expected = np.exp(fused) / np.exp(fused).sum(axis=1, keepdims=True)
    assert np.allclose(pi, expected)


def test_single_cue_selectors_pick_their_own_argmin() -> None:
    scores, stats = _scores()
    chosen_e, pred_e = select("energy_only", scores, stats, 0.5, 1.0)
    chosen_d, _ = select("distance_only", scores, stats, 0.5, 1.0)
    chosen_nc, pred_nc = select("nearest_centroid", scores, stats, 0.5, 1.0)
    assert chosen_e.tolist() == [0, 1] and pred_e.tolist() == [0, 1]
    assert chosen_d.tolist() == [1, 2]
    assert chosen_nc.tolist() == [2, 1] and pred_nc.tolist() == [2, 1]


def test_nearest_centre_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    feats, centres = rng.normal(size=(30, 4)), rng.normal(size=(6, 4))
    owner = np.array([0, 0, 1, 1, 2, 2])
    brute = [owner[int(np.argmin([np.sum((f - c) ** 2) for c in centres]))] for f in feats]
    assert nearest_centre_domain(feats, centres, owner).tolist() == brute


def test_domains_share_test_images_and_split_training_images() -> None:
    domains = build_domains(np.random.default_rng(0))
    assert [d.seen for d in domains] == [True] * 4 + [False]
    assert all(np.array_equal(d.y_test, domains[0].y_test) for d in domains)
    assert np.allclose(domains[1].x_test, 1.0 - domains[0].x_test)
    assert sum(len(d.y_train) for d in domains) == 1797 - len(domains[0].y_test)
    assert domains[4].x_train.shape[0] == 0
