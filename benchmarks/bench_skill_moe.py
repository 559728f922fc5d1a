"""Skill-MoE: batched-by-expert inference vs the naive per-query loop, and the headline table over seeds.

Usage: OMP_NUM_THREADS=1 python benchmarks/bench_skill_moe.py
"""

from __future__ import annotations

import time

from models.common import no_progress
from models.skill_moe.params import Params
from models.skill_moe.run import run


def main() -> None:
    print("Core: answering the instance-routed (query, expert) pairs, one expert resident at a time")
    print(f"{'queries':>8} {'k':>2} {'loads batched':>14} {'loads naive':>12} {'batched s':>10} {'naive s':>9} {'ratio':>7}")
    for queries, k in ((400, 3), (2000, 3)):
        r = run(Params(queries=queries, k=k), no_progress)
        ratio = r.wall_time_s.naive / r.wall_time_s.batched
        print(f"{queries:>8} {k:>2} {r.loads.batched:>14} {r.loads.naive:>12} {r.wall_time_s.batched:>10.3f} "
              f"{r.wall_time_s.naive:>9.3f} {ratio:>6.1f}x")
    print("\nHeadline: test accuracy (%) on the skill-mixed set, 400 queries, k = 3")
    print(f"{'seed':>4} {'instance':>9} {'task top3':>10} {'random 3':>9} {'best 1':>7} {'vote 16':>8} {'gap':>6} {'s':>5}")
    for seed in (0, 1, 2):
        start = time.perf_counter()
        a = run(Params(seed=seed), no_progress).accuracy
        print(f"{seed:>4} {100 * a.instance_routing:>9.1f} {100 * a.task_top_k:>10.1f} {100 * a.random_k:>9.1f} "
              f"{100 * a.best_single:>7.1f} {100 * a.majority_vote:>8.1f} "
              f"{100 * (a.instance_routing - a.task_top_k):>+6.1f} {time.perf_counter() - start:>5.1f}")


if __name__ == "__main__":
    main()
