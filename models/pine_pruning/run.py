"""PINE: prune a random forest so that no prediction changes on a conformal in-distribution region."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.common.contract import Progress
from models.common.progress import MonotoneProgress
from models.common.tabular import TabularData, classification_blobs, load_dataset, region_threshold, split
from models.pine_pruning.chow_liu import ChowLiuTree, fit_chow_liu
from models.pine_pruning.ensemble import Forest, fit_forest
from models.pine_pruning.params import Params
from models.pine_pruning.pruning import FaithfulPruning, accuracy_pruning, faithful_prune
from models.pine_pruning.region import Sampler, box_sampler, region_sampler
from models.pine_pruning.result import (
    CHECK_ALPHA,
    AccuracyPruning,
    CurvePoint,
    FaithfulSummary,
    FullEnsemble,
    Result,
    WeightVector,
)

__all__ = ["run"]


@dataclass(frozen=True)
class Setting:
    """The fitted pieces every pruning of one run shares."""

    train: TabularData
    calibration: TabularData
    test: TabularData
    forest: Forest
    density: ChowLiuTree
    calibration_loglik: np.ndarray
    test_loglik: np.ndarray
    full_test: np.ndarray


def prepare(params: Params) -> Setting:
    """Data, split (50% train, 20% calibration, 30% test), forest on train, Chow-Liu density on train."""
    rng = np.random.default_rng(params.seed)
    data = (classification_blobs(params.samples, rng) if params.dataset == "synthetic"
            else load_dataset(params.dataset))
    train, calibration, test = split(data, [0.5, 0.2, 0.3], rng)
    forest = fit_forest(train.X, train.y, trees=params.trees, max_depth=params.max_depth, seed=params.seed)
    density = fit_chow_liu(train.X, bins=params.bins)
    return Setting(train, calibration, test, forest, density, density.log_likelihood(calibration.X),
                   density.log_likelihood(test.X), forest.predict(test.X))


def _summary(setting: Setting, pruning: FaithfulPruning, fresh: tuple[int, int]) -> dict[str, object]:
    forest, test = setting.forest, setting.test
    predicted = forest.predict(test.X, pruning.weights)
    return {
        "trees_kept": pruning.trees_kept, "test_agreement": float(np.mean(predicted == setting.full_test)),
        "test_accuracy": float(np.mean(predicted == test.y)), "rounds": pruning.rounds,
        "converged": pruning.converged, "optimal": pruning.optimal,
        "exact_on_constraints": pruning.exact_on_constraints, "constraint_points": pruning.constraint_points,
        "searched_points": pruning.searched_points, "fresh_points": fresh[0], "fresh_disagreements": fresh[1],
        "trees_per_round": pruning.trees_per_round, "disagreements_per_round": pruning.disagreements_per_round,
    }


def _prune(setting: Setting, params: Params, seeds: np.ndarray, sampler: Sampler, stream: int,
           progress: Progress) -> tuple[FaithfulPruning, tuple[int, int]]:
    if len(seeds) == 0:  # no training point in the region: start from draws of it
        seeds = sampler(np.random.default_rng([params.seed, stream, 1]), 20, np.empty((0, setting.train.d)))
    pruning = faithful_prune(setting.forest, seeds, sampler, np.random.default_rng([params.seed, stream]),
                             solver=params.solver, rounds=params.oracle_rounds, search_size=params.search_size,
                             add_per_round=params.add_per_round, time_limit=params.time_limit, progress=progress)
    rng = np.random.default_rng([params.seed, stream, 2])
    fresh = sampler(rng, params.check_size, setting.train.X)
    wrong = int(np.sum(setting.forest.predict(fresh, pruning.weights) != setting.forest.predict(fresh)))
    return pruning, (len(fresh), wrong)


def _pine(setting: Setting, params: Params, alpha: float, stream: int, progress: Progress) -> tuple[CurvePoint, np.ndarray]:
    threshold = region_threshold(setting.calibration_loglik, alpha)
    inside_train = setting.density.log_likelihood(setting.train.X) >= threshold
    sampler = region_sampler(setting.density, threshold)
    pruning, fresh = _prune(setting, params, setting.train.X[inside_train], sampler, stream, progress)
    inside_test = setting.test_loglik >= threshold
    predicted = setting.forest.predict(setting.test.X, pruning.weights)
    region_agreement = (float(np.mean(predicted[inside_test] == setting.full_test[inside_test]))
                        if np.any(inside_test) else float("nan"))
    point = CurvePoint(alpha=alpha, threshold=threshold, test_coverage=float(np.mean(inside_test)),
                       region_test_agreement=region_agreement,
                       **_summary(setting, pruning, fresh))  # type: ignore[arg-type]
    return point, pruning.weights


def _relative(weights: np.ndarray) -> list[float]:
    total = float(np.sum(weights))
    return (weights / total).tolist() if total > 0 else weights.tolist()


def run(params: Params, progress: Progress) -> Result:
    """Forest, density, then whole-space faithful pruning, PINE at every alpha, and accuracy pruning."""
    report = MonotoneProgress(progress)
    report(0.0, f"fitting a {params.trees}-tree forest on {params.dataset}")
    setting = prepare(params)
    report(0.05, "whole-space faithful pruning (FIPE-style)")
    whole_sampler = box_sampler(setting.density.low, setting.density.high)
    whole, whole_fresh = _prune(setting, params, setting.train.X, whole_sampler, 0, report.stage(0.05, 0.3))
    whole_summary = FaithfulSummary(**_summary(setting, whole, whole_fresh))  # type: ignore[arg-type]
    curve: list[CurvePoint] = []
    pine_weights: dict[float, np.ndarray] = {}
    span = 0.65 / len(params.alphas)
    for k, alpha in enumerate(params.alphas):
        stage = report.stage(0.3 + k * span, 0.3 + (k + 1) * span)
        stage(0.0, f"PINE at alpha = {alpha:g}")
        point, weights = _pine(setting, params, alpha, k + 1, stage)
        curve.append(point)
        pine_weights[alpha] = weights
    report(0.96, "accuracy-oriented pruning")
    accuracy_weights = accuracy_pruning(setting.forest, setting.calibration.X, setting.calibration.y)
    predicted = setting.forest.predict(setting.test.X, accuracy_weights)
    shown = min(pine_weights, key=lambda a: abs(a - CHECK_ALPHA))
    report(1.0, "done")
    return Result(
        dataset=params.dataset, features=setting.train.d, classes=setting.forest.classes,
        train_size=setting.train.n, calibration_size=setting.calibration.n, test_size=setting.test.n,
        solver=params.solver, chow_liu_parent=setting.density.parent.tolist(),
        full_ensemble=FullEnsemble(trees=params.trees,
                                   test_accuracy=float(np.mean(setting.full_test == setting.test.y))),
        curve=curve, whole_space=whole_summary,
        accuracy_pruning=AccuracyPruning(trees_kept=int(np.sum(accuracy_weights > 0)),
                                         test_agreement=float(np.mean(predicted == setting.full_test)),
                                         test_accuracy=float(np.mean(predicted == setting.test.y))),
        weights=[WeightVector(method=f"PINE (alpha = {shown:g})", weights=_relative(pine_weights[shown])),
                 WeightVector(method="whole-space faithful", weights=_relative(whole.weights)),
                 WeightVector(method="accuracy pruning", weights=_relative(accuracy_weights))],
    )
