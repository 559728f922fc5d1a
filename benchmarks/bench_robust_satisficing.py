"""Cost of one IRS step against its straightforward formulations, and the headline table over seeds.

* One IRS step (forward, vectorised search of the group tilt h, one backward of the tilted group loss / KL)
  against (a) an ERM step (the paper's claim: per-step cost close to SGD) and (b) the per-sample baseline that
  backpropagates every row's loss separately and sums the weighted gradients (n backward passes); (b) is
  checked to give the same gradient as the IRS step.
* The path search (vectorised: a 64-point grid and 3 rounds of 25) against the official code's scalar loop
  (one evaluation of the value per h), same kappa.
* Headline: every method (baselines tuned on validation) on each data set, 3 seeds.
* Against the previous version (`--previous DIR`, a checkout of the code before issue 42, e.g.
  `git archive 6b18091 models | tar -x -C DIR`): each version's page default on the same seeds, one process per
  version, CPU seconds per seed and the paper's quantity (worst-group accuracy, IRS - ERM), with group DRO and JTT.

    python benchmarks/bench_robust_satisficing.py [--quick] [--previous DIR --seeds 100 101 102]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.robust_satisficing import SPEC  # noqa: E402
from models.robust_satisficing.irs import IRSWeights
from models.robust_satisficing.params import Params  # noqa: E402
from models.robust_satisficing.result import METHODS  # noqa: E402
from models.robust_satisficing.tilted import H_MAX, H_MIN, maximise_along_path, path_value  # noqa: E402
from models.robust_satisficing.training import Fit, PassCount, make_model, per_sample_losses  # noqa: E402
from tests.models.robust_satisficing.conftest import make_problem  # noqa: E402


def scalar_search(group_loss: torch.Tensor, prior: torch.Tensor, tau: float) -> float:
    """The baseline: the same grid and refinement, one value evaluated per h in a Python loop."""
    def value(h: float) -> float:
        return float(path_value(group_loss, prior, tau, torch.tensor([h], dtype=torch.float64))[0])

    lo, hi = math.log(H_MIN), math.log(H_MAX)
    grid = [lo + (hi - lo) * k / 63 for k in range(64)]
    best = max(grid, key=lambda g: value(math.exp(g)))
    width = (hi - lo) / 63
    left, right = max(lo, best - width), min(hi, best + width)
    for _ in range(3):
        points = [left + (right - left) * k / 24 for k in range(25)]
        candidate = max(points, key=lambda g: value(math.exp(g)))
        if value(math.exp(candidate)) > value(math.exp(best)):
            best = candidate
        width = max((right - left) / 4, 1e-6)
        left, right = max(lo, best - width), min(hi, best + width)
    return value(math.exp(best))


def step_speed(rows: int, repeats: int) -> None:
    problem = make_problem(train_size=rows)
    model = make_model(problem)
    weighting = IRSWeights(problem.groups, problem.n_groups, 0, Fit(model, PassCount()))

    def grads() -> list[torch.Tensor]:
        return [p.grad.detach().clone() for p in model.parameters() if p.grad is not None]

    def irs_step() -> list[torch.Tensor]:
        model.zero_grad()
        losses = per_sample_losses(model, problem, problem.X, problem.y)
        torch.dot(weighting(losses.detach(), 1), losses).backward()
        return grads()

    def erm_step() -> list[torch.Tensor]:
        model.zero_grad()
        per_sample_losses(model, problem, problem.X, problem.y).mean().backward()
        return grads()

    def per_sample_step() -> list[torch.Tensor]:
        model.zero_grad()
        with torch.no_grad():
            losses = per_sample_losses(model, problem, problem.X, problem.y)
        weights = weighting(losses, 1)
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
    group_loss = torch.zeros(problem.n_groups, dtype=torch.float64).index_add_(0, problem.groups, losses)
    prior = weighting.prior.double()
    group_loss = group_loss[weighting.present] / weighting.counts[weighting.present].double()
    tau = max(1.01 * float(prior @ group_loss), 0.1)
    start = time.perf_counter()
    for _ in range(repeats):
        kappa = maximise_along_path(group_loss, prior, tau).kappa
    t_grid = (time.perf_counter() - start) / repeats
    start = time.perf_counter()
    kappa_loop = scalar_search(group_loss, prior, tau)
    t_loop = time.perf_counter() - start
    print(f"   path search: vectorised {t_grid * 1e3:.2f} ms, scalar loop {t_loop * 1e3:.2f} ms "
          f"(ratio {t_loop / t_grid:.1f}x), kappa = {kappa:.6g} vs {kappa_loop:.6g}")


def headline(seeds: list[int], epochs: int) -> None:
    """The defaults (IRS at tau = max(1.01 x loss, 0.1), tuned baselines) on every data set, one row per method."""
    print(f"\nHeadline: {epochs} epochs, seeds {seeds} (mean over seeds)")
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


VERSION_RUN = """
import json, sys, time
sys.path.insert(0, ".")
from models.common import no_progress
from models.robust_satisficing import SPEC
rows = []
for seed in json.loads(sys.argv[1]):
    start = time.process_time()
    m = SPEC.run(SPEC.params_model(seed=seed), no_progress).seeds_run[0].methods
    rows.append({"seed": seed, "cpu": time.process_time() - start, "irs": m.irs.worst, "erm": m.erm.worst,
                 "dro": m.group_dro.worst, "jtt": m.jtt.worst, "irs_avg": m.irs.average, "erm_avg": m.erm.average})
print(json.dumps(rows))
"""


def version_rows(tree: Path, seeds: list[int]) -> list[dict[str, float]]:
    """One version's page default on each seed, in its own process (its own `models` package), one thread."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", VERSION_RUN, json.dumps(seeds)], cwd=tree, env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def against_previous(previous: Path, seeds: list[int]) -> None:
    """The page default of the previous version and of today's, same seeds: CPU seconds and worst-group accuracy."""
    print(f"\nAgainst the previous version ({previous}), page defaults, seeds {seeds}; worst-group test accuracy (%)")
    print("version | seed | CPU s | IRS | ERM | IRS - ERM | group DRO | JTT | average IRS - ERM")
    for name, tree in (("previous", previous), ("today", Path(__file__).resolve().parents[1])):
        rows = version_rows(tree, seeds)
        for r in rows:
            print(f"{name} | {r['seed']} | {r['cpu']:.1f} | {100 * r['irs']:.1f} | {100 * r['erm']:.1f} | "
                  f"{100 * (r['irs'] - r['erm']):+.1f} | {100 * r['dro']:.1f} | {100 * r['jtt']:.1f} | "
                  f"{100 * (r['irs_avg'] - r['erm_avg']):+.1f}")
        gains = [100 * (r["irs"] - r["erm"]) for r in rows]
        print(f"{name} | mean | {statistics.mean(r['cpu'] for r in rows):.1f} | | | {statistics.mean(gains):+.1f} "
              f"(sd {statistics.stdev(gains) if len(gains) > 1 else 0.0:.1f}) | | |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--previous", type=Path, help="a checkout of the previous version (its models/ folder)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[100, 101, 102])
    args = parser.parse_args()
    if args.previous is not None:
        against_previous(args.previous, args.seeds)
        return
    for rows in (200, 1000) if args.quick else (200, 1000, 4000):
        step_speed(rows, 20 if args.quick else 100)
    headline([0, 1, 2], 300 if args.quick else 1500)


if __name__ == "__main__":
    main()
