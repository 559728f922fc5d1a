"""Example scenes shipped in static/scenes (studio, bedroom, office, living room, kitchen, classroom)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from models.common.paths import static_path
from models.layout.scene import Relation, Scene
from models.layout.sentences import render

__all__ = ["SCENE_NAMES", "examples", "load_scene", "scene_file"]

SCENE_NAMES = ("studio", "bedroom", "office", "living_room", "kitchen", "classroom")


@cache
def scene_file(name: str) -> dict[str, Any]:
    """Return the parsed JSON of one example file ({title, description, scene})."""
    return json.loads(static_path("scenes", f"{name}.json").read_text())


def load_scene(name: str) -> Scene:
    """Return one example scene, validated."""
    return Scene.model_validate(scene_file(name)["scene"])


def _contradiction() -> dict[str, Any]:
    scene = load_scene("bedroom").model_dump(mode="json")
    scene["relations"] += [
        {"type": "right_of", "a": "bed", "b": "nightstand_b"},  # with the walls pinning both: a cycle
        {"type": "west_of", "a": "wardrobe", "b": "desk"},
        {"type": "east_of", "a": "wardrobe", "b": "desk"},
    ]
    return scene


def _infeasible() -> dict[str, Any]:
    scene = load_scene("bedroom").model_dump(mode="json")
    scene["objects"].append({"name": "piano", "width": 4.5, "depth": 4.0, "height": 1.3, "yaw": None})
    return scene


def _door_wall() -> dict[str, Any]:
    """Three 1.2 m cabinets against a 4 m south wall that also holds a 0.9 m door: the consistency stage
    cannot see the door, the MILP proves that no layout with its yaws exists."""
    objects = [{"name": f"cabinet_{k}", "width": 1.2, "depth": 0.5, "height": 0.9} for k in (1, 2, 3)]
    objects.append({"name": "table", "width": 1.2, "depth": 0.8, "height": 0.75})
    relations = [{"type": "against_wall", "a": o["name"], "wall": "south"} for o in objects[:3]]
    relations.append({"type": "near", "a": "table", "b": "cabinet_2"})
    return {"room": {"width": 4.0, "depth": 3.0, "height": 2.6}, "objects": objects, "relations": relations,
            "openings": [{"name": "door", "kind": "door", "wall": "south", "offset": 1.5, "width": 0.9, "clearance": 0.9}]}


def examples() -> dict[str, dict[str, Any]]:
    """Return {label: params} for the page: the full studio first (the default), the other scenes, one
    given as sentences, ablations that differ, a generated scene, a MILP proof, a contradiction and an
    infeasible room."""
    out: dict[str, dict[str, Any]] = {}
    for name in SCENE_NAMES:
        data = scene_file(name)
        out[f"{data['title']} ({len(data['scene']['objects'])} objects)"] = {"scene": data["scene"], "seed": 0}
    bedroom = load_scene("bedroom")
    sentences = [render(Relation.model_validate(r.model_dump())) for r in bedroom.relations]
    out["Bedroom from sentences"] = {
        "scene": {**bedroom.model_dump(mode="json", exclude_none=True), "relations": []},
        "statements": sentences,
        "seed": 0,
    }
    out["Kitchen with ablations (one start each; the random start of 'no imagination' fails here)"] = {
        "scene": scene_file("kitchen")["scene"],
        "ablations": ["no_decomposition", "no_imagination", "no_reparameterisation"],
        "starts": 1,
        "milp": "off",
        "seed": 0,
    }
    out["Reproduce the paper: kitchen, full method vs its three ablations, 3 seeds (~60 s)"] = {
        **out["Kitchen with ablations (one start each; the random start of 'no imagination' fails here)"], "seeds": 3}
    out["Random feasible scene (seed 3, 15 objects)"] = {"random": {"seed": 3, "objects": 15}, "seed": 0}
    out["Door in a full wall (unsolved, the MILP proves why)"] = {"scene": _door_wall(), "seed": 0, "starts": 1}
    out["Contradiction (named and revisable)"] = {"scene": _contradiction(), "seed": 0}
    out["Infeasible (piano wider than the room)"] = {"scene": _infeasible(), "seed": 0}
    return out
