"""Benchmark of the layout method (R^3L) against its ablations and scaling in the number of objects.

Baseline: "no_imagination", a random start with the rest unchanged, which is what the released R^3L code
does (its imagination never feeds the optimiser). Every variant runs the same consistency-checked relations,
the same optimiser budget and the same repair budget, on one seed per scene.

    python benchmarks/bench_layout.py [--quick]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from models.layout.examples import SCENE_NAMES, load_scene  # noqa: E402
from models.layout.pipeline import Flags, LayoutOutcome, layout_scene  # noqa: E402
from models.layout.scene import Obj, Relation, Room, Scene  # noqa: E402

VARIANTS = {
    "full": Flags(),
    "no_decomposition": Flags(decomposition=False),
    "no_imagination": Flags(imagination=False),
    "no_reparameterisation": Flags(reparameterisation=False),
}
BASELINE = "no_imagination"


def study_hall(n_objects: int) -> Scene:
    """A synthetic room of desk + chair pairs in rows facing the north wall, a bookshelf (and a plant)."""
    pairs = max(1, (n_objects - 1) // 2)
    cols = math.ceil(math.sqrt(pairs))
    rows = math.ceil(pairs / cols)
    room = Room(width=1.6 * cols + 1.0, depth=1.6 * rows + 1.2, height=3.0)
    objects = [Obj(name="bookshelf", width=1.0, depth=0.35, height=1.8)]
    relations = [Relation(type="against_wall", a="bookshelf", wall="south")]
    for k in range(pairs):
        r, c = divmod(k, cols)
        desk, chair = f"desk_{r}_{c}", f"chair_{r}_{c}"
        objects += [Obj(name=desk, width=1.0, depth=0.5, height=0.72), Obj(name=chair, width=0.45, depth=0.45, height=0.85)]
        relations += [Relation(type="facing", a=desk, wall="north"), Relation(type="behind", a=chair, b=desk),
                      Relation(type="facing", a=chair, wall="north")]
        if c > 0:
            relations.append(Relation(type="east_of", a=desk, b=f"desk_{r}_{c - 1}"))
        if r > 0:
            relations.append(Relation(type="south_of", a=desk, b=f"desk_{r - 1}_{c}"))
    if len(objects) < n_objects:
        objects.append(Obj(name="plant", width=0.4, depth=0.4, height=1.2))
        relations.append(Relation(type="near", a="plant", b="bookshelf"))
    return Scene(room=room, objects=objects, relations=relations)


def run_variant(scene: Scene, flags: Flags, seed: int, stage2: int) -> LayoutOutcome:
    return layout_scene(scene, scene.relations, flags, seed, 80, stage2, 3)


def fmt_row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two scenes, sizes 10 and 20")
    args = parser.parse_args()
    torch.set_num_threads(1)
    scenes = ["bedroom", "kitchen"] if args.quick else list(SCENE_NAMES)
    sizes = [10, 20] if args.quick else [10, 20, 40]
    run_variant(load_scene("bedroom"), Flags(), 0, 20)  # warm-up: torch's first optimiser call imports a lot

    print(f"Layout quality on the example scenes (baseline: {BASELINE}, random start as in the released code)")
    widths = [12, 22, 10, 11, 12, 9, 9, 13]
    print(fmt_row(["scene", "variant", "collisions", "out of room", "relations %", "time s", "repairs", "time / base"], widths))
    totals: dict[str, list[float]] = {v: [0, 0, 0, 0] for v in VARIANTS}
    for name in scenes:
        scene = load_scene(name)
        outcomes = {v: run_variant(scene, flags, 0, 200) for v, flags in VARIANTS.items()}
        base_time = outcomes[BASELINE].seconds
        for v, o in outcomes.items():
            frac = 100.0 * sum(o.verdicts) / max(len(o.verdicts), 1)
            totals[v][0] += len(o.collisions)
            totals[v][1] += len(o.out_of_room)
            totals[v][2] += frac / len(scenes)
            totals[v][3] += o.seconds
            print(fmt_row([name, v, str(len(o.collisions)), str(len(o.out_of_room)), f"{frac:.1f}", f"{o.seconds:.2f}",
                           str(o.repairs), f"{o.seconds / base_time:.2f}x"], widths))
    print()
    print("Totals over the scenes (relations %: mean)")
    widths2 = [22, 10, 11, 12, 9, 13]
    print(fmt_row(["variant", "collisions", "out of room", "relations %", "time s", "time / base"], widths2))
    for v, (col, out, frac, secs) in totals.items():
        print(fmt_row([v, str(int(col)), str(int(out)), f"{frac:.1f}", f"{secs:.2f}",
                       f"{secs / totals[BASELINE][3]:.2f}x"], widths2))

    print()
    print("Scaling (synthetic study hall: desk + chair pairs in rows, plus a bookshelf)")
    widths3 = [8, 10, 10, 10, 11, 12, 10, 13]
    print(fmt_row(["objects", "relations", "variant", "collisions", "out of room", "relations %", "time s", "time / base"], widths3))
    for n in sizes:
        scene = study_hall(n)
        full = run_variant(scene, Flags(), 0, 200)
        base = run_variant(scene, Flags(imagination=False), 0, 200)
        for label, o in (("full", full), (BASELINE, base)):
            frac = 100.0 * sum(o.verdicts) / max(len(o.verdicts), 1)
            print(fmt_row([str(len(scene.objects)), str(len(scene.relations)), label[:10], str(len(o.collisions)),
                           str(len(o.out_of_room)), f"{frac:.1f}", f"{o.seconds:.2f}", f"{o.seconds / base.seconds:.2f}x"],
                          widths3))


if __name__ == "__main__":
    main()
