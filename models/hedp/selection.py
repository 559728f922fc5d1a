"""Domain selection at inference: the energy cue, the distance cue, their hybrid fusion and nearest centroids.

For a test input x and each trained prompt d:
* energy cue E_d(x) = -logsumexp(logits_d(x)) (low = the prompt recognises x);
* distance cue D_d(x) = ||f(x) - mu_d||^2, mu_d the mean backbone feature of domain d's training data.
Each cue is standardised by its own domain's training statistics, z = (cue - mean_d) / std_d, so the
two are on one scale; the hybrid score is s_d = -(w z_E + (1 - w) z_D), the prompt weights are
pi = softmax(s / T), the selected domain is argmax pi and the prediction sum_d pi_d softmax(logits_d).
Energy only and distance only are w = 1 and w = 0 of the same rule. Nearest centroid (S-Prompts,
Wang et al. 2022) runs k-means on each domain's training features and picks the domain of the
nearest centre, with the prompt of that domain alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from sklearn.cluster import KMeans

__all__ = ["SELECTORS", "CueStatistics", "DomainScores", "fit_cue_statistics", "select"]

SELECTORS = ("hybrid", "energy_only", "distance_only", "nearest_centroid")


@dataclass(frozen=True)
class DomainScores:
    """Per test input (rows) and prompt (columns): energies, squared distances, class probabilities."""

    energy: np.ndarray  # n x D
    distance: np.ndarray  # n x D
    probabilities: np.ndarray  # n x D x classes
    nearest_centroid: np.ndarray  # n, index of the domain of the nearest k-means centre


@dataclass(frozen=True)
class CueStatistics:
    energy_mean: np.ndarray
    energy_std: np.ndarray
    distance_mean: np.ndarray
    distance_std: np.ndarray


def fit_cue_statistics(own_energy: list[np.ndarray], own_distance: list[np.ndarray]) -> CueStatistics:
    """Mean and spread of each domain's cues on its own training data."""
    return CueStatistics(
        np.array([e.mean() for e in own_energy]),
        np.array([max(float(e.std()), 1e-6) for e in own_energy]),
        np.array([d.mean() for d in own_distance]),
        np.array([max(float(d.std()), 1e-6) for d in own_distance]),
    )


def fit_centroids(features: list[np.ndarray], k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """k-means centres of every domain stacked, and the domain of each centre."""
    centres, owner = [], []
    for d, f in enumerate(features):
        km = KMeans(n_clusters=min(k, len(f)), n_init=3, random_state=seed).fit(f)
        centres.append(km.cluster_centers_)
        owner.extend([d] * km.cluster_centers_.shape[0])
    return np.concatenate(centres), np.array(owner)


def nearest_centre_domain(features: np.ndarray, centres: np.ndarray, owner: np.ndarray) -> np.ndarray:
    d2 = ((features[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    return owner[d2.argmin(axis=1)]


def prompt_weights(scores: DomainScores, stats: CueStatistics, energy_weight: float, temperature: float) -> np.ndarray:
    """pi = softmax(-(w z_E + (1 - w) z_D) / T) over prompts, per row."""
    z_e = (scores.energy - stats.energy_mean) / stats.energy_std
    z_d = (scores.distance - stats.distance_mean) / stats.distance_std
    fused = -(energy_weight * z_e + (1.0 - energy_weight) * z_d) / temperature
    return torch.softmax(torch.as_tensor(fused), dim=1).numpy()


def select(
    selector: str, scores: DomainScores, stats: CueStatistics, fusion_weight: float, temperature: float
) -> tuple[np.ndarray, np.ndarray]:
    """(chosen domain per row, predicted class per row) of one selector."""
    domains = scores.energy.shape[1]
    if selector == "nearest_centroid":
        weights = np.eye(domains)[scores.nearest_centroid]
    else:
        w = {"hybrid": fusion_weight, "energy_only": 1.0, "distance_only": 0.0}[selector]
        weights = prompt_weights(scores, stats, w, temperature)
    mixed = np.einsum("nd,ndc->nc", weights, scores.probabilities)
    return weights.argmax(axis=1), mixed.argmax(axis=1)
