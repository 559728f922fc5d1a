"""models.common.numbers follows the shared table of formatting cases (the kit's formatter follows the same)."""

from __future__ import annotations

from typing import Any

import pytest

from models.common import numbers
from models.common.claim_results import format_value
from tests.number_cases import case_id, cases


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_models_formatter_follows_the_shared_cases(case: tuple[str, list[Any], dict[str, Any], str]) -> None:
    name, args, kwargs, text = case
    assert getattr(numbers, name)(*args, **kwargs) == text


def test_claims_format_values_with_the_shared_rules() -> None:
    assert format_value(-1.85e-17) == "0"
    assert format_value(2.4e13) == numbers.number(2.4e13) == "2.4 × 10¹³"


def test_no_exponent_notation_at_any_size() -> None:
    for exponent in range(-11, 20):
        for mantissa in (1.0, -2.5, 9.999):
            text = numbers.number(mantissa * 10.0 ** exponent)
            assert "e" not in text and "E" not in text, text
