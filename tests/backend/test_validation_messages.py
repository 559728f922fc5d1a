"""Validation errors read in a person's words: rows and items counted from 1, no 'Value error,' prefix."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator

from backend.jobs.service import describe_validation_error


class Rectangle(BaseModel):
    s: list[float] = Field(min_length=2, max_length=2)
    b: list[float] = Field(min_length=2, max_length=2)

    @field_validator("b")
    @classmethod
    def _inside(cls, value: list[float]) -> list[float]:
        if any(not 0.0 <= v <= 1.0 for v in value):
            raise ValueError("must lie in [0, 1]")
        return value


class Distribution(BaseModel):
    rectangles: list[Rectangle]


class Params(BaseModel):
    distribution: Distribution
    j_values: list[float] = Field(default_factory=list)


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"distribution": {"rectangles": [{"s": [0, 1], "b": [0, 1]}, {"s": [0, 1], "b": [0, 2]}]}},
         "distribution › rectangles row 2 › b: must lie in [0, 1]"),
        ({"distribution": {"rectangles": []}, "j_values": [0.5, "x"]},
         "j_values item 2: Input should be a valid number"),
    ],
)
def test_locations_count_from_one(params: dict, expected: str) -> None:
    with pytest.raises(ValidationError) as error:
        Params.model_validate(params)
    assert describe_validation_error(error.value).startswith(expected)
