"""Progress stages map into disjoint slices and never go backwards."""

from __future__ import annotations

import pytest

from models.common.progress import MonotoneProgress, sub_progress


def test_stages_map_into_their_slices() -> None:
    seen: list[float] = []
    progress = MonotoneProgress(lambda f, m="": seen.append(f))
    first, second = progress.stage(0.0, 0.4), progress.stage(0.4, 1.0)
    first(0.5)
    second(0.5)
    assert seen == pytest.approx([0.2, 0.7])


def test_a_late_low_report_does_not_move_the_bar_back() -> None:
    seen: list[float] = []
    progress = MonotoneProgress(lambda f, m="": seen.append(f))
    progress(0.35, "proposing")
    progress(0.2, "searching")  # the old inequality pipeline did exactly this
    sub_progress(progress, 0.0, 0.1)(1.0)
    assert seen == [0.35, 0.35, 0.35]
    assert seen == sorted(seen)


def test_values_are_clamped_to_the_unit_interval() -> None:
    seen: list[float] = []
    progress = MonotoneProgress(lambda f, m="": seen.append(f))
    progress(-3.0)
    progress.stage(0.5, 0.9)(7.0)
    progress(12.0)
    assert seen == [0.0, 0.9, 1.0]


def test_bad_stage_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="0 <= start <= end <= 1"):
        MonotoneProgress(lambda f, m="": None).stage(0.8, 0.2)
