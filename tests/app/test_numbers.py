"""app.components.numbers follows the shared table of formatting cases (models.common.numbers follows the same)."""

from __future__ import annotations

from typing import Any

import pytest

from app.components import numbers
from tests.number_cases import case_id, cases


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_kit_formatter_follows_the_shared_cases(case: tuple[str, list[Any], dict[str, Any], str]) -> None:
    name, args, kwargs, text = case
    assert getattr(numbers, name)(*args, **kwargs) == text


def test_table_cells_keep_four_digits_and_pass_text_through() -> None:
    assert numbers.format_number(0.228831) == "0.2288"
    assert numbers.format_number("two markets") == "two markets"
