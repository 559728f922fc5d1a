"""AppTest of the layout page against the live backend: the full default room, a proved contradiction
(from the advanced JSON editor), a generated scene, the ablation example, and the LLM switch without an LLM."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "layout"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=240)
    at.run()
    assert not at.exception
    return at


def _use_json(at: AppTest, scene: dict) -> AppTest:  # type: ignore[type-arg]
    at.checkbox(key=f"{NAME}._use_json").check()
    at.text_area(key=f"{NAME}._scene_json").set_value(json.dumps(scene))
    return at.run()


def test_default_is_a_full_room_and_a_small_room_is_laid_out_cleanly(live_backend: str) -> None:
    at = _page()
    assert at.number_input(key=f"{NAME}.room_width").value == 6.0  # the studio (13 objects) is the default
    assert "Studio" in at.selectbox(key=f"{NAME}._example").options[1]
    scene = {"room": {"width": 4, "depth": 3.6, "height": 2.6},
             "objects": [{"name": "bed", "width": 1.6, "depth": 2.0, "height": 0.5},
                         {"name": "desk", "width": 1.2, "depth": 0.6, "height": 0.75},
                         {"name": "lamp", "width": 0.25, "depth": 0.25, "height": 0.4}],
             "relations": [{"type": "against_wall", "a": "bed", "wall": "north"},
                           {"type": "against_wall", "a": "desk", "wall": "east"},
                           {"type": "on_top_of", "a": "lamp", "b": "desk"},
                           {"type": "clearance", "a": "desk", "distance": 0.6}]}
    at = click_run(_use_json(at, scene))
    assert not at.exception
    text = page_text(at)
    assert "OK" in text and "feasible layout" in text
    relations = next(df.value for df in at.dataframe if "Sentence" in df.value.columns)
    assert list(relations["Holds"]) == ["✅"] * 4
    assert len(at.get("plotly_chart")) >= 3


def test_a_contradiction_from_the_json_editor_is_named(live_backend: str) -> None:
    at = _page()
    boxes = [{"name": n, "width": 0.8, "depth": 0.5, "height": 0.8} for n in "abc"]
    relations = [{"type": "against_wall", "a": n, "wall": "south"} for n in "abc"]
    relations += [{"type": "left_of", "a": "a", "b": "b"}, {"type": "left_of", "a": "b", "b": "c"},
                  {"type": "left_of", "a": "c", "b": "a"}]
    at = _use_json(at, {"room": {"width": 4, "depth": 3.6, "height": 2.6}, "objects": boxes, "relations": relations})
    at = click_run(at)
    assert not at.exception
    text = page_text(at)
    assert "Contradiction" in text and "Conflict 1" in text and "the a is against the south wall" in text
    assert "confirmed by the MILP solver" in text
    assert "Revise would drop" in text


def test_a_generated_scene_runs_and_says_so(live_backend: str) -> None:
    at = _page()
    at.toggle(key=f"{NAME}._random").set_value(True)
    at.run()
    at.number_input(key=f"{NAME}._random_objects").set_value(6)
    at.number_input(key=f"{NAME}._random_seed").set_value(2)
    at = click_run(at)
    assert not at.exception
    assert "Generated scene" in page_text(at)


def test_out_of_range_room_and_object_count_are_refused_by_name(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.room_width").set_value(0.2)
    at = click_run(at)
    assert not at.exception
    assert "Room width (m): 0.2 is below the minimum of 0.5" in page_text(at)
    at.number_input(key=f"{NAME}.room_width").set_value(6.0)
    at.toggle(key=f"{NAME}._random").set_value(True)
    at.run()
    at.number_input(key=f"{NAME}._random_objects").set_value(41)
    at = click_run(at)
    assert "Objects: 41 is above the maximum of 40" in page_text(at)


def test_the_ablation_example_loads_its_settings(live_backend: str) -> None:
    at = _page()
    picker = at.selectbox(key=f"{NAME}._example")
    picker.set_value(next(o for o in picker.options if o.startswith("Kitchen with ablations")))
    at.run()
    assert not at.exception
    assert at.multiselect(key=f"{NAME}.ablations").value == ["no_decomposition", "no_imagination", "no_reparameterisation"]
    assert at.slider(key=f"{NAME}.starts").value == 1
    assert at.number_input(key=f"{NAME}.room_width").value == 4.5


def test_llm_switch_is_disabled_with_a_hint_when_no_llm_is_configured(live_backend: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLM_BASE_URL", raising=False)
    at = _page()
    switch = at.checkbox(key=f"{NAME}.use_llm")
    assert switch.disabled and switch.value is False
    assert "No LLM is configured" in page_text(at)
