"""Cost of PINE's core against its straightforward formulation, and the headline table over seeds.

* The exact MILP oracle against the sampling oracle alone (the loop stops at the first empty search), on
  60 boosted stumps and on the default 40 stages of depth 3, whole space and alpha = 0.1, three seeds:
  rounds, seconds, trees kept, whether the MILP proves the result, disagreements in 20,000 fresh points.

    python benchmarks/bench_pine_pruning.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common.tabular import region_threshold  # noqa: E402
from models.pine_pruning.oracle import EquivalenceOracle, OracleAnswer  # noqa: E402
from models.pine_pruning.params import Params  # noqa: E402
from models.pine_pruning.pruning import faithful_prune  # noqa: E402
from models.pine_pruning.region import box_sampler, region_sampler  # noqa: E402
from models.pine_pruning.run import prepare  # noqa: E402


class SamplingOracle:
    """The oracle the first version had: it believes the pruning is equivalent once a round's search is empty."""

    def check(self, weights: np.ndarray) -> OracleAnswer:
        return OracleAnswer(True, False, np.empty((0, 1)), 0.0, 0)


def milp_against_sampling(seeds: list[int], setting: dict[str, object]) -> None:
    """Whole-space and alpha = 0.1 pruning with the exact MILP oracle and with the sampling oracle alone:
    rounds, seconds, trees kept, whether the MILP proves the result, disagreements in 20,000 fresh region points."""
    params = Params(**setting)  # type: ignore[arg-type]
    print(f"\n{setting}\nseed | region | oracle | rounds | seconds | trees kept | proved by the MILP | fresh disagreements")
    for seed in seeds:
        s = prepare(params, seed)
        d = s.density
        for name, threshold in (("whole space", None), ("alpha 0.1", region_threshold(s.calibration_loglik, 0.1))):
            region = None if threshold is None else (d, threshold)
            sampler = box_sampler(d.low, d.high) if threshold is None else region_sampler(d, threshold)
            exact = EquivalenceOracle(s.ensemble, d.low, d.high, region=region, time_limit=params.oracle_time_limit)
            start_points = s.train.X if threshold is None else s.train.X[d.log_likelihood(s.train.X) >= threshold]
            fresh = sampler(np.random.default_rng([seed, 9]), 20000, s.train.X)
            for label, oracle in (("MILP", exact), ("sampling", SamplingOracle())):
                t0 = time.perf_counter()
                out = faithful_prune(s.ensemble, start_points, oracle, sampler, np.random.default_rng([seed, 1]),  # type: ignore[arg-type]
                                     rounds=params.oracle_rounds, search_size=params.search_size,
                                     add_per_round=params.add_per_round, time_limit=params.time_limit)
                seconds = time.perf_counter() - t0
                proved = exact.check(out.weights).proved
                wrong = int(np.sum(s.ensemble.predict(fresh, out.weights) != s.ensemble.predict(fresh)))
                print(f"{seed} | {name} | {label} | {out.rounds} | {seconds:.1f} | {out.trees_kept} of "
                      f"{s.ensemble.size} | {proved} | {wrong} of {len(fresh)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller check, one seed")
    args = parser.parse_args()
    seeds = [0] if args.quick else [0, 1, 2]
    milp_against_sampling(seeds, {"max_depth": 1, "trees": 60, "oracle_rounds": 60})
    milp_against_sampling(seeds, {})


if __name__ == "__main__":
    main()
