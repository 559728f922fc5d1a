"""The shared table of formatting cases (tests/number_format_cases.json), decoded for pytest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CASES_FILE = Path(__file__).resolve().parent / "number_format_cases.json"
_SPECIAL = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def _decode(value: Any) -> Any:
    return _SPECIAL.get(value, value) if isinstance(value, str) else value


def cases() -> list[tuple[str, list[Any], dict[str, Any], str]]:
    """(function name, args, kwargs, expected text) for each case."""
    table = json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]
    return [(c["fn"], [_decode(a) for a in c["args"]], c.get("kwargs", {}), c["text"]) for c in table]


def case_id(case: tuple[str, list[Any], dict[str, Any], str]) -> str:
    return f"{case[0]}{tuple(case[1])!r}"
