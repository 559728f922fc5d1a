"""APT operator benchmark: this version (channelised media, pressure + saturation, GINO) against the previous one
(smooth log-normal media, pressure only; run from git side by side), shipped checkpoints, default page runs.

For each version and test seed: wall and CPU time of a default run (24 test media, adaptive mesh) and the mean
relative L2 of APT fused, the FNO, GINO (new only) and the uniform-k null, with each model's gain over the null.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/bench_apt_operator.py [--old 41402b8] [--seeds 0 1 2]

Measured 2026-12-06 (shared 2-core machine, load ~8, seeds 0 1; CPU s include the subprocess start):
previous (smooth, p): 18.0 / 17.7 s CPU, fused 0.467 / 0.458, FNO 0.272 / 0.283, null 0.533 / 0.468
(APT 12.5% / 2.1% below the null, FNO 49% / 40%); this (channels, p + s): 19.5 / 16.4 s CPU, fused 0.337 /
0.358, GINO 0.435 / 0.455, FNO 0.366 / 0.362, null 0.616 / 0.671 (APT 45% / 47%, FNO 41% / 46%, GINO 29% / 32%).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OLD = "41402b8"  # the last commit of the smooth-media, pressure-only version
PROBE = """
import json, sys
from models.apt_operator import SPEC
from models.apt_operator.params import Params
from models.common import no_progress
r = SPEC.run(Params(seed=int(sys.argv[1])), no_progress)
e = r.relative_l2
print(json.dumps({k: getattr(e, k, None) for k in ("fused", "local_only", "gino", "fno", "uniform_k")}))
"""


def _extract(rev: str, into: Path) -> None:
    """The files of `rev` that a run needs (models/, the method's weights), read from git without a checkout."""
    archive = subprocess.run(["git", "archive", rev, "models", "static/weights/apt_operator"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def _probe(root: Path, seed: int) -> dict[str, float | None]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(root)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", PROBE, str(seed)], cwd=root, env=env, check=True,
                         capture_output=True, text=True).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    row: dict[str, float | None] = json.loads(out.strip().splitlines()[-1])
    row.update(wall_s=wall, cpu_s=(after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return row


def _fmt(v: float | None) -> str:
    return "    -" if v is None else f"{v:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", default=OLD, help="git revision of the previous version")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    args = parser.parse_args()
    print("Default run (shipped checkpoint, 24 test media, adaptive mesh); rel. L2 (new: mean of pressure and "
          "saturation); gain = 100 (1 - model / null), the claims need >= 25")
    print(f"{'version':>34} {'seed':>4} {'wall s':>7} {'cpu s':>6} {'fused':>6} {'local':>6} {'GINO':>6} {'FNO':>6} "
          f"{'null':>6} {'APT gain':>8} {'FNO gain':>8} {'GINO gain':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        _extract(args.old, Path(tmp))
        for label, root in ((f"previous ({args.old}): smooth, p", Path(tmp)), ("this: channels, p + s", ROOT)):
            for seed in args.seeds:
                r = _probe(root, seed)
                null = float(r["uniform_k"])  # type: ignore[arg-type]
                gain = {k: None if r[k] is None else 100 * (1 - float(r[k]) / null) for k in ("fused", "fno", "gino")}  # type: ignore[arg-type]
                print(f"{label:>34} {seed:>4} {r['wall_s']:7.1f} {r['cpu_s']:6.1f} {_fmt(r['fused'])} "
                      f"{_fmt(r['local_only'])} {_fmt(r['gino'])} {_fmt(r['fno'])} {_fmt(null)} "
                      + " ".join("       -" if gain[k] is None else f"{gain[k]:7.1f}%" for k in ("fused", "fno", "gino")),
                      flush=True)


if __name__ == "__main__":
    main()
