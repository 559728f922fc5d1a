"""Cost of the LIFT pieces against straightforward formulations, and the headline table over seeds.

* Evaluation: all episodes rolled out at once (one batched policy call per step) vs a per-episode Python
  loop (one policy call per episode and step); same success rate (checked).
* TD3+BC: time per update (critic every step, actor every 2nd).
* Headline: raw vs augmented success and steps where the learners differ (partial observation, 10 logs) and
  where they do not (full observation, 50 logs), 3 seeds.

    python benchmarks/bench_lift_offline_rl.py [--quick]
"""

from __future__ import annotations

import argparse
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
from models.lift_offline_rl.run import _policy  # noqa: E402
from models.lift_offline_rl.td3bc import TD3BCConfig, TD3PlusBC  # noqa: E402


def speed(episodes: int) -> None:
    env = Positioning(4)
    agent = TD3PlusBC(4, 4, TD3BCConfig(), 0, "cpu")
    logs = collect(env, 50, np.random.default_rng(0))
    start = time.perf_counter()
    data = augmented(logs, env.dimension, np.random.default_rng(1))
    t_aug = time.perf_counter() - start
    agent.fit(data, 300, np.random.default_rng(2), no_progress, lambda a: None, 1)
    starts, targets = env.reset(np.random.default_rng(3), episodes)
    policy = _policy(agent)
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
    start = time.perf_counter()
    for _ in range(200):
        agent.update(tuple(tensors))
    print(f"Algorithm-1 shortcuts of 50 logs -> {data.size:,} transitions: {t_aug * 1e3:.0f} ms; TD3+BC update (batch 256): "
          f"{(time.perf_counter() - start) / 200 * 1e3:.2f} ms")


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()
    speed(100 if args.quick else 400)
    headline([0, 1, 2], args.steps)


if __name__ == "__main__":
    main()
