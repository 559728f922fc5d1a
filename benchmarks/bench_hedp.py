"""HEDP: the speed of batched prompt scoring and two-temperature selection against a per-sample loop, and
the paper's claims over three seeds.

* Core: for every test input, every prompt's logits and energy, the distance to every domain's nearest
  k-means key, the fused prompt weights and the mixed-logit prediction. Batched: one forward per prompt
  over all inputs and one einsum (`models.hedp.run.score` + `select`). Baseline: the straightforward
  per-sample Python loop (one input, one prompt, one key at a time). Same predictions (checked).
* The headline table: the "Reproduce the paper" example (seeds 0, 1, 2), claim by claim.

    python benchmarks/bench_hedp.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.hedp import SPEC, examples  # noqa: E402
from models.hedp.params import Params  # noqa: E402
from models.hedp.prompts import Backbone, Prompt  # noqa: E402
from models.hedp.run import score  # noqa: E402
from models.hedp.selection import Temperatures, select  # noqa: E402

TEMPS = Temperatures(0.5, 0.3)


def _setup(n: int):
    g = torch.Generator().manual_seed(0)
    backbone = Backbone(64, g).freeze()
    prompts = [Prompt(64, 10, g) for _ in range(4)]
    with torch.no_grad():
        for p in prompts:
            p.offset.copy_(0.1 * torch.randn(64, generator=g))
    x = torch.rand(n, 64, generator=g).numpy()
    keys = [torch.rand(5, 64, generator=g).numpy() for _ in range(4)]
    return backbone, prompts, keys, x


def batched(backbone, prompts, keys, x) -> np.ndarray:
    return select("hybrid", score(backbone, prompts, keys, x, "cpu"), TEMPS)[1]


@torch.no_grad()
def loop(backbone, prompts, keys, x) -> np.ndarray:
    out = []
    for row in torch.as_tensor(x):
        xi = row[None]
        feats = backbone(xi)[0].numpy()
        logits = [p(backbone, xi)[0] for p in prompts]
        e = [float(-torch.logsumexp(v, dim=0)) for v in logits]
        d = [min(float(np.sqrt(((feats - c) ** 2).sum())) for c in k) for k in keys]
        w = np.array([np.exp((min(e) - ek) / TEMPS.energy) * np.exp((min(d) - dk) / TEMPS.distance)
                      for ek, dk in zip(e, d, strict=True)])
        w /= w.sum()
        out.append(int(np.argmax(sum(wk * v.numpy() for wk, v in zip(w, logits, strict=True)))))
    return np.array(out)


PREVIOUS = 'previous version (review turn 4, seeds 53-55, λ = 0.1 fixed): selection hybrid - best cue +0.2 / +0.4 / +0.3, unseen vs nearest key +1.1 / +1.3 / +1.6'


def main() -> None:
    torch.set_num_threads(1)
    print("fused selection: batched vs per-sample loop (4 prompts, 5 keys each)")
    print(f"{'n':>6} {'batched (ms)':>13} {'loop (ms)':>10} {'ratio':>7} {'same':>5}")
    for n in (100, 450, 2000):
        args = _setup(n)
        batched(*args)
        t0 = time.perf_counter()
        fast = batched(*args)
        t1 = time.perf_counter()
        slow = loop(*args)
        t2 = time.perf_counter()
        print(f"{n:>6} {(t1 - t0) * 1e3:>13.2f} {(t2 - t1) * 1e3:>10.1f} {(t2 - t1) / (t1 - t0):>7.0f} "
              f"{str(bool((fast == slow).all())):>5}")
    label = next(k for k in examples() if k.startswith("Reproduce the paper"))
    t0 = time.perf_counter()
    result = SPEC.run(Params.model_validate(examples()[label]), no_progress)
    print(f"\nheadline: {label}, {time.perf_counter() - t0:.1f} s")
    for c in result.claims:
        values = ", ".join(f"{o.value:+.2f}" for o in c.seeds if o.value is not None)
        span = "" if c.test is None or c.test.interval is None else f"[{c.test.interval[0]:+.2f}, {c.test.interval[1]:+.2f}]"
        print(f"  {c.id:>16}: {c.holds:>9}  {c.ours.text:>26} {span:>18}  per seed [{values}]  ({c.quantity} "
              f"{c.criterion})")
    print(f"  standing on {result.standing.metric}: " + ", ".join(
        f"{k} {v:.1f}%" for k, v in result.standing.scores.items()))
    v = result.verdict()
    print(f"  verdict: {v.kind}, {v.held} of {v.headline} headline claims held on {v.seeds} seeds; beaten by "
          f"{', '.join(v.beaten_by) or 'nobody'}")
    print(PREVIOUS)


if __name__ == "__main__":
    main()
