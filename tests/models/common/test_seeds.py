"""The seeds of a run: the seed list, progress split over seeds, and the `seeds` parameter's bounds."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from models.common.seeds import run_seeds, seed_values, seeds_field


def test_seeds_run_in_order_with_monotone_progress() -> None:
    seen: list[float] = []
    out = run_seeds(seed_values(7, 3), lambda s, p: (p(1.0), p(0.0), s)[-1],
                    lambda f, m="": seen.append(f))
    assert out == [7, 8, 9]
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0)


def test_the_seeds_parameter_is_bounded() -> None:
    class P(BaseModel):
        seeds: int = seeds_field(default=2, maximum=4)

    assert P().seeds == 2 and P(seeds=4).seeds == 4
    for bad in (0, 5):
        with pytest.raises(ValidationError):
            P(seeds=bad)
