"""random_scene: feasible by construction (the witness passes every exact check), seeded, reachable from
the CLI params; the glTF download is Y-up with one material per kind of object."""

from __future__ import annotations

import io

import numpy as np
import pytest
import trimesh

from models.common import no_progress
from models.layout.generator import random_scene
from models.layout.params import Params
from models.layout.pipeline import exact_violations
from models.layout.result import kind_colours
from models.layout.run import run


@pytest.mark.parametrize("seed,objects", [(0, 10), (1, 18), (2, 25), (3, 4)])
def test_witness_satisfies_every_relation(seed: int, objects: int) -> None:
    generated = random_scene(seed, objects)
    s = generated.scene
    assert 2 <= len(s.objects) <= objects
    assert len(s.relations) >= 2 * len(s.objects)
    assert exact_violations(s, s.relations, generated.witness) == []


def test_same_seed_same_scene_other_seed_other_scene() -> None:
    assert random_scene(4, 12).scene == random_scene(4, 12).scene
    assert np.array_equal(random_scene(4, 12).witness, random_scene(4, 12).witness)
    assert random_scene(5, 12).scene != random_scene(4, 12).scene


def test_random_param_returns_the_scene() -> None:
    result = run(Params.model_validate({"random": {"seed": 3, "objects": 8}}), no_progress)
    assert result.scene == random_scene(3, 8).scene
    assert result.model_dump(mode="json")["scene"]["objects"]
    assert result.status == "ok"


def test_glb_is_y_up_with_a_material_per_kind() -> None:
    result = run(Params.model_validate({"random": {"seed": 3, "objects": 8}, "starts": 1, "milp": "first"}), no_progress)
    loaded = trimesh.load(io.BytesIO(result.artifacts()["scene.glb"].content), file_type="glb")
    assert isinstance(loaded, trimesh.Scene)
    low, high = loaded.bounds
    tallest = max(result.layout[b.name].z + b.height for b in result.boxes)
    assert high[1] == pytest.approx(tallest, abs=1e-3)  # up is +Y
    assert low[1] == pytest.approx(-0.01, abs=1e-3)  # the floor slab
    assert high[2] == pytest.approx(0.0, abs=1e-3) and low[2] == pytest.approx(-result.room.depth, abs=1e-3)  # north is -Z
    colours = kind_colours([b.name for b in result.boxes])
    by_name = {name: tuple(int(c) for c in geom.visual.material.baseColorFactor[:3]) for name, geom in loaded.geometry.items()}
    for box in result.boxes:
        expected = tuple(int(colours[box.name][k:k + 2], 16) for k in (1, 3, 5))
        assert by_name[box.name] == expected
    assert len({by_name[b.name] for b in result.boxes}) == len(set(colours.values()))
