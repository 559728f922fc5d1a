"""Skill-MoE: batched-by-expert vs the naive per-query loop, the headline over 3 seeds, and this version (the
inferred-skill suite, learned tagger) against the previous one (commit 41402b8: skills readable from the
form, extracted from git into a temporary package), side by side: gain over the router, run time.

Usage: OMP_NUM_THREADS=1 python benchmarks/bench_skill_moe.py
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from models.common import no_progress
from models.skill_moe.evaluate import STRATEGIES
from models.skill_moe.params import Params
from models.skill_moe.run import run

PREVIOUS = "41402b8"


def _previous_run():  # the old package under another name (its imports inside the package are relative)
    folder = Path(tempfile.mkdtemp())
    archive = subprocess.run(["git", "archive", PREVIOUS, "models/skill_moe"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "models" / "skill_moe").rename(folder / "skill_moe_previous")
    sys.path.insert(0, str(folder))
    return importlib.import_module("skill_moe_previous.run").run, importlib.import_module("skill_moe_previous.params").Params


def main() -> None:
    print("Core: Skill-MoE's routed pairs, one expert resident (first seed; naive timed on 100 queries, scaled)")
    print(f"{'queries':>8} {'k':>2} {'loads batched':>14} {'loads naive':>12} {'batched s':>10} {'naive s':>9} {'ratio':>7}")
    for queries, k in ((400, 3), (1000, 3)):
        r = run(Params(queries=queries, k=k, seeds=1), no_progress)
        fast = next(c for c in r.cost if c.strategy == "instance_routing")
        print(f"{queries:>8} {k:>2} {fast.loads:>14} {r.naive.loads:>12} {fast.seconds:>10.3f} "
              f"{r.naive.seconds:>9.3f} {r.naive.seconds / fast.seconds:>6.1f}x")
    print("\nHeadline: test accuracy (%), 400 queries, k = 3, learned tagger; gain = Skill-MoE - best baseline")
    short = {"instance_routing": "skillmoe", "oracle_routing": "oracle", "trained_router": "router",
             "task_top_k": "task3", "best_single": "best1", "majority_vote": "vote16", "random_k": "rand3"}
    print(f"{'seed':>4} {'tagger':>6} {'form':>5} " + " ".join(f"{short[s]:>8}" for s in STRATEGIES)
          + f" {'gain':>6} {'t ratio':>7} aggregator")
    result = run(Params(seeds=3), no_progress)
    claims = {c.id: c for c in result.claims}
    for i, row in enumerate(result.per_seed):
        print(f"{row.seed:>4} {100 * row.skill_accuracy:>6.1f} {100 * row.form_accuracy:>5.1f} "
              + " ".join(f"{100 * row.accuracy[s]:>8.1f}" for s in STRATEGIES)
              + f" {row.gain_points:>+6.1f} {claims['runtime'].seeds[i].value:>7.2f} {row.aggregator}")
    gain = claims["gain"]
    if gain.test is not None and gain.test.interval is not None:
        print(f"gain: 95% interval [{gain.test.interval[0]:.2f}, {gain.test.interval[1]:.2f}] points, sign test p = "
              f"{gain.test.p_value}; {gain.holds} (the paper: +8.15)")
    print(f"\nThis version vs the previous one ({PREVIOUS}), defaults at one seed (0): Skill-MoE, trained router, gain, "
          "CPU time")
    previous_run, previous_params = _previous_run()
    for name, call in (("this version (inferred skills)", lambda: run(Params(seeds=1), no_progress)),
                       (f"previous {PREVIOUS} (skills in the form)", lambda: previous_run(previous_params(seeds=1),
                                                                                          no_progress))):
        start = time.process_time()
        r = call()
        seconds = time.process_time() - start
        moe, router = 100 * r.accuracy["instance_routing"], 100 * r.accuracy["trained_router"]
        print(f"  {name:<42} {moe:6.1f} {router:6.1f} {moe - router:+6.2f} {seconds:6.1f} s "
              f"(skill inference {100 * r.skill_inference_accuracy:.1f}%)")


if __name__ == "__main__":
    main()
