"""GRPO bandit steps per second: the vectorised simulator vs a per-seed, per-sample Python loop.

Both run the same policy-gradient update on the same uniforms (checked: identical incorrect-mass
paths), so the ratio isolates the vectorisation over seeds and group samples. A second table runs
the default sweep of J over three base seeds and prints the final incorrect mass, the steps to
reach 0.05, the worst rate-law deviation, the competition run (decoupling on the concentration clock
against the step clock, the favoured mode's final share against J = 0) and the verdict of each run. A
third part times the default run now against the version before issue 39 (537caab), one thread each.

    python benchmarks/bench_rlvr_noise.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.rlvr_noise import SPEC  # noqa: E402
from models.rlvr_noise.dynamics import Verifier, bandit_grpo  # noqa: E402
from models.rlvr_noise.params import Params  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_extra_merge import side_by_side  # noqa: E402


def loop_grpo(verifier: Verifier, steps: int, group: int, modes: int, lr: float, x0: float,
              rngs: list[np.random.Generator]) -> np.ndarray:
    """The baseline: one seed at a time, one sample at a time (same draws as `bandit_grpo`)."""
    out = np.empty((len(rngs), steps + 1))
    rate = [verifier.tpr] * modes + [verifier.fpr] * modes
    for s, rng in enumerate(rngs):
        draws = rng.random((steps, 2, group))
        theta = [0.0] * modes + [float(np.log(x0 / (1 - x0)))] * modes
        for t in range(steps + 1):
            top = max(theta)
            weights = [np.exp(v - top) for v in theta]
            total = sum(weights)
            pi = [w / total for w in weights]
            out[s, t] = sum(pi[modes:])
            if t == steps:
                break
            arms, rewards = [], []
            for i in range(group):
                u, acc, arm = draws[t, 0, i], 0.0, 2 * modes - 1
                for k in range(2 * modes - 1):
                    acc += pi[k]
                    if u < acc:
                        arm = k
                        break
                arms.append(arm)
                rewards.append(1.0 if draws[t, 1, i] < rate[arm] else 0.0)
            mean = sum(rewards) / group
            std = (sum((r - mean) ** 2 for r in rewards) / group) ** 0.5
            adv = [(r - mean) / std if std > 0 else 0.0 for r in rewards]
            for i in range(group):
                for k in range(2 * modes):
                    theta[k] += lr * adv[i] * ((1.0 if k == arms[i] else 0.0) - pi[k]) / group
    return out


def speed(steps: int, seeds: int) -> None:
    verifier = Verifier.from_j(0.3, 0.3)
    kwargs: dict[str, Any] = {"group": 8, "modes": 4, "lr": 1.0, "x0": 0.5}
    start = time.perf_counter()
    fast = bandit_grpo(verifier, steps=steps, group_size=8, modes=4, lr=1.0, x0=0.5,
                       rngs=[np.random.default_rng(s) for s in range(seeds)])
    t_fast = time.perf_counter() - start
    start = time.perf_counter()
    slow = loop_grpo(verifier, steps, rngs=[np.random.default_rng(s) for s in range(seeds)], **kwargs)
    t_slow = time.perf_counter() - start
    same = np.allclose(fast, slow, atol=1e-9)
    print(f"GRPO bandit, {seeds} seeds x {steps} steps, G = 8, 2m = 8 arms")
    print(f"  vectorised (numpy over seeds and samples): {t_fast:.3f} s  ({seeds * steps / t_fast:,.0f} seed-steps/s)")
    print(f"  baseline (per-seed, per-sample Python loop): {t_slow:.3f} s  ({seeds * steps / t_slow:,.0f} seed-steps/s)")
    print(f"  speed-up {t_slow / t_fast:.1f}x, same paths: {same}")


def headline(base_seeds: list[int]) -> None:
    d = Params()
    print(f"\nDefault sweep (FPR {d.fpr}, {d.steps} steps, {d.bandit_seeds} bandit runs, G = {d.group_size}, "
          f"m = {d.modes_per_class}, {d.seeds} seeds per run) per base seed")
    print("seed | final mass (bandit) at J = " + " ".join(f"{j:+.2f}" for j in Params().j_values)
          + " | steps to 0.05 (bandit) | worst |steps / rate law - 1|, mf / bandit | verdict")
    for seed in base_seeds:
        result = SPEC.run(Params(seed=seed), no_progress)
        finals = " ".join(f"{r.bandit_mean:.3f}" for r in result.final_incorrect_mass)
        times = ",".join(str(t.bandit_mean) for t in result.time_to_threshold if t.j > 0)
        timed = [t for t in result.time_to_threshold if t.j > 0 and t.rate_law]
        worst = [max((abs(getattr(t, side) / t.rate_law - 1) for t in timed if getattr(t, side) is not None),
                     default=float("nan")) for side in ("mean_field", "bandit_mean")]
        fits = " / ".join(f"{w:.3f}" for w in worst)
        claims = {c.id: c for c in result.claims}
        comp = " ".join(f"{k} {claims[k].ours.mean:.3f} (null {claims[k].null.value:.3f}, {claims[k].holds})"
                        for k in ("decoupling", "winner") if claims[k].ours.mean is not None and claims[k].null)
        verdict = result.verdict()
        print(f"{seed:4d} | {finals} | {times} | {fits} | {comp} | {verdict.kind} {verdict.held}/{verdict.tested}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    speed(steps=50 if args.quick else 200, seeds=4 if args.quick else 16)
    headline([0, 1, 2])
    side_by_side("rlvr_noise", {}, {}, "537caab")


if __name__ == "__main__":
    main()
