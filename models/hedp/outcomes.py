"""Per-test-point outcomes of every selector, each at its own regulariser weight, and the paired differences.

One prompt set is trained per regulariser weight lambda (`Trained`). Every selector then picks its lambda
on held-out images of the seen domains (classification accuracy, first on ties), as its temperatures are
picked: the hybrid and energy only from the weights > 0 (the paper's method always regularises), distance
only and nearest centroid also from lambda = 0 (their cue does not need it). Everything the claims judge is
a paired difference on the same test images: 100 x (outcome of the hybrid - outcome of a competitor) per
test point, whose mean is the difference of the two accuracies in points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.hedp.selection import SELECTORS, DomainScores, Temperatures, select

__all__ = ["Points", "Trained", "choose_weights", "paired", "points", "weight_candidates"]


@dataclass(frozen=True)
class Trained:
    """One prompt set: its regulariser weight, tuned temperatures, held-out accuracy and test scores."""

    weight: float
    temperatures: dict[str, Temperatures]
    val_accuracy: dict[str, float]
    tests: list[DomainScores]  # one per domain of the stream (seen..., unseen)


@dataclass(frozen=True)
class Points:
    """Per selector, 0/1 per test point: right domain chosen (seen test points), right class (seen, unseen)."""

    chosen_ok: dict[str, np.ndarray]
    seen_correct: dict[str, np.ndarray]
    unseen_correct: dict[str, np.ndarray]


def weight_candidates(selector: str, weights: tuple[float, ...]) -> tuple[float, ...]:
    """The regulariser weights a selector may pick from: > 0 for the energy users, also 0 for the others."""
    positive = tuple(w for w in weights if w > 0)
    if selector in ("hybrid", "energy_only") and positive:
        return positive
    return tuple(sorted({0.0, *weights}))


def choose_weights(trained: list[Trained]) -> dict[str, Trained]:
    """Per selector, the prompt set with the best held-out accuracy among its candidate weights (first on ties)."""
    weights = tuple(t.weight for t in trained)
    out: dict[str, Trained] = {}
    for selector in SELECTORS:
        options = [t for t in trained if t.weight in weight_candidates(selector, weights)]
        out[selector] = options[int(np.argmax([t.val_accuracy[selector] for t in options]))]
    return out


def points(choice: dict[str, Trained], labels: list[np.ndarray], seen: int) -> Points:
    """Every selector's per-point outcomes, with its own prompt set and temperatures."""
    chosen_ok: dict[str, np.ndarray] = {}
    seen_correct: dict[str, np.ndarray] = {}
    unseen_correct: dict[str, np.ndarray] = {}
    for selector, t in choice.items():
        ok, correct = [], []
        for d, (scores, y) in enumerate(zip(t.tests, labels, strict=True)):
            chosen, predicted = select(selector, scores, t.temperatures[selector])
            if d < seen:
                ok.append(chosen == d)
                correct.append(predicted == y)
            else:
                unseen_correct[selector] = (predicted == y).astype(float)
        chosen_ok[selector] = np.concatenate(ok).astype(float)
        seen_correct[selector] = np.concatenate(correct).astype(float)
    return Points(chosen_ok, seen_correct, unseen_correct)


def paired(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """100 x (ours - theirs) per test point: its mean is the accuracy difference in points."""
    if ours.shape != theirs.shape:
        raise ValueError(f"paired outcomes need the same test points ({ours.shape} vs {theirs.shape})")
    return 100.0 * (ours - theirs)
