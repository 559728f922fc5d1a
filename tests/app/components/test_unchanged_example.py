"""The page kit sends an example's label only while the controls hold exactly that example's inputs."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from app.components import controls

SCHEMA = {"params_schema": {"properties": {"steps": {"default": 4}, "rate": {"default": 0.5}, "seed": {"default": 0}}}}
NAMED = {"Quick": {"steps": 3}, "Default": {}}


@pytest.fixture
def picked(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    state: dict[str, Any] = {}
    monkeypatch.setattr(controls, "st", SimpleNamespace(session_state=state))
    monkeypatch.setattr(controls, "examples", lambda method: NAMED)
    monkeypatch.setattr(controls, "method_info", lambda method: SCHEMA)
    return state


@pytest.mark.parametrize(("label", "params", "sent"), [
    ("Quick", {"steps": 3, "rate": 0.5, "seed": 0}, "Quick"),
    ("Quick", {"steps": 3}, "Quick"),  # a field the page does not draw reads as its default
    ("Quick", {"steps": 3, "rate": 0.25}, None),  # one control differs
    ("Quick", {"steps": 4}, None),
    ("Default", {"steps": 4, "rate": 0.5, "seed": 0}, "Default"),
    ("Default", {"seed": 1}, None),
    ("(set the controls yourself)", {"steps": 3}, None),  # no example picked
    (None, {"steps": 3}, None),
])
def test_the_label_is_sent_only_for_unchanged_inputs(picked: dict[str, Any], label: str | None,
                                                      params: dict[str, Any], sent: str | None) -> None:
    if label is not None:
        picked["toy._example"] = label
    assert controls.unchanged_example("toy", params) == sent
