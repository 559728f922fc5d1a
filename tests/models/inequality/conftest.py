"""Shared helpers of the inequality tests: fast settings and one-call runs."""

from __future__ import annotations

from typing import Any

import pytest

from models.common.contract import no_progress
from models.inequality.params import Params
from models.inequality.result import Result
from models.inequality.run import run

FAST: dict[str, Any] = {"refute_starts": 4, "lean_check": False}


def prove(problem: str, hypotheses: list[str] | None = None, **settings: Any) -> Result:
    """Run the whole pipeline with fast settings (Lean off)."""
    return run(Params(problem=problem, hypotheses=hypotheses or [], **{**FAST, **settings}), no_progress)


@pytest.fixture
def no_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLM_BASE_URL", raising=False)
    monkeypatch.delenv("LLM_MODEL", raising=False)
