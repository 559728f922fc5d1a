"""Cost of the LIFT pieces against straightforward formulations, and the headline table over seeds.

* Evaluation: all episodes rolled out at once (one batched policy call per step) vs a per-episode Python
  loop (one policy call per episode and step); same success rate (checked).
* TD3+BC: time per update (critic every step, actor every 2nd).
* Headline: raw vs augmented success and steps where the learners differ (partial observation, 10 logs) and
  where they do not (full observation, 50 logs), 3 seeds.

* Against the previous version (`--previous DIR`, a checkout of the code before issue 42, e.g.
  `git archive 6b18091 models | tar -x -C DIR`): each version's page default on the same 3 seeds (one run, as
  the page does), one process per version: CPU seconds per seed and the paper's quantity (test success of the
  offline learner on the raw logs and on the augmented data, mean steps).

    python benchmarks/bench_lift_offline_rl.py [--quick] [--previous DIR --seed 100]
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
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.lift_offline_rl import SPEC  # noqa: E402
from models.lift_offline_rl.augment import augmented  # noqa: E402
from models.lift_offline_rl.env import Positioning  # noqa: E402
from models.lift_offline_rl.evaluation import rollout  # noqa: E402
from models.lift_offline_rl.logging_policy import collect  # noqa: E402
from models.lift_offline_rl.params import Params  # noqa: E402
from models.lift_offline_rl.td3bc import TD3BCConfig, TD3PlusBC  # noqa: E402


def speed(episodes: int) -> None:
    env = Positioning(4)
    agent = TD3PlusBC(4, 4, TD3BCConfig(), [0], "cpu")
    logs = collect(env, 50, np.random.default_rng(0))
    start = time.perf_counter()
    data = augmented(logs, env.dimension, np.random.default_rng(1))
    t_aug = time.perf_counter() - start
    agent.fit([data], 300, [np.random.default_rng(2)], no_progress, lambda k, p, s: (0.0, 0.0), 1)
    starts, targets = env.reset(np.random.default_rng(3), episodes)
    policy = agent.act(0)
    start = time.perf_counter()
    batched = rollout(env, policy, starts, targets)
    t_batch = time.perf_counter() - start
    start = time.perf_counter()
    loop = [rollout(env, policy, starts[i:i + 1], targets[i:i + 1]).success_rate for i in range(episodes)]
    t_loop = time.perf_counter() - start
    print(f"evaluation of {episodes} 4-D episodes: batched {t_batch * 1e3:.0f} ms, per-episode loop "
          f"{t_loop * 1e3:.0f} ms (speed-up {t_loop / t_batch:.0f}x), same success rate: "
          f"{abs(np.mean(loop) - batched.success_rate) < 1e-12}")
    tensors = [torch.tensor(x, dtype=torch.float32) for x in
               (data.observations[:256], data.actions[:256], data.rewards[:256], data.next_observations[:256],
                data.terminals[:256])]
    print(f"Algorithm-1 shortcuts of 50 logs -> {data.size:,} transitions: {t_aug * 1e3:.0f} ms")
    for learners in (1, 3, 6, 9):
        stacked = TD3PlusBC(4, 4, TD3BCConfig(), list(range(learners)), "cpu")
        batch = tuple(t.expand(learners, *t.shape).contiguous() for t in tensors)
        start = time.process_time()
        for _ in range(200):
            stacked.update(batch)
        per = (time.process_time() - start) / 200 * 1e3
        print(f"TD3+BC update (batch 256) of {learners} learners side by side: {per:.2f} ms CPU "
              f"({per / learners:.2f} ms per learner)")


def headline(seeds: list[int], steps: int) -> None:
    """Settings where the learners differ (partial observation, few logs) and where they do not, over seeds."""
    print(f"\nHeadline: {steps} TD3+BC steps, seeds {seeds}; success % and mean steps, mean ± sd")
    settings = [{"dimension": 4, "trajectories": 10}, {"dimension": 8, "trajectories": 10},
                {"dimension": 4, "trajectories": 50, "partial_observation": False}]
    for setting in settings:
        start = time.perf_counter()
        r = SPEC.run(Params(seed=seeds[0], seeds=len(seeds), train_steps=steps, **setting), no_progress)
        cells = " | ".join(f"{v.variant} {v.text(v.success_rate, 100)} % in {v.text(v.mean_steps)} steps"
                           for v in r.variants)
        print(f"{setting} | {cells} | {r.verdict().label} ({time.perf_counter() - start:.0f} s)")


VERSION_RUN = """
import json, sys, time
sys.path.insert(0, ".")
from models.common import no_progress
from models.lift_offline_rl import SPEC
start = time.process_time()
r = SPEC.run(SPEC.params_model(seed=int(sys.argv[1]), seeds=3), no_progress)
v = {x.variant: x for x in r.variants}
print(json.dumps({"cpu": (time.process_time() - start) / 3, "seeds": r.seed_list,
                  "raw": v["raw"].success_rate, "aug": v["augmented"].success_rate,
                  "raw_steps": v["raw"].mean_steps, "aug_steps": v["augmented"].mean_steps}))
"""


def against_previous(previous: Path, seed: int) -> None:
    """Each version's page default on seeds seed..seed+2: CPU seconds per seed, success raw -> augmented."""
    print(f"\nAgainst the previous version ({previous}), page defaults, seeds {seed}-{seed + 2}")
    print("version | seed | CPU s per seed | success raw % | success augmented % | gain (points) | steps aug / raw")
    for name, tree in (("previous", previous), ("today", Path(__file__).resolve().parents[1])):
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(tree)}
        done = subprocess.run([sys.executable, "-c", VERSION_RUN, str(seed)], cwd=tree, env=env, check=True,
                              capture_output=True, text=True)
        r = json.loads(done.stdout.strip().splitlines()[-1])
        for k, s in enumerate(r["seeds"]):
            print(f"{name} | {s} | {r['cpu']:.1f} | {100 * r['raw'][k]:.1f} | {100 * r['aug'][k]:.1f} | "
                  f"{100 * (r['aug'][k] - r['raw'][k]):+.1f} | {r['aug_steps'][k] / r['raw_steps'][k]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--previous", type=Path, help="a checkout of the previous version (its models/ folder)")
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    if args.previous is not None:
        against_previous(args.previous, args.seed)
        return
    speed(100 if args.quick else 400)
    headline([0, 1, 2], args.steps)


if __name__ == "__main__":
    main()
