"""Extra-Merge benchmarks, run side by side:

* runtime of the default run now (issue 39: warm-up-stable-decay, late-stage cut, per-token losses, the lag
  shift, EMA/LAWA grids 1..128) against the previous version (537caab: cosine, half-way cut, mean losses), each
  in a fresh subprocess with one thread: wall and user CPU seconds (the machine is shared; CPU is the figure);
* evaluation of one parameter vector on a split: reloading the vector into one model (vector_to_parameters) vs
  building a fresh model per evaluation (the straightforward way), same loss;
* the per-seed table (top-1 variance shares merged / raw / random walk, the regime gate, every method's test
  loss and tuned choice) and the claims with their intervals and nulls over seeds 0, 1, 2.

    python benchmarks/bench_extra_merge.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.common import no_progress  # noqa: E402
from models.extra_merge import SPEC  # noqa: E402
from models.extra_merge.corpus import make_corpus  # noqa: E402
from models.extra_merge.model import TinyTransformer, evaluate  # noqa: E402
from models.extra_merge.params import Params  # noqa: E402

PREVIOUS = "537caab"  # the version the turn-4 review read (before issue 39)
_RUN = ("import json, sys, torch; torch.set_num_threads(1); from models.common import no_progress; "
        "from importlib import import_module; spec = import_module('models.' + sys.argv[1]).SPEC; "
        "spec.run(spec.params_model.model_validate(json.loads(sys.argv[2])), no_progress)")


def _timed(root: Path, method: str, params: dict[str, Any]) -> tuple[float, float]:
    """(wall, user CPU) seconds of one default run in a fresh one-thread subprocess importing from `root`."""
    env = {**os.environ, "PYTHONPATH": str(root), "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", _RUN, method, json.dumps(params)], cwd=root, env=env, check=True)
    return time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def side_by_side(method: str, params_now: dict[str, Any], params_before: dict[str, Any], commit: str) -> None:
    """The default run of `method` now and at `commit` (its models/ tree extracted by git archive)."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "previous.tar"
        subprocess.run(["git", "archive", "-o", str(archive), commit, "models"], cwd=ROOT, check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        before = _timed(Path(tmp), method, params_before)
    now = _timed(ROOT, method, params_now)
    print(f"{method}, default run, one thread (wall s / user CPU s):")
    print(f"  previous version ({commit}, {params_before or 'defaults'}): {before[0]:6.1f} / {before[1]:6.1f}")
    print(f"  this version ({params_now or 'defaults'}):            {now[0]:6.1f} / {now[1]:6.1f}")
    print(f"  ratio now / before: wall {now[0] / before[0]:.2f}x, CPU {now[1] / before[1]:.2f}x")


def evaluation_speed(repeats: int) -> None:
    torch.set_num_threads(1)
    corpus = make_corpus(np.random.default_rng(0))
    model = TinyTransformer(corpus.vocab, corpus.train.shape[1] - 1, 32, 2, 2)
    flat = torch.nn.utils.parameters_to_vector(model.parameters()).detach().clone()
    tokens = torch.as_tensor(corpus.val)
    start = time.perf_counter()
    for _ in range(repeats):
        reused = evaluate(model, flat, tokens)
    t_reuse = (time.perf_counter() - start) / repeats
    start = time.perf_counter()
    for _ in range(repeats):
        fresh_model = TinyTransformer(corpus.vocab, corpus.train.shape[1] - 1, 32, 2, 2)
        fresh = evaluate(fresh_model, flat, tokens)
    t_fresh = (time.perf_counter() - start) / repeats
    print(f"\none evaluation on {tokens.numel():,} tokens: reload into one model {t_reuse * 1e3:.1f} ms, fresh model "
          f"{t_fresh * 1e3:.1f} ms ({t_fresh / t_reuse:.1f}x), same loss: {abs(reused - fresh) < 1e-6}")


def headline(seeds: list[int]) -> None:
    result = SPEC.run(Params(seed=seeds[0], seeds=len(seeds)), no_progress)
    print(f"\nDefault run over seeds {seeds}: test loss (nats/token); floor {result.floor:.4f} (first seed)")
    print("seed | phase (step) | falling | share merged/raw/walk | regime | last | merge | EMA (k) | LAWA (k) | "
          "Extra-Merge (beta) | shift (gamma)")
    for s in result.seeds_run:
        for c in (s.falling, s.plateau):
            print(f"{s.seed:4d} | {c.phase} ({c.step}) | {c.still_falling} | {c.pca_merged:.2f}/{c.pca_raw:.2f}/"
                  f"{c.pca_random_walk:.2f} | {c.regime} | {c.loss_last:.5f} | {c.loss_merge:.5f} | {c.loss_ema:.5f} "
                  f"({c.ema_k}) | {c.loss_lawa:.5f} ({c.lawa_k}) | {c.loss_extrapolated:.5f} ({c.beta:g}) | "
                  f"{c.loss_shift:.5f} ({c.gamma:g})")
    for claim in result.claims:
        interval = claim.test.interval if claim.test else None
        null = f"{claim.null.name} {claim.null.value:.4g}" if claim.null and claim.null.value is not None else "-"
        print(f"  {claim.id:20s} {claim.holds:10s} mean {claim.ours.mean if claim.ours.mean is not None else '-'} "
              f"interval {interval} null {null}")
    verdict = result.verdict()
    print(f"  verdict: {verdict.kind}, {verdict.held} of {verdict.tested} tested headline claims held "
          f"({verdict.headline} headline), beaten by {list(verdict.beaten_by)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    side_by_side("extra_merge", {}, {}, PREVIOUS)
    evaluation_speed(5 if args.quick else 30)
    headline([0] if args.quick else [0, 1, 2])


if __name__ == "__main__":
    main()
