"""AppTest of the layout page against the live backend: a clean layout, and a named contradiction."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import page_text
from tests.conftest import page_file


def _run(at: AppTest, scene: dict) -> AppTest:  # type: ignore[type-arg]
    at.text_area(key="layout_scene_json").set_value(json.dumps(scene))
    at.run()
    next(b for b in at.button if b.label == "Run").click()
    at.run()
    return at


def test_page_lays_out_a_small_bedroom(live_backend: str) -> None:
    at = AppTest.from_file(page_file("layout"), default_timeout=180)
    at.run()
    assert not at.exception
    scene = {"room": {"width": 4, "depth": 3.6, "height": 2.6},
             "objects": [{"name": "bed", "width": 1.6, "depth": 2.0, "height": 0.5},
                         {"name": "desk", "width": 1.2, "depth": 0.6, "height": 0.75},
                         {"name": "lamp", "width": 0.25, "depth": 0.25, "height": 0.4}],
             "relations": [{"type": "against_wall", "a": "bed", "wall": "north"},
                           {"type": "against_wall", "a": "desk", "wall": "east"},
                           {"type": "on_top_of", "a": "lamp", "b": "desk"}]}
    _run(at, scene)
    assert not at.exception
    assert "Layout: feasible layout" in page_text(at)
    subheaders = [h.value for h in at.subheader]
    assert "Relations" in subheaders and "Metrics" in subheaders
    relations = at.dataframe[[i for i, d in enumerate(at.dataframe) if "Holds" in d.value.columns][0]].value
    assert list(relations["Holds"]) == ["✅"] * 3


def test_page_names_a_contradiction(live_backend: str) -> None:
    at = AppTest.from_file(page_file("layout"), default_timeout=180)
    at.run()
    boxes = [{"name": n, "width": 0.8, "depth": 0.5, "height": 0.8} for n in "abc"]
    relations = [{"type": "against_wall", "a": n, "wall": "south"} for n in "abc"]
    relations += [{"type": "left_of", "a": "a", "b": "b"}, {"type": "left_of", "a": "b", "b": "c"},
                  {"type": "left_of", "a": "c", "b": "a"}]
    _run(at, {"room": {"width": 4, "depth": 3.6, "height": 2.6}, "objects": boxes, "relations": relations})
    assert not at.exception
    text = page_text(at)
    assert "Contradiction" in text and "Conflict 1" in text and "the a is against the south wall" in text
    assert "Revise would drop" in text


def test_example_picker_loads_scene_and_ablations(live_backend: str) -> None:
    at = AppTest.from_file(page_file("layout"), default_timeout=180)
    at.run()
    picker = at.selectbox(key="layout_example")
    picker.set_value(next(o for o in picker.options if o.startswith("Bedroom with ablations")))
    at.run()
    assert not at.exception
    assert "nightstand_a" in at.text_area(key="layout_scene_json").value
    assert at.multiselect(key="layout_ablations").value == ["no_decomposition", "no_imagination", "no_reparameterisation"]
