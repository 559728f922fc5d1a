"""Benchmark of the layout method (R^3L): solve rate on generated feasible scenes, and MILP proofs.

1. Solve rate on generated feasible scenes (random_scene, 10-25 objects, about 3 relations per object,
   every relation true in a witness layout): the single-start optimiser (the baseline: one imagination +
   optimisation + repair run, as the method ran before), the multi-start optimiser (starts seed, seed+1,
   ... until one is clean), and the multi-start optimiser with the MILP fallback. Clean = 0 collisions,
   0 objects out of the room, every relation satisfied (the exact checks).
2. The MILP solver (HiGHS) on small scenes: generated feasible scenes (it must return a checked layout)
   and generated scenes with three extra relations the witness violates that the consistency stage does
   not refute (it must decide them, either way), with the time of each proof.
3. The same seeds of the optimiser give the same numbers (checked by re-running one scene).

    python benchmarks/bench_layout.py [--quick] [--scenes 50] [--starts 3]
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

from models.layout.consistency import check_consistency  # noqa: E402
from models.layout.generator import random_scene  # noqa: E402
from models.layout.milp import solve_milp  # noqa: E402
from models.layout.pipeline import Flags, layout_scene  # noqa: E402
from models.layout.relations import check_relation  # noqa: E402
from models.layout.scene import Relation  # noqa: E402

PAIR_KINDS = ("left_of", "right_of", "in_front_of", "behind", "west_of", "east_of", "south_of", "north_of", "near",
              "far", "facing")


def solve_rate(count: int, starts: int, milp_seconds: float, first: int = 0) -> None:
    print(f"1. Solve rate on {count} generated feasible scenes (seeds {first}-{first + count - 1}, 10-25 objects, "
          "3 relations per object)")
    print("   scene objects relations | single start: clean time s | multi-start: clean starts time s | +MILP: clean time s")
    single, multi, with_milp = [], [], []
    t_single, t_multi, t_milp = [], [], []
    for seed in range(first, first + count):
        objects = 10 + seed % 16
        scene = random_scene(seed, objects).scene
        outcome = layout_scene(scene, scene.relations, Flags(), 0, 80, 200, 3, starts=starts)
        first_clean = outcome.start_clean[0]
        single.append(first_clean)
        t_single.append(outcome.start_seconds[0])
        multi.append(outcome.clean)
        t_multi.append(outcome.seconds)
        solved, extra = outcome.clean, 0.0
        if not outcome.clean and objects <= 25:
            proof = solve_milp(scene, scene.relations, time_limit=milp_seconds)
            solved, extra = proof.status == "feasible", proof.seconds
        with_milp.append(solved)
        t_milp.append(outcome.seconds + extra)
        print(f"   {seed:5d} {len(scene.objects):7d} {len(scene.relations):9d} | {str(first_clean):>18} "
              f"{outcome.start_seconds[0]:6.1f} | {str(outcome.clean):>17} {outcome.starts:6d} {outcome.seconds:6.1f} | "
              f"{str(solved):>11} {outcome.seconds + extra:6.1f}", flush=True)
    print()
    print("   solver                          solved        rate   mean s/scene  median s/scene")
    for label, ok, times in (("single-start optimiser (baseline)", single, t_single),
                             (f"multi-start optimiser ({starts} starts)", multi, t_multi),
                             ("multi-start + MILP fallback", with_milp, t_milp)):
        print(f"   {label:32s} {sum(ok):3d} / {len(ok):3d}   {100.0 * sum(ok) / len(ok):5.1f}%   {statistics.mean(times):10.2f}"
              f"  {statistics.median(times):14.2f}")
    print(f"   time ratio multi-start / single-start: {sum(t_multi) / sum(t_single):.2f}x; "
          f"with MILP / single-start: {sum(t_milp) / sum(t_single):.2f}x")
    print()


def milp_proofs(count: int, milp_seconds: float) -> None:
    print(f"2. MILP proofs on small scenes ({count} feasible, {count} with three relations the witness violates)")
    print("   kind        seed objects relations binaries status      time s  detail")
    rows: dict[str, list[tuple[str, float]]] = {"feasible": [], "perturbed": []}
    for seed in range(count):
        objects = 6 + seed % 5
        generated = random_scene(1000 + seed, objects)
        scene = generated.scene
        proof = solve_milp(scene, scene.relations, time_limit=milp_seconds)
        rows["feasible"].append((proof.status, proof.seconds))
        print(f"   feasible  {1000 + seed:6d} {objects:7d} {len(scene.relations):9d} {proof.binaries:8d} {proof.status:11s} "
              f"{proof.seconds:6.2f}  {proof.detail}", flush=True)
        rng = np.random.default_rng(seed)
        sizes = np.array([[o.width, o.depth, o.height] for o in scene.objects])
        room = (scene.room.width, scene.room.depth, scene.room.height)
        names = [o.name for o in scene.objects]
        relations = list(scene.relations)
        added = 0
        for _ in range(500):
            if added == 3:
                break
            a, b = (int(v) for v in rng.choice(len(names), size=2, replace=False))
            rel = Relation(type=PAIR_KINDS[int(rng.integers(len(PAIR_KINDS)))], a=names[a], b=names[b])  # type: ignore[arg-type]
            if check_relation(rel, scene.index(), generated.witness, sizes, room):
                continue
            trial = [*relations, rel]
            if check_consistency(scene.model_copy(update={"relations": trial}), trial).consistent:
                relations = trial
                added += 1
        perturbed = scene.model_copy(update={"relations": relations})
        proof = solve_milp(perturbed, relations, time_limit=milp_seconds)
        rows["perturbed"].append((proof.status, proof.seconds))
        print(f"   perturbed {1000 + seed:6d} {objects:7d} {len(relations):9d} {proof.binaries:8d} {proof.status:11s} "
              f"{proof.seconds:6.2f}  {proof.detail}", flush=True)
    print()
    print("   kind       feasible  infeasible  unknown   mean s   max s")
    for kind, items in rows.items():
        counts = {s: sum(1 for st, _ in items if st == s) for s in ("feasible", "infeasible", "unknown")}
        times = [t for _, t in items]
        print(f"   {kind:10s} {counts['feasible']:8d} {counts['infeasible']:11d} {counts['unknown']:8d} "
              f"{statistics.mean(times):8.2f} {max(times):7.2f}")
    print()


def determinism() -> None:
    scene = random_scene(7, 12).scene
    first = layout_scene(scene, scene.relations, Flags(), 5, 80, 200, 3, starts=2)
    second = layout_scene(scene, scene.relations, Flags(), 5, 80, 200, 3, starts=2)
    other = layout_scene(scene, scene.relations, Flags(), 6, 80, 200, 3, starts=1)
    print("3. Same seed, same layout:", bool(np.array_equal(first.poses, second.poses)),
          "| another seed moves it:", not bool(np.allclose(first.poses, other.poses)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="6 scenes and 3 MILP pairs")
    parser.add_argument("--scenes", type=int, default=50)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--milp-seconds", type=float, default=30.0)
    parser.add_argument("--first", type=int, default=0, help="seed of the first generated scene")
    parser.add_argument("--only", choices=["rate", "milp", "seed"], default=None, help="run one section")
    args = parser.parse_args()
    torch.set_num_threads(1)
    warm = random_scene(0, 5).scene
    layout_scene(warm, warm.relations, Flags(), 0, 5, 10, 0)  # torch's first optimiser call imports a lot
    started = time.perf_counter()
    if args.only in (None, "rate"):
        solve_rate(6 if args.quick else args.scenes, args.starts, args.milp_seconds, args.first)
    if args.only in (None, "milp"):
        milp_proofs(3 if args.quick else 10, args.milp_seconds)
    if args.only in (None, "seed"):
        determinism()
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
