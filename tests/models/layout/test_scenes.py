"""Feasible example scenes come out clean: 0 collisions, 0 out of room, every relation satisfied."""

from __future__ import annotations

import json

import numpy as np
import pytest

from models.common import no_progress
from models.layout.examples import SCENE_NAMES, examples, load_scene, scene_file
from models.layout.geometry import collisions, out_of_room
from models.layout.params import Params
from models.layout.relations import check_all
from models.layout.run import run


@pytest.mark.parametrize("name", SCENE_NAMES)
def test_example_scene_is_clean(name: str) -> None:
    scene = load_scene(name)
    assert 5 <= len(scene.objects) <= 25
    result = run(Params(scene=scene), no_progress)
    dumped = result.model_dump(mode="json")
    assert dumped["status"] == "ok"
    assert dumped["metrics"]["collision_count"] == 0
    assert dumped["metrics"]["out_of_room_count"] == 0
    assert dumped["metrics"]["relation_fraction"] == 1.0
    # re-check independently from the returned poses (rounded as the user gets them)
    names = [o.name for o in scene.objects]
    poses = np.array([[dumped["layout"][n][k] for k in ("x", "y", "z", "yaw")] for n in names])
    sizes = np.array([[o.width, o.depth, o.height] for o in scene.objects])
    room = (scene.room.width, scene.room.depth, scene.room.height)
    assert collisions(poses, sizes) == []
    assert out_of_room(poses, sizes, room) == []
    assert all(check_all(scene.relations, scene.index(), poses, sizes, room))


def test_examples_validate_and_name_the_scenes() -> None:
    labels = list(examples())
    assert len(labels) >= 5
    for params in examples().values():
        Params.model_validate(params)
    for name in SCENE_NAMES:
        assert set(scene_file(name)) == {"title", "description", "scene"}
        json.dumps(scene_file(name))
