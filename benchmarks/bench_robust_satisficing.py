"""Cost of one IRS step against its straightforward formulations, and the headline table over seeds.

* One IRS step (forward, vectorised search for k, one backward of the softmax-weighted loss) against
  (a) an ERM step (the paper's claim: per-step cost close to SGD) and (b) the per-sample baseline that
  backpropagates every row's loss separately and sums the weighted gradients (n backward passes).
  (a) and (b) are checked to give the same gradient as the IRS step.
* The fragility search (3 rounds of a 32-point grid in log k) against a scalar 60-step bisection.
* Headline: every method (baselines tuned on validation) at tau = ERM validation loss on each data set, 3 seeds.

    python benchmarks/bench_robust_satisficing.py [--quick]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.robust_satisficing import SPEC  # noqa: E402
from models.robust_satisficing.params import Params  # noqa: E402
from models.robust_satisficing.result import METHODS  # noqa: E402
from models.robust_satisficing.tilted import fragility, tilted_loss, tilted_weights  # noqa: E402
from models.robust_satisficing.training import make_model, per_sample_losses  # noqa: E402
from tests.models.robust_satisficing.conftest import make_problem  # noqa: E402


def bisection(losses: torch.Tensor, tau: float) -> float:
    """The baseline search: 60 scalar bisection steps on log k."""
    low, high = math.log(1e-4), math.log(1e4)
    for _ in range(60):
        middle = 0.5 * (low + high)
        if float(tilted_loss(losses, math.exp(middle))) <= tau:
            high = middle
        else:
            low = middle
    return math.exp(high)


def step_speed(rows: int, repeats: int) -> None:
    problem = make_problem(train_size=rows)
    model = make_model(problem)
    tau = 1.1 * float(per_sample_losses(model, problem, problem.X, problem.y).mean().detach())

    def grads() -> list[torch.Tensor]:
        return [p.grad.detach().clone() for p in model.parameters() if p.grad is not None]

    def irs_step() -> list[torch.Tensor]:
        model.zero_grad()
        losses = per_sample_losses(model, problem, problem.X, problem.y)
        k = fragility(losses, tau)
        torch.dot(tilted_weights(losses.detach(), k), losses).backward()
        return grads()

    def erm_step() -> list[torch.Tensor]:
        model.zero_grad()
        per_sample_losses(model, problem, problem.X, problem.y).mean().backward()
        return grads()

    def per_sample_step() -> list[torch.Tensor]:
        model.zero_grad()
        with torch.no_grad():
            losses = per_sample_losses(model, problem, problem.X, problem.y)
        weights = tilted_weights(losses, fragility(losses, tau))
        for i in range(problem.X.shape[0]):
            loss = per_sample_losses(model, problem, problem.X[i:i + 1], problem.y[i:i + 1])[0]
            (weights[i] * loss).backward()
        return grads()

    def timed(step, count: int) -> tuple[float, list[torch.Tensor]]:  # type: ignore[no-untyped-def]
        out = step()
        start = time.perf_counter()
        for _ in range(count):
            out = step()
        return (time.perf_counter() - start) / count, out

    t_irs, g_irs = timed(irs_step, repeats)
    t_erm, _ = timed(erm_step, repeats)
    t_loop, g_loop = timed(per_sample_step, 1)
    same = all(torch.allclose(a, b, atol=1e-5) for a, b in zip(g_irs, g_loop, strict=True))
    print(f"n = {problem.X.shape[0]} rows: IRS step {t_irs * 1e3:.2f} ms, ERM step {t_erm * 1e3:.2f} ms "
          f"(IRS / ERM = {t_irs / t_erm:.2f}), per-sample backward loop {t_loop * 1e3:.0f} ms "
          f"(speed-up {t_loop / t_irs:.0f}x), same gradient: {same}")
    losses = per_sample_losses(model, problem, problem.X, problem.y).detach().double()
    start = time.perf_counter()
    for _ in range(repeats):
        k_grid = fragility(losses, tau)
    t_grid = (time.perf_counter() - start) / repeats
    start = time.perf_counter()
    k_bisect = bisection(losses, tau)
    t_bisect = time.perf_counter() - start
    print(f"   fragility search: grid {t_grid * 1e3:.2f} ms, scalar bisection {t_bisect * 1e3:.2f} ms "
          f"(ratio {t_bisect / t_grid:.1f}x), k = {k_grid:.5g} vs {k_bisect:.5g}")


def headline(seeds: list[int], epochs: int) -> None:
    """The defaults (tau = ERM's validation loss, tuned baselines) on every data set, one table row per method."""
    print(f"\nHeadline: tau = 1 x ERM validation loss, {epochs} epochs, seeds {seeds} (mean over seeds)")
    print("data set   | method      | average | worst group | drop under shift | chosen on validation")
    for dataset, hidden in (("waterbirds", 32), ("spurious", 0), ("long_tail", 32), ("diabetes", 0)):
        start = time.perf_counter()
        r = SPEC.run(Params(dataset=dataset, hidden=hidden, seed=seeds[0], seeds=len(seeds), epochs=epochs),
                     no_progress)
        scale = 1.0 if r.regression else 100.0
        for key in METHODS:
            settings = ", ".join(dict.fromkeys(getattr(s.methods, key).setting for s in r.seeds_run))
            print(f"{dataset:10s} | {key:11s} | {r.spread(key, 'average', scale):>15s} | "
                  f"{r.spread(key, 'worst', scale):>15s} | {r.spread(key, 'degradation', scale):>15s} | {settings}")
        print(f"{'':10s} | verdict: {r.verdict().label} ({time.perf_counter() - start:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    for rows in (200, 1000) if args.quick else (200, 1000, 4000):
        step_speed(rows, 20 if args.quick else 100)
    headline([0, 1, 2], 100 if args.quick else 300)


if __name__ == "__main__":
    main()
