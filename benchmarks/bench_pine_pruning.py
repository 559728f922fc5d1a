"""Cost of PINE's core against its straightforward formulation, and the headline table over seeds.

* The oracle's disagreement check on N region points (the inner loop of every round): one batched
  `tree_.apply` per tree and a table lookup (vectorised) vs a per-sample Python loop over the trees'
  scikit-learn `predict_proba` (the obvious implementation). Both give identical votes (checked).
* The headline table: the default setting (synthetic data, 100 trees) for three seeds: trees kept by
  PINE at each alpha, by whole-space faithful pruning and by accuracy pruning, test agreement, and
  whether the oracle's last search came up empty.

    python benchmarks/bench_pine_pruning.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.common.tabular import classification_blobs  # noqa: E402
from models.pine_pruning.ensemble import fit_forest  # noqa: E402
from models.pine_pruning.params import Params  # noqa: E402
from models.pine_pruning.run import run  # noqa: E402


def _loop_votes(forest, X: np.ndarray, weights: np.ndarray) -> np.ndarray:  # type: ignore[no-untyped-def]
    votes = np.empty(len(X), dtype=int)
    for i, x in enumerate(X.astype(np.float32)):
        total = np.zeros(forest.classes)
        for tree, w in zip(forest.trees, weights, strict=True):
            if w:
                total += w * tree.predict_proba(x[None, :])[0]
        votes[i] = int(np.argmax(total))
    return votes


def bench_oracle_check(points: int) -> None:
    rng = np.random.default_rng(0)
    data = classification_blobs(900, rng)
    forest = fit_forest(data.X, data.y, trees=100, max_depth=3, seed=0)
    X = classification_blobs(points, np.random.default_rng(1)).X
    weights = np.where(rng.random(100) < 0.5, rng.random(100), 0.0)
    start = time.perf_counter()
    fast = forest.predict(X, weights) != forest.predict(X)
    vectorised = time.perf_counter() - start
    start = time.perf_counter()
    slow = _loop_votes(forest, X, weights) != _loop_votes(forest, X, np.ones(100))
    loop = time.perf_counter() - start
    assert np.array_equal(fast, slow)
    print(f"oracle check, {points} points x 100 trees: vectorised {vectorised * 1e3:.1f} ms, per-sample loop "
          f"{loop * 1e3:.0f} ms, ratio {loop / vectorised:.0f}x (identical disagreement masks)")


def headline(seeds: list[int]) -> None:
    print("\nseed | PINE trees kept by alpha | whole-space | accuracy | agreement@0.1 | whole agr. | "
          "converged (PINE / whole) | verdict | seconds")
    for seed in seeds:
        start = time.perf_counter()
        result = run(Params(seed=seed), no_progress)
        seconds = time.perf_counter() - start
        point = result.at_check_alpha()
        kept = " ".join(f"{p.alpha:g}:{p.trees_kept}" for p in result.curve)
        converged = f"{sum(p.converged for p in result.curve)}/{len(result.curve)} / {result.whole_space.converged}"
        print(f"{seed} | {kept} | {result.whole_space.trees_kept} | {result.accuracy_pruning.trees_kept} | "
              f"{point.test_agreement if point else float('nan'):.3f} | {result.whole_space.test_agreement:.3f} | "
              f"{converged} | {result.verdict().label} | {seconds:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller check, one seed")
    args = parser.parse_args()
    bench_oracle_check(200 if args.quick else 1000)
    headline([0] if args.quick else [0, 1, 2])


if __name__ == "__main__":
    main()
