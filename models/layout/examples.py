"""Example scenes shipped in static/scenes (bedroom, office, living room, kitchen, classroom)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from models.layout.scene import Relation, Scene
from models.layout.sentences import render

__all__ = ["SCENE_DIR", "SCENE_NAMES", "examples", "load_scene", "scene_file"]

SCENE_DIR = Path(__file__).resolve().parents[2] / "static" / "scenes"
SCENE_NAMES = ("bedroom", "office", "living_room", "kitchen", "classroom")


@cache
def scene_file(name: str) -> dict[str, Any]:
    """Return the parsed JSON of one example file ({title, description, scene})."""
    return json.loads((SCENE_DIR / f"{name}.json").read_text())


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


def examples() -> dict[str, dict[str, Any]]:
    """Return {label: params} for the page: the five scenes, one given as sentences, a contradiction
    and an infeasible room."""
    out: dict[str, dict[str, Any]] = {}
    for name in SCENE_NAMES:
        data = scene_file(name)
        out[f"{data['title']} ({len(data['scene']['objects'])} objects)"] = {"scene": data["scene"], "seed": 0}
    bedroom = load_scene("bedroom")
    sentences = [render(Relation.model_validate(r.model_dump())) for r in bedroom.relations]
    out["Bedroom from sentences"] = {
        "scene": {**bedroom.model_dump(mode="json"), "relations": []},
        "statements": sentences,
        "seed": 0,
    }
    out["Bedroom with ablations"] = {
        "scene": scene_file("bedroom")["scene"],
        "ablations": ["no_decomposition", "no_imagination", "no_reparameterisation"],
        "seed": 0,
    }
    out["Contradiction (named and revisable)"] = {"scene": _contradiction(), "seed": 0}
    out["Infeasible (piano wider than the room)"] = {"scene": _infeasible(), "seed": 0}
    return out
