"""Speed of the batched Stein direction against a per-particle double loop, and the headline table.

The core of SDG's correction is the SVGD direction phi(x_i) = 1/n sum_j k(x_j, x_i) score_j +
grad_{x_j} k(x_j, x_i) for all particles of all guidance scales:
  * batched: `stein_direction`, one (S, n, n) kernel and two matrix products;
  * baseline: the textbook double loop over i and j in Python.
Both give the same numbers (checked: "max diff"). The headline runs the whole method (`run`, defaults)
over three seeds in 2-D and 8-D and prints every claim per seed; the last line times the defaults against
the previous version (git revision PREVIOUS, run from a temporary copy of models/).

    python benchmarks/bench_stein_guidance.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common.sampling import median_bandwidth, stein_direction  # noqa: E402
from models.stein_guidance.params import Params  # noqa: E402
from models.stein_guidance.run import run  # noqa: E402


def loop_direction(x: torch.Tensor, score: torch.Tensor, h: float) -> torch.Tensor:
    n = x.shape[0]
    out = torch.zeros_like(x)
    for i in range(n):
        for j in range(n):
            k = torch.exp(-((x[j] - x[i]) ** 2).sum() / h)
            out[i] += k * score[j] + 2.0 / h * (x[i] - x[j]) * k
    return out / n


def speed(n: int) -> None:
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, 2, generator=gen, dtype=torch.float64)
    score = -x
    h = median_bandwidth(x)
    start = time.perf_counter()
    batched = stein_direction(x, score, h)
    t_batched = time.perf_counter() - start
    start = time.perf_counter()
    looped = loop_direction(x, score, float(h))
    t_loop = time.perf_counter() - start
    diff = float((batched - looped).abs().max())
    print(f"n = {n:4d}: batched {t_batched * 1e3:8.2f} ms, loop {t_loop * 1e3:9.1f} ms, "
          f"ratio {t_loop / t_batched:8.0f}x, max diff {diff:.1e}")


PREVIOUS = "c45ca62"  # the last commit before the claims conversion


def previous_defaults_seconds(method: str, rev: str = PREVIOUS) -> float:
    """Wall time of `method`'s defaults at git revision `rev` (models/ extracted to a temporary folder)."""
    root = Path(__file__).resolve().parents[1]
    code = ("import time, torch; torch.set_num_threads(1); from models.common import no_progress; "
            f"from models.{method} import SPEC; t = time.perf_counter(); SPEC.run(SPEC.params_model(), no_progress); "
            "print(time.perf_counter() - t)")
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", rev, "models"], cwd=root, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": tmp}
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def headline(seeds: int, quick: bool, dimension: int) -> None:
    params = Params(seeds=seeds, dimension=dimension, **({"particles": 100, "steps": 40} if quick else {}))
    start = time.perf_counter()
    result = run(params, lambda f, m="": None)
    print(f"\nHeadline ({dimension}-D, {seeds} seeds, {params.particles} particles, "
          f"{time.perf_counter() - start:.1f} s): {result.verdict().label}")
    for claim in result.claims:
        notes = "; ".join(f"seed {o.seed}: {o.value if o.value is None else round(o.value, 4)} {o.note}" for o in claim.seeds)
        print(f"  [{claim.holds}] {claim.id}: {claim.ours.text}  ({notes})")
    if result.standing is not None:
        print("  energy distance (mean over scales and seeds):", {k: round(v, 4) for k, v in result.standing.scores.items()})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="one seed, small runs, no comparison with the previous version")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("Stein direction: batched vs double loop (float64, one thread)")
    for n in (32, 64, 128):
        speed(n)
    for dimension in (2, 8):
        headline(1 if args.quick else 3, args.quick, dimension)
    if not args.quick:
        start = time.perf_counter()
        run(Params(), lambda f, m="": None)
        now = time.perf_counter() - start
        before = previous_defaults_seconds("stein_guidance")
        print(f"\nDefaults, one thread: now {now:.1f} s (6 methods, energy distances) against {before:.1f} s at "
              f"{PREVIOUS} (5 methods): ratio {before / now:.2f}x")


if __name__ == "__main__":
    main()
