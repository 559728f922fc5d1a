"""Per-selector choice of the regulariser weight and the per-test-point paired differences."""

from __future__ import annotations

import numpy as np
import pytest

from models.hedp.outcomes import Trained, choose_weights, paired, points, weight_candidates
from models.hedp.params import LAMBDAS, Params
from models.hedp.selection import SELECTORS, DomainScores, Temperatures

INF = float("inf")


def _trained(weight: float, accuracy: dict[str, float]) -> Trained:
    return Trained(weight, {}, accuracy, [])


def test_each_selector_takes_its_best_held_out_weight_and_the_energy_users_never_zero() -> None:
    acc = {
        0.0: {"hybrid": 0.99, "energy_only": 0.99, "distance_only": 0.9, "nearest_centroid": 0.5},
        0.1: {"hybrid": 0.7, "energy_only": 0.6, "distance_only": 0.8, "nearest_centroid": 0.6},
        1.0: {"hybrid": 0.8, "energy_only": 0.5, "distance_only": 0.8, "nearest_centroid": 0.6},
    }
    choice = choose_weights([_trained(w, a) for w, a in acc.items()])
    assert {s: t.weight for s, t in choice.items()} == {
        "hybrid": 1.0, "energy_only": 0.1, "distance_only": 0.0, "nearest_centroid": 0.1}  # first on ties


def test_weight_candidates_and_the_params_grid() -> None:
    assert weight_candidates("hybrid", (0.0, 0.1, 1.0)) == (0.1, 1.0)
    assert weight_candidates("distance_only", (0.0, 0.1, 1.0)) == (0.0, 0.1, 1.0)
    assert weight_candidates("energy_only", (0.0,)) == (0.0,)  # regulariser off: nothing else to pick
    assert Params().weights() == (0.0, *LAMBDAS)
    assert Params(tune_energy_weight=False, energy_weight=1.0).weights() == (0.0, 1.0)
    assert Params(tune_energy_weight=False, energy_weight=0.0).weights() == (0.0,)


def test_paired_differences_average_to_the_accuracy_gap_in_points() -> None:
    rng = np.random.default_rng(0)
    ours, theirs = (rng.random(500) < 0.7).astype(float), (rng.random(500) < 0.6).astype(float)
    units = paired(ours, theirs)
    assert units.mean() == pytest.approx(100 * (ours.mean() - theirs.mean()))
    assert set(np.unique(units)) <= {-100.0, 0.0, 100.0}
    with pytest.raises(ValueError, match="same test points"):
        paired(ours, theirs[:-1])


def test_points_score_each_selector_with_its_own_prompt_set() -> None:
    """Two prompt sets that disagree: each selector's outcomes come from the set it chose."""
    n, domains, classes = 6, 2, 3
    labels = [np.arange(n) % classes, np.arange(n) % classes, np.arange(n) % classes]  # 2 seen + unseen

    def scores(right: bool, d: int) -> DomainScores:
        logits = np.zeros((n, domains, classes))
        target = labels[d] if right else (labels[d] + 1) % classes
        logits[np.arange(n), :, target] = 5.0
        distance = np.ones((n, domains))
        distance[:, min(d, domains - 1)] = 0.0  # the nearest key is the true domain (unseen: the last)
        return DomainScores(np.zeros((n, domains)), distance, logits)

    temps = {s: Temperatures(INF, 1.0) for s in SELECTORS}
    good = Trained(0.0, temps, {}, [scores(True, d) for d in range(3)])
    bad = Trained(1.0, temps, {}, [scores(False, d) for d in range(3)])
    choice = {"hybrid": good, "energy_only": bad, "distance_only": good, "nearest_centroid": bad}
    pts = points(choice, labels, seen=2)
    assert pts.seen_correct["hybrid"].mean() == 1.0 and pts.seen_correct["energy_only"].mean() == 0.0
    assert pts.unseen_correct["distance_only"].mean() == 1.0 and pts.unseen_correct["nearest_centroid"].mean() == 0.0
    assert pts.chosen_ok["nearest_centroid"].mean() == 1.0 and len(pts.chosen_ok["hybrid"]) == 2 * n


def test_the_uniform_reference_mixes_every_prompt_equally_and_always_names_the_first() -> None:
    n, classes = 4, 3
    logits = np.zeros((n, 2, classes))
    logits[:, 0, 0], logits[:, 1, 1] = 1.0, 3.0  # the mean of the two prompts' logits picks class 1
    scores = DomainScores(np.array([[0.0, 9.0]] * n), np.array([[0.0, 9.0]] * n), logits)
    uniform = Trained(0.1, {"uniform": Temperatures(INF, INF)}, {}, [scores, scores, scores])
    pts = points({"uniform": uniform}, [np.ones(n, dtype=int)] * 3, seen=2)
    assert pts.seen_correct["uniform"].mean() == 1.0  # despite both cues favouring prompt 0 (class 0)
    assert list(pts.chosen_ok["uniform"]) == [1.0] * n + [0.0] * n
