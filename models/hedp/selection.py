"""Domain selection at inference, as HEDP's official code defines its cues, and nearest centroid.

For a test input x and each trained prompt d (`calLogits` / `getDistanceWeight` of the official trainer):
* energy cue E_d(x) = -logsumexp(logits_d(x)) (low = prompt d recognises x);
* distance cue D_d(x) = min_k ||f(x) - key_{d,k}||_2, the distance of the frozen feature f(x) to the
  nearest of domain d's k-means keys;
* two temperatures: a_d = exp((min_d' E_d' - E_d) / tau_E) and b_d = exp((min_d' D_d' - D_d) / tau_D);
  the prompt weights are pi_d = a_d b_d / sum_d' a_d' b_d', and the prediction mixes the *logits*,
  logits(x) = sum_d pi_d logits_d(x). The selected domain is arg max pi.
Energy only and distance only drop the other factor (its temperature is infinite). Nearest centroid
(S-Prompts, Wang et al. 2022) keeps only the prompt of the nearest key (tau_D -> 0).

Temperatures are chosen per selector on held-out images of the seen domains, from a grid of multiples
of each cue's spread there (`tune_temperatures`), so every selector is tuned alike.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from sklearn.cluster import KMeans

__all__ = ["GRID", "SELECTORS", "DomainScores", "Temperatures", "cue_scale", "domain_keys", "min_key_distance",
           "prompt_weights", "select", "tune_temperatures"]

SELECTORS = ("hybrid", "energy_only", "distance_only", "nearest_centroid")
GRID = (0.03, 0.1, 0.3, 1.0, 3.0)  # temperatures, in units of the cue's spread on held-out data


@dataclass(frozen=True)
class DomainScores:
    """Per input (rows) and prompt (columns): energies, nearest-key distances and logits."""

    energy: np.ndarray  # n x D
    distance: np.ndarray  # n x D
    logits: np.ndarray  # n x D x classes


@dataclass(frozen=True)
class Temperatures:
    energy: float  # inf: the energy cue is off
    distance: float  # inf: the distance cue is off


def domain_keys(features: list[np.ndarray], k: int, seed: int) -> list[np.ndarray]:
    """k-means keys of each domain's frozen training features (the official `vit_clustering`)."""
    return [KMeans(n_clusters=min(k, len(f)), n_init=3, random_state=seed).fit(f).cluster_centers_ for f in features]


def min_key_distance(features: np.ndarray, keys: list[np.ndarray]) -> np.ndarray:
    """n x D: the L2 distance of each feature to the nearest key of each domain."""
    out = np.empty((features.shape[0], len(keys)))
    for d, centres in enumerate(keys):
        d2 = ((features[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        out[:, d] = np.sqrt(d2.min(axis=1))
    return out


def _factor(cue: np.ndarray, temperature: float) -> np.ndarray:
    if np.isinf(temperature):
        return np.ones_like(cue)
    return np.exp((cue.min(axis=1, keepdims=True) - cue) / temperature)


def prompt_weights(scores: DomainScores, temperatures: Temperatures) -> np.ndarray:
    """pi = a * b / sum(a * b) per row (two-temperature product of the energy and distance factors)."""
    weights = _factor(scores.energy, temperatures.energy) * _factor(scores.distance, temperatures.distance)
    return weights / weights.sum(axis=1, keepdims=True)


def select(selector: str, scores: DomainScores, temperatures: Temperatures) -> tuple[np.ndarray, np.ndarray]:
    """(chosen domain per row, predicted class per row) of one selector."""
    if selector == "nearest_centroid":
        weights = np.eye(scores.distance.shape[1])[scores.distance.argmin(axis=1)]
    else:
        weights = prompt_weights(scores, temperatures)
    mixed = np.einsum("nd,ndc->nc", weights, scores.logits)
    return weights.argmax(axis=1), mixed.argmax(axis=1)


def cue_scale(cue: np.ndarray) -> float:
    """The spread of a cue's gaps to the row minimum (what its temperature is measured in)."""
    gaps = cue - cue.min(axis=1, keepdims=True)
    return max(float(gaps.std()), 1e-6)


def _candidates(selector: str, scale_e: float, scale_d: float) -> list[Temperatures]:
    inf = float("inf")
    if selector == "energy_only":
        return [Temperatures(g * scale_e, inf) for g in GRID]
    if selector == "distance_only":
        return [Temperatures(inf, g * scale_d) for g in GRID]
    if selector == "hybrid":
        return [Temperatures(a * scale_e, b * scale_d) for a, b in itertools.product(GRID, GRID)]
    return [Temperatures(inf, 0.0)]


def tune_temperatures(scores: DomainScores, labels: np.ndarray) -> dict[str, Temperatures]:
    """Per selector, the grid temperatures with the best held-out classification accuracy (first on ties)."""
    scale_e, scale_d = cue_scale(scores.energy), cue_scale(scores.distance)
    best: dict[str, Temperatures] = {}
    for selector in SELECTORS:
        options = _candidates(selector, scale_e, scale_d)
        accuracy = [float((select(selector, scores, t)[1] == labels).mean()) for t in options]
        best[selector] = options[int(np.argmax(accuracy))]
    return best
