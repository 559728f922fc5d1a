"""Figures: labels that do not overlap, a loss chart that survives zeros on its log axis, a 3D view that
is not clipped, violations drawn in red."""

from __future__ import annotations

import itertools
import math

import numpy as np

from models.layout.figures import _loss_figure, _scene_3d, spread_labels
from models.layout.result import PoseOut, Result
from models.layout.scene import Obj, Room


def test_spread_labels_keeps_labels_apart() -> None:
    rng = np.random.default_rng(0)
    points = [(float(x), float(y)) for x, y in rng.uniform(0, 1, size=(8, 2))]
    placed = spread_labels(points, min_gap=0.3, step=0.2)
    assert [p[0] for p in placed] == [p[0] for p in points]
    for (x1, y1), (x2, y2) in itertools.combinations(placed, 2):
        assert math.hypot(x1 - x2, y1 - y2) >= 0.3 - 1e-9


def test_loss_with_zeros_has_no_zero_on_the_log_axis() -> None:
    fig = _loss_figure([2.0, 0.5, 0.01, 0.0, 0.0])
    ys = list(fig.data[0].y)
    assert min(ys) > 0 and ys[-1] == 0.001
    assert list(fig.data[1].x) == [3, 4]  # the zeros are marked


def test_3d_view_holds_every_box_and_label_and_marks_violations() -> None:
    room = Room(width=3.0, depth=2.5, height=2.4)
    boxes = [Obj(name="wardrobe", width=1.0, depth=0.6, height=2.35), Obj(name="lamp", width=0.2, depth=0.2, height=0.4)]
    layout = {"wardrobe": PoseOut(x=0.6, y=0.4, z=0.0, yaw=0.0), "lamp": PoseOut(x=0.7, y=0.45, z=1.95, yaw=0.0)}
    result = Result(status="unsolved", room=room, boxes=boxes, layout=layout, collisions=[("wardrobe", "lamp")])
    fig = _scene_3d(result, {"wardrobe", "lamp"})
    z_top = fig.layout.scene.zaxis.range[1]
    labels = fig.layout.scene.annotations  # names drawn over the scene (never hidden by a mesh)
    assert [a.text for a in labels] == ["wardrobe", "lamp"]
    assert z_top >= max(a.z for a in labels) and z_top >= 2.35
    assert abs(labels[0].z - labels[1].z) >= 0.18 - 1e-9  # close boxes: labels lifted apart
    assert sum(1 for t in fig.data if t.name and t.name.endswith("violation")) == 2
    assert fig.layout.scene.xaxis.range[0] < 0 and fig.layout.scene.xaxis.range[1] > room.width
