"""AppTest of the HEDP page against the live backend: a short run, an example, a refused band."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "hedp"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_selectors_checks_and_figures(live_backend: str) -> None:
    at = _page()
    at.slider(key=f"{NAME}.epochs").set_value(3)
    at = click_run(at)
    assert not at.exception
    assert "Finished" in page_text(at)
    selectors = next(df.value for df in at.dataframe if "selector" in df.value.columns)
    assert list(selectors["selector"]) == [
        "Hybrid energy-distance (HEDP)", "Energy only", "Distance only (nearest key, soft)",
        "Nearest centroid (S-Prompts)",
    ]
    per_seed = next(df.value for df in at.dataframe if "Claim" in df.value.columns and "Seed" in df.value.columns)
    assert len(per_seed) == 5 * at.session_state[f"{NAME}.seeds"]  # five claims, each judged on every seed
    assert len(at.get("plotly_chart")) == 4
    assert "3 epochs" in page_text(at) or at.session_state[f"{NAME}.epochs"] == 3


def test_example_picker_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Strong regulariser"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert not at.exception
    assert at.slider(key=f"{NAME}.energy_weight").value == 1.0


def test_an_inverted_band_is_refused(live_backend: str) -> None:
    at = _page()
    at.slider(key=f"{NAME}.energy_midline").set_value(-5.0)
    at.slider(key=f"{NAME}.energy_border").set_value(-10.0)
    at = click_run(at)
    assert not at.exception
    assert "energy_midline (-5) must be below energy_border (-10)" in page_text(at)
