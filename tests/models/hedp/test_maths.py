"""Energy, the official regulariser and its gradient, the two-temperature fusion, the nearest-key
distance, temperature tuning and the domains."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.hedp.domains import build_domains
from models.hedp.prompts import energy, energy_regulariser
from models.hedp.selection import (
    DomainScores,
    Temperatures,
    min_key_distance,
    prompt_weights,
    select,
    tune_temperatures,
)

INF = float("inf")


def test_energy_is_minus_t_logsumexp() -> None:
    logits = torch.tensor([[0.0, 0.0], [3.0, -1.0]])
    assert torch.allclose(energy(logits), torch.tensor([-np.log(2.0), -np.log(np.exp(3.0) + np.exp(-1.0))], dtype=torch.float32))
    assert torch.allclose(energy(logits, 2.0), -2.0 * torch.logsumexp(logits / 2.0, dim=1))


def test_regulariser_is_midline_gap_plus_mean_excess_over_the_border() -> None:
    # mean -8 = midline, nothing above the border: zero
    assert float(energy_regulariser(torch.tensor([-9.0, -7.0]), -8.0, -6.0)) == 0.0
    # mean -7 (1 from the midline); -4 and -5 exceed the border by 2 and 1: 1 + 1.5
    e = torch.tensor([-4.0, -5.0, -12.0, -7.0])
    assert float(energy_regulariser(e, -8.0, -6.0)) == pytest.approx(1.0 + 1.5)


def test_regulariser_gradient_matches_finite_differences() -> None:
    e = torch.tensor([-12.5, -8.1, -3.0, -6.2], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda v: energy_regulariser(v, -10.0, -6.0), (e,))


def _scores() -> DomainScores:
    energy_ = np.array([[-9.0, -5.0, -6.0], [-4.0, -8.0, -3.0]])
    distance = np.array([[5.0, 1.0, 9.0], [3.0, 2.0, 0.5]])
    logits = np.zeros((2, 3, 4))
    logits[:, 0, 0] = logits[:, 1, 1] = logits[:, 2, 2] = 5.0
    return DomainScores(energy_, distance, logits)


def test_fused_weights_are_the_normalised_product_of_the_two_factors() -> None:
    scores = _scores()
    pi = prompt_weights(scores, Temperatures(2.0, 0.5))
    a = np.exp((scores.energy.min(axis=1, keepdims=True) - scores.energy) / 2.0)
    b = np.exp((scores.distance.min(axis=1, keepdims=True) - scores.distance) / 0.5)
    assert np.allclose(pi, a * b / (a * b).sum(axis=1, keepdims=True))
    assert np.allclose(pi.sum(axis=1), 1.0)


def test_prediction_mixes_logits_not_probabilities() -> None:
    # prompt 0 is very sure of class 0 (logit 10), prompts 1 and 2 mildly prefer class 1 (logit 3 each):
    # equal weights mix logits to (10/3, 2, 0): class 0; mixing probabilities would give class 1
    logits = np.zeros((1, 3, 2))
    logits[0, 0, 0], logits[0, 1, 1], logits[0, 2, 1] = 10.0, 3.0, 3.0
    scores = DomainScores(np.zeros((1, 3)), np.zeros((1, 3)), logits)
    assert select("hybrid", scores, Temperatures(1.0, 1.0))[1].tolist() == [0]


def test_single_cue_selectors_pick_their_own_argmin() -> None:
    scores = _scores()
    chosen_e, pred_e = select("energy_only", scores, Temperatures(1.0, INF))
    chosen_d, _ = select("distance_only", scores, Temperatures(INF, 1.0))
    chosen_nc, pred_nc = select("nearest_centroid", scores, Temperatures(INF, 0.0))
    assert chosen_e.tolist() == [0, 1] and pred_e.tolist() == [0, 1]
    assert chosen_d.tolist() == [1, 2]
    assert chosen_nc.tolist() == [1, 2] and pred_nc.tolist() == [1, 2]


def test_nearest_key_distance_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    feats = rng.normal(size=(30, 4))
    keys = [rng.normal(size=(3, 4)), rng.normal(size=(1, 4))]
    brute = [[min(np.linalg.norm(f - c) for c in k) for k in keys] for f in feats]
    assert np.allclose(min_key_distance(feats, keys), brute)


def test_tuning_prefers_the_informative_cue() -> None:
    rng = np.random.default_rng(1)
    n, domains = 200, 3
    truth = rng.integers(0, domains, n)
    logits = np.zeros((n, domains, domains))
    logits[np.arange(n), :, :] = -5.0
    for d in range(domains):
        logits[:, d, d] = 5.0  # prompt d always predicts class d; the label is the domain
    distance = rng.normal(size=(n, domains)) + 3.0 * (np.arange(domains)[None, :] != truth[:, None])
    scores = DomainScores(rng.normal(size=(n, domains)), distance, logits)  # energy is noise
    best = tune_temperatures(scores, truth)
    distance_only_acc = (select("distance_only", scores, best["distance_only"])[1] == truth).mean()
    energy_only_acc = (select("energy_only", scores, best["energy_only"])[1] == truth).mean()
    assert distance_only_acc > 0.85 > 0.6 > energy_only_acc
    assert np.isfinite(best["hybrid"].energy) and np.isfinite(best["hybrid"].distance)


def test_domains_share_test_images_and_split_training_images() -> None:
    stream = build_domains(np.random.default_rng(0))
    domains = stream.domains
    assert [d.seen for d in domains] == [True] * 4 + [False]
    assert all(np.array_equal(d.y_test, domains[0].y_test) for d in domains)
    assert np.allclose(domains[1].x_test, 1.0 - domains[0].x_test)
    held = sum(len(d.y_train) + len(d.y_val) for d in domains)
    assert held == 1797 - len(domains[0].y_test) == len(stream.pretrain_y)
    assert domains[4].x_train.shape[0] == 0 and all(len(d.y_val) > 0 for d in stream.seen)
