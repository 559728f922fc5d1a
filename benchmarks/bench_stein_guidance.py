"""The new SDG (the paper's Stein target, kernel and running cost) against the previous version, side by side.

For each version (this tree, and git revision PREVIOUS extracted to a temporary folder and run in its own
process) the script samples SDG over the same strengths on the same 2-D ring problem, 600 particles, 60 steps,
and prints the time of one sweep and the paper's metric: the hit ratio (hit the target and stay on the prior's
99% region), best over the sweep and per strength, plus DPS's for reference. Then it times the defaults
(`run(Params())`) of both versions. Seeds 0-2 unless --seeds is given.

    OMP_NUM_THREADS=1 python benchmarks/bench_stein_guidance.py [--previous c82f593] [--seeds 0 1 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STRENGTHS = [2.0, 4.0, 8.0, 16.0, 32.0]

PROBE = r"""
import json, sys, time, torch
from models.stein_guidance.problem import build_problem
from models.stein_guidance.guidance import GuidanceSettings
from models.stein_guidance.sampler import sample
from models.stein_guidance.params import Params
from models.stein_guidance.run import run
torch.set_num_threads(1)
seed, strengths = int(sys.argv[1]), json.loads(sys.argv[2])
problem = build_problem(2, "cpu", torch.Generator().manual_seed(seed))
out = {}
for method in ("sdg", "dps"):
    start = time.process_time()
    final = sample(method, problem, strengths, 600, 60, GuidanceSettings(), torch.Generator().manual_seed(seed + 1),
                   lambda k: None).final
    hit = problem.hits(final) & problem.on_manifold(final)
    out[method] = {"seconds": time.process_time() - start, "hit_ratio": hit.float().mean(-1).tolist()}
if len(sys.argv) > 3:
    start = time.process_time()
    run(Params(), lambda f, m="": None)
    out["defaults_seconds"] = time.process_time() - start
print(json.dumps(out))
"""


def _probe(root: Path, seed: int, defaults: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root), "OMP_NUM_THREADS": "1"}
    args = [sys.executable, "-c", PROBE, str(seed), json.dumps(STRENGTHS)] + (["defaults"] if defaults else [])
    done = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _previous(revision: str, folder: Path) -> Path:
    archive = folder / "previous.tar"
    with archive.open("wb") as handle:
        subprocess.run(["git", "archive", revision, "models"], cwd=ROOT, stdout=handle, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--previous", default="c82f593", help="git revision of the previous version (c82f593: before the paper's SDG)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        roots = {"previous": _previous(args.previous, Path(tmp)), "new": ROOT}
        print(f"hit ratio per strength {STRENGTHS} (600 particles, 60 steps); CPU seconds of one sweep")
        for seed in args.seeds:
            for name, root in roots.items():
                out = _probe(root, seed, defaults=seed == args.seeds[0])
                for method in ("sdg", "dps"):
                    ratios = out[method]["hit_ratio"]
                    print(f"seed {seed} {name:8s} {method}: best {max(ratios):.3f}  "
                          f"[{', '.join(f'{r:.3f}' for r in ratios)}]  {out[method]['seconds']:.1f} s")
                if "defaults_seconds" in out:
                    print(f"seed {seed} {name:8s} defaults run(Params()): {out['defaults_seconds']:.1f} s CPU")
    print(f"(measured at {time.strftime('%H:%M')} with OMP_NUM_THREADS=1)")


if __name__ == "__main__":
    main()
