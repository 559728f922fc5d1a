"""PINE: per seed, prune a boosted ensemble (or a forest) so that no prediction changes on a conformal
in-distribution region, proved by a MILP oracle; whole-space faithful and accuracy pruning alongside."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.contract import Progress
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.common.tabular import TabularData, classification_blobs, load_dataset, region_threshold, split
from models.pine_pruning.chow_liu import ChowLiuTree, fit_chow_liu
from models.pine_pruning.claims import CLAIMS
from models.pine_pruning.ensemble import Ensemble, fit_ensemble
from models.pine_pruning.oracle import EquivalenceOracle
from models.pine_pruning.params import Params
from models.pine_pruning.pruning import FaithfulPruning, accuracy_pruning, faithful_prune
from models.pine_pruning.region import Sampler, box_sampler, region_sampler
from models.pine_pruning.result import (
    COMPETITORS,
    AccuracyPruning,
    CurvePoint,
    FaithfulSummary,
    Result,
    SeedRun,
    WeightVector,
)

__all__ = ["measure", "prepare", "run"]


@dataclass(frozen=True)
class Setting:
    """The fitted pieces every pruning of one seed shares."""

    train: TabularData
    calibration: TabularData
    test: TabularData
    ensemble: Ensemble
    density: ChowLiuTree
    calibration_loglik: np.ndarray
    test_loglik: np.ndarray
    full_test: np.ndarray


def prepare(params: Params, seed: int) -> Setting:
    """Data, split (50% train, 20% calibration, 30% test), ensemble and Chow-Liu density on train."""
    rng = np.random.default_rng(seed)
    data = (classification_blobs(params.samples, rng) if params.dataset == "synthetic"
            else load_dataset(params.dataset))
    train, calibration, test = split(data, [0.5, 0.2, 0.3], rng)
    ensemble = fit_ensemble(params.ensemble, train.X, train.y, trees=params.trees, max_depth=params.max_depth,
                            seed=seed)
    snapped = params.bin_edges == "snapped"
    density = fit_chow_liu(train.X, bins=params.bins, thresholds=ensemble.thresholds(train.d) if snapped else None,
                           discrete=snapped)
    return Setting(train, calibration, test, ensemble, density, density.log_likelihood(calibration.X),
                   density.log_likelihood(test.X), ensemble.predict(test.X))


def _prune(setting: Setting, params: Params, seed: int, stream: int, threshold: float | None,
           progress: Progress) -> tuple[FaithfulPruning, FaithfulSummary]:
    """One faithful pruning (on the region of log-likelihood >= `threshold`, or on the whole box when it
    is None) and its summary: size, test agreement and accuracy, the oracle's evidence, a fresh re-check."""
    d = setting.density
    region = None if threshold is None else (d, threshold)
    sampler: Sampler = box_sampler(d.low, d.high) if threshold is None else region_sampler(d, threshold)
    oracle = EquivalenceOracle(setting.ensemble, d.low, d.high, region=region, time_limit=params.oracle_time_limit)
    start = setting.train.X if threshold is None else setting.train.X[d.log_likelihood(setting.train.X) >= threshold]
    if len(start) == 0:
        start = sampler(np.random.default_rng([seed, stream, 1]), 20, np.empty((0, setting.train.d)))
    pruning = faithful_prune(setting.ensemble, start, oracle, sampler, np.random.default_rng([seed, stream]),
                             solver=params.solver, rounds=params.oracle_rounds, search_size=params.search_size,
                             add_per_round=params.add_per_round, time_limit=params.time_limit, progress=progress)
    fresh = sampler(np.random.default_rng([seed, stream, 2]), params.check_size, setting.train.X)
    e, w = setting.ensemble, pruning.weights
    predicted = e.predict(setting.test.X, w)
    summary = FaithfulSummary(
        trees_kept=pruning.trees_kept, test_agreement=float(np.mean(predicted == setting.full_test)),
        test_accuracy=float(np.mean(predicted == setting.test.y)), rounds=pruning.rounds,
        converged=pruning.converged, fell_back=pruning.fell_back, oracle_calls=pruning.oracle_calls,
        oracle_seconds=pruning.oracle_seconds, seconds=pruning.seconds,
        constraint_points=pruning.constraint_points, fresh_points=len(fresh),
        fresh_disagreements=int(np.sum(e.predict(fresh, w) != e.predict(fresh))),
        trees_per_round=pruning.trees_per_round, searched_per_round=pruning.searched_per_round,
        milp_per_round=pruning.milp_per_round,
    )
    return pruning, summary


def _one_seed(params: Params, seed: int, progress: Progress) -> tuple[SeedRun, Setting, dict[str, np.ndarray]]:
    report = MonotoneProgress(progress)
    report(0.0, f"seed {seed}: fitting {params.ensemble.replace('_', ' ')} on {params.dataset}")
    setting = prepare(params, seed)
    whole, whole_summary = _prune(setting, params, seed, 0, None, report.stage(0.02, 0.3))
    curve, weights = [], {"whole_space": whole.weights}
    span = 0.65 / len(params.alphas)
    for k, alpha in enumerate(params.alphas):
        stage = report.stage(0.3 + k * span, 0.3 + (k + 1) * span)
        stage(0.0, f"seed {seed}: PINE at alpha = {alpha:g}")
        threshold = region_threshold(setting.calibration_loglik, alpha)
        pruning, summary = _prune(setting, params, seed, k + 1, threshold, stage)
        curve.append(CurvePoint(alpha=alpha, threshold=threshold,
                                test_coverage=float(np.mean(setting.test_loglik >= threshold)), **summary.model_dump()))
        weights[f"alpha {alpha:g}"] = pruning.weights
    accuracy = accuracy_pruning(setting.ensemble, setting.calibration.X, setting.calibration.y)
    weights["accuracy"] = accuracy
    predicted = setting.ensemble.predict(setting.test.X, accuracy)
    run = SeedRun(seed=seed, full_test_accuracy=float(np.mean(setting.full_test == setting.test.y)), curve=curve,
                  whole_space=whole_summary,
                  accuracy_pruning=AccuracyPruning(trees_kept=int(np.sum(accuracy > 0)),
                                                   test_agreement=float(np.mean(predicted == setting.full_test)),
                                                   test_accuracy=float(np.mean(predicted == setting.test.y))))
    return run, setting, weights


def measure(run: SeedRun, total: int) -> dict[str, Measurement]:
    """Each claim's quantity on one seed (see claims.py)."""
    whole = run.whole_space
    proved = [p.converged for p in run.curve]
    gap = min(p.test_agreement - (1 - p.alpha) for p in run.curve)
    some_pruned = any(p.trees_kept < total for p in run.curve)
    beyond = [100.0 * (whole.trees_kept - p.trees_kept) / total for p in sorted(run.curve, key=lambda p: p.alpha)]
    kept = ", ".join(f"{p.trees_kept}" for p in sorted(run.curve, key=lambda p: p.alpha))
    return {
        "compression": Measurement(float(np.mean(beyond)), floor_ok=whole.converged,
                                   note=f"PINE {kept} vs whole space {whole.trees_kept} of {total} trees",
                                   units=beyond, null=0.0),
        "monotone": Measurement(float(run.increases()), floor_ok=len(run.curve) >= 2 and some_pruned, note=kept),
        "agreement": Measurement(gap, floor_ok=all(proved), note=f"{sum(proved)} of {len(proved)} proved"),
        "converged": Measurement((sum(proved) + whole.converged) / (len(proved) + 1)),
    }


def _standing(runs: list[SeedRun], total: int) -> Standing:
    """Trees kept at the agreement level: a pruning below 1 - α test agreement counts as the full ensemble."""
    def kept(trees: int, agreement: float, alpha: float) -> float:
        return float(trees) if agreement >= 1 - alpha else float(total)

    scores = {"pine": [kept(r.at_check_alpha().trees_kept, r.at_check_alpha().test_agreement, r.at_check_alpha().alpha)
                       for r in runs],
              "whole_space": [kept(r.whole_space.trees_kept, r.whole_space.test_agreement, r.at_check_alpha().alpha)
                              for r in runs],
              "accuracy": [kept(r.accuracy_pruning.trees_kept, r.accuracy_pruning.test_agreement,
                                r.at_check_alpha().alpha) for r in runs],
              "full": [float(total)] * len(runs)}
    return Standing(metric="trees kept at test agreement >= 1 - α (below it: counted as the full ensemble)",
                    lower_is_better=True, method="pine", seed_scores=scores, labels=COMPETITORS)


def run(params: Params, progress: Progress) -> Result:
    """Every seed in turn, then the claims over the seeds and the standing on trees kept."""
    start = time.perf_counter()
    seeds = seed_values(params.seed, params.seeds)
    outcomes = run_seeds(seeds, lambda s, p: _one_seed(params, s, p), progress)
    runs = [o[0] for o in outcomes]
    setting, weights = outcomes[0][1], outcomes[0][2]
    total = setting.ensemble.size
    measured = [measure(r, total) for r in runs]
    result = Result(
        dataset=params.dataset, ensemble=params.ensemble, features=setting.train.d, classes=setting.ensemble.classes,
        total_trees=total, train_size=setting.train.n, calibration_size=setting.calibration.n,
        test_size=setting.test.n, solver=params.solver, per_seed=runs,
        weights=[WeightVector(method=name, weights=w.tolist()) for name, w in weights.items()],
        seconds=time.perf_counter() - start,
        claims=evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds),
    )
    result.standing = _standing(runs, total)
    return result
