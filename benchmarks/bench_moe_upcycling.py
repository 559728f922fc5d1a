"""Selective MoE upcycling: the speed of linear CKA against the dense n x n kernel formulation, and the
paper's check over seeds.

* CKA: the method evaluates linear CKA between block outputs on every inner step. The feature-space form
  ||Y^T X||_F^2 / (||X^T X||_F ||Y^T Y||_F) costs O(n d^2); the baseline is the textbook HSIC form with
  n x n Gram matrices K = X X^T, L = Y Y^T and the centring matrix H (O(n^2 d + n^3)). Same value (checked).
* The headline table: the five learners and the claims on the "Reproduce the paper" example (seeds 0, 1, 2).

    python benchmarks/bench_moe_upcycling.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.common.continual import linear_cka  # noqa: E402
from models.moe_upcycling import SPEC, examples  # noqa: E402
from models.moe_upcycling.params import Params  # noqa: E402


def hsic_cka(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """The dense baseline: CKA = HSIC(K, L) / sqrt(HSIC(K, K) HSIC(L, L)) with n x n Gram matrices."""
    n = x.shape[0]
    h = torch.eye(n, dtype=x.dtype) - 1.0 / n
    k = h @ (x @ x.T) @ h
    l_ = h @ (y @ y.T) @ h
    return (k * l_).sum() / torch.sqrt((k * k).sum() * (l_ * l_).sum())


def _time(fn, repeats: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) / repeats


def bench_cka(quick: bool) -> None:
    print("linear CKA: feature-space form vs dense n x n HSIC form (d = 64, float64)")
    print(f"{'n':>6} {'feature (ms)':>13} {'dense (ms)':>11} {'ratio':>7} {'same':>5}")
    g = torch.Generator().manual_seed(0)
    for n in (64, 256, 1024) if quick else (64, 256, 1024, 2048):
        x = torch.randn(n, 64, generator=g, dtype=torch.float64)
        y = x @ torch.randn(64, 64, generator=g, dtype=torch.float64) + torch.randn(n, 64, generator=g, dtype=torch.float64)
        fast = _time(lambda x=x, y=y: linear_cka(x, y), 20)
        dense = _time(lambda x=x, y=y: hsic_cka(x, y), 3 if n > 1000 else 10)
        same = abs(float(linear_cka(x, y)) - float(hsic_cka(x, y))) < 1e-9
        print(f"{n:>6} {fast * 1e3:>13.3f} {dense * 1e3:>11.3f} {dense / fast:>7.1f} {str(same):>5}")


def bench_claim() -> None:
    label = next(k for k in examples() if k.startswith("Reproduce the paper"))
    start = time.perf_counter()
    result = SPEC.run(Params.model_validate(examples()[label]), no_progress)
    print(f"\nheadline: {label}, {time.perf_counter() - start:.1f} s")
    print(f"{'seed':>4} {'method':>15} {'avg acc':>8} {'forget':>7} {'added params':>13} {'train s':>8}")
    for s in result.per_seed:
        for name, m in s.methods.items():
            print(f"{s.seed:>4} {name:>15} {m.average_accuracy:>8.3f} {m.forgetting:>7.3f} {m.added_parameters:>13} "
                  f"{m.seconds:>8.1f}")
        print(f"     search: {s.kept_copies} copies kept, min |P(keep) - 1/2| = {s.decided:.2f}")
    print(f"     search cost (first seed): {result.search.outer_steps} outer steps, {result.search.search_seconds:.1f} s")
    for c in result.claims:
        values = ", ".join(f"{o.value:+.3f}" for o in c.seeds if o.value is not None)
        span = "" if c.test is None or c.test.interval is None else f"[{c.test.interval[0]:+.2f}, {c.test.interval[1]:+.2f}]"
        print(f"  {c.id:>16}: {c.holds:>9}  {c.ours.text:>26} {span:>18}  per seed [{values}]  ({c.quantity} "
              f"{c.criterion})")
    v = result.verdict()
    print(f"  verdict: {v.kind}, {v.held} of {v.headline} headline claims held on {v.seeds} seeds; beaten by "
          f"{', '.join(v.beaten_by) or 'nobody'}")
    print(PREVIOUS)


PREVIOUS = 'previous version (review turn 4, seeds 53-55, CKA filter then search): params met via the filter alone (<= 33%), forgetting met by replay alone (0.09-0.13 of naive)'


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer sizes, seeds 0-2 still")
    args = parser.parse_args()
    torch.set_num_threads(1)
    bench_cka(args.quick)
    bench_claim()


if __name__ == "__main__":
    main()
