"""AppTest of the Skill-MoE page against the live backend: a short run and an example."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "skill_moe"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_strategies_checks_and_figures(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.queries").set_value(60)
    at = click_run(at)
    assert not at.exception
    strategies = next(df.value for df in at.dataframe if "accuracy (%)" in df.value.columns)
    assert len(strategies) == 5
    checks = next(df.value for df in at.dataframe if "check" in df.value.columns)
    assert len(checks) == 3
    assert len(at.get("plotly_chart")) == 4
    assert "Skill inference (symbolic)" in page_text(at)


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("k = 5"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.slider(key=f"{NAME}.k").value == 5
