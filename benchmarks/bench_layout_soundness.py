"""Layout soundness on generated scenes: solve rate and how many `ok` answers hide a violated check.

Each scene (random_scene, `--first` + k, 6 to 15 objects, 3 relations per object, all true in a witness
layout, so every scene is feasible) goes through the whole method (`models.layout.seeds.run`, default
settings: 3 optimiser starts, the MILP when they fail). The reported layout is then re-checked by
`exact_violations` on the poses as reported (what a user downloads). `ok with violation` must be 0: the
result's validator makes it impossible; the count is measured, not assumed.

    python benchmarks/bench_layout_soundness.py [--scenes 50] [--first 2000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from models.common import no_progress  # noqa: E402
from models.layout.gate import exact_violations  # noqa: E402
from models.layout.params import Params  # noqa: E402
from models.layout.seeds import run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=50)
    parser.add_argument("--first", type=int, default=2000)
    args = parser.parse_args()
    torch.set_num_threads(1)
    counts = {"ok": 0, "unsolved": 0, "contradiction": 0, "infeasible": 0}
    hidden, times = 0, []
    print("scene objects relations status    solver     violations(re-check)  time s")
    for seed in range(args.first, args.first + args.scenes):
        objects = 6 + seed % 10
        started = time.perf_counter()
        result = run(Params(random={"seed": seed, "objects": objects}), no_progress)
        times.append(time.perf_counter() - started)
        scene = result.scene
        assert scene is not None
        counts[result.status] += 1
        bad: list[str] = []
        if result.layout:
            names = [o.name for o in scene.objects]
            poses = np.array([[result.layout[n].x, result.layout[n].y, result.layout[n].z, result.layout[n].yaw]
                              for n in names])
            kept = [r for k, r in enumerate(scene.relations) if k not in set(result.dropped)]
            bad = exact_violations(scene, kept, poses)
        hidden += result.status == "ok" and bool(bad)
        print(f"{seed:5d} {objects:7d} {len(scene.relations):9d} {result.status:9s} {result.solver or '-':10s} "
              f"{len(bad):10d} {times[-1]:16.1f}", flush=True)
    n = args.scenes
    print(f"\nsolve rate (ok): {counts['ok']} / {n} = {100 * counts['ok'] / n:.0f}%; unsolved {counts['unsolved']}, "
          f"contradiction {counts['contradiction']}, infeasible {counts['infeasible']} (all scenes are feasible)")
    print(f"ok with a violated exact check: {hidden} / {counts['ok']}")
    print(f"time per scene: mean {statistics.mean(times):.1f} s, median {statistics.median(times):.1f} s")


if __name__ == "__main__":
    main()
