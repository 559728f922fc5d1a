"""Drift detection: a class-conditional Gaussian reference generator and a class-conditional linear discriminator.

Reference: for every class y of the data the client last learned, a Gaussian N(mu_y, diag(s_y^2))
(the paper uses a conditional generative model; a Gaussian per class is its simplest instance).
Discriminator: for each class y, a linear rule between reference samples (label 0) and the new data
of that class (label 1), Gaussian naive Bayes with a shared diagonal variance:
    logit(x) = w . x + b,  w = (mu_new - mu_ref) / s^2,  b = -w . (mu_new + mu_ref) / 2,
fitted on one half of each side and scored on the other. The drift score is 2 x held-out accuracy - 1
(0 = indistinguishable, 1 = perfectly separated); P(new | x, y) = sigmoid(logit) gives per-sample weights.
A linear rule cannot tell real data from a Gaussian with the same means, so without drift the score
stays near 0; a permutation or rotation moves the class means and the score rises with the change.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["DriftScore", "GaussianReference", "score_drift", "wilson_interval"]

MIN_PER_SIDE = 4
VARIANCE_FLOOR = 1e-2


@dataclass
class GaussianReference:
    """Per-class means and variances of the data a client learned last."""

    means: dict[int, np.ndarray]
    variances: dict[int, np.ndarray]

    @classmethod
    def fit(cls, x: np.ndarray, y: np.ndarray) -> GaussianReference:
        means, variances = {}, {}
        for label in np.unique(y):
            rows = x[y == label]
            means[int(label)] = rows.mean(axis=0)
            variances[int(label)] = rows.var(axis=0) + VARIANCE_FLOOR
        return cls(means, variances)

    def sample(self, label: int, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.normal(self.means[label], np.sqrt(self.variances[label]), size=(n, self.means[label].size))


@dataclass(frozen=True)
class DriftScore:
    score: float  # 2 x held-out accuracy - 1, clipped at 0
    sample_new_probability: np.ndarray  # P(new | x_i, y_i) for every row of the new data


def score_drift(reference: GaussianReference, x: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> DriftScore:
    """Discriminate reference samples from the new data class by class; return the score and P(new) per row."""
    probability = np.full(len(y), 0.5)
    correct, total = 0, 0
    for label in np.unique(y):
        rows = np.flatnonzero(y == label)
        if rows.size < 2 * MIN_PER_SIDE:
            continue
        new = x[rows]
        if int(label) not in reference.means:  # a class never seen before is new by definition
            probability[rows] = 1.0
            correct += rows.size // 2
            total += rows.size // 2
            continue
        ref = reference.sample(int(label), rows.size, rng)
        order_new, order_ref = rng.permutation(rows.size), rng.permutation(rows.size)
        half = rows.size // 2
        fit_new, held_new = new[order_new[:half]], new[order_new[half:]]
        fit_ref, held_ref = ref[order_ref[:half]], ref[order_ref[half:]]
        mu_new, mu_ref = fit_new.mean(axis=0), fit_ref.mean(axis=0)
        pooled = 0.5 * (fit_new.var(axis=0) + fit_ref.var(axis=0)) + VARIANCE_FLOOR
        w = (mu_new - mu_ref) / pooled
        b = -float(w @ (mu_new + mu_ref)) / 2.0
        correct += int((held_new @ w + b > 0).sum()) + int((held_ref @ w + b <= 0).sum())
        total += held_new.shape[0] + held_ref.shape[0]
        probability[rows] = 1.0 / (1.0 + np.exp(-np.clip(new @ w + b, -30, 30)))
    accuracy = correct / total if total else 0.5
    return DriftScore(max(0.0, 2.0 * accuracy - 1.0), probability)


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial rate (95% at z = 1.96); (0, 1) without trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * np.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, float(centre - half)), min(1.0, float(centre + half))
