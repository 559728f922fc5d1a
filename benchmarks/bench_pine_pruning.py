"""Cost of PINE's core against its straightforward formulation, and the headline table over seeds.

* The exact MILP oracle against the sampling oracle alone (the loop stops at the first empty search), on
  60 boosted stumps and on the default 40 stages of depth 3, whole space and alpha = 0.1, three seeds:
  rounds, seconds, trees kept, whether the MILP proves the result, disagreements in 20,000 fresh points.

* Against the previous version (`--previous DIR`, a checkout of the code before issue 42, e.g.
  `git archive 6b18091 models | tar -x -C DIR`): each version's page default on the same 3 seeds, one process
  per version, CPU seconds per seed and the paper's quantity (pruning rate: trees pruned, % of the ensemble, by
  PINE at each alpha and by whole-space faithful pruning; proved or not).

    python benchmarks/bench_pine_pruning.py [--quick] [--previous DIR --seed 100]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
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


VERSION_RUN = """
import json, sys, time
sys.path.insert(0, ".")
from models.common import no_progress
from models.pine_pruning import SPEC
start = time.process_time()
r = SPEC.run(SPEC.params_model(seed=int(sys.argv[1]), seeds=3), no_progress)
seconds = (time.process_time() - start) / len(r.per_seed)
rows = [{"seed": s.seed, "cpu": seconds, "total": r.total_trees,
         "whole": [s.whole_space.trees_kept, s.whole_space.converged],
         "curve": [[p.alpha, p.trees_kept, p.converged] for p in sorted(s.curve, key=lambda p: p.alpha)]}
        for s in r.per_seed]
print(json.dumps(rows))
"""


def against_previous(previous: Path, seed: int) -> None:
    """Each version's page default on seeds seed..seed+2 (one run, as the page does): CPU seconds per seed and
    the pruning rates; a pruning the MILP did not prove is marked '?'."""
    print(f"\nAgainst the previous version ({previous}), page defaults, seeds {seed}-{seed + 2}; "
          "pruning rate = trees pruned, % of the ensemble (? = not proved)")
    print("version | seed | CPU s per seed | trees | whole space | PINE at each alpha | PINE - whole space (mean over alpha)")
    for name, tree in (("previous", previous), ("today", Path(__file__).resolve().parents[1])):
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(tree)}
        done = subprocess.run([sys.executable, "-c", VERSION_RUN, str(seed)], cwd=tree, env=env, check=True,
                              capture_output=True, text=True)
        for r in json.loads(done.stdout.strip().splitlines()[-1]):
            def rate(kept: int, proved: bool, total: int = r["total"]) -> str:
                return f"{100 * (1 - kept / total):.1f}{'' if proved else '?'}"
            whole = 100 * (1 - r["whole"][0] / r["total"])
            gain = sum(100 * (1 - k / r["total"]) - whole for _, k, _ in r["curve"]) / len(r["curve"])
            curve = ", ".join(f"a={a:g}: {rate(k, ok)}" for a, k, ok in r["curve"])
            print(f"{name} | {r['seed']} | {r['cpu']:.1f} | {r['total']} | {rate(*r['whole'])} | {curve} | {gain:+.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller check, one seed")
    parser.add_argument("--previous", type=Path, help="a checkout of the previous version (its models/ folder)")
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    if args.previous is not None:
        against_previous(args.previous, args.seed)
        return
    seeds = [0] if args.quick else [0, 1, 2]
    milp_against_sampling(seeds, {"max_depth": 1, "trees": 60, "oracle_rounds": 60})
    milp_against_sampling(seeds, {})


if __name__ == "__main__":
    main()
