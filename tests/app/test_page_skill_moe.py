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


def test_a_short_run_shows_claims_strategies_costs_and_figures(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.queries").set_value(60)
    at.slider(key=f"{NAME}.seeds").set_value(1)
    at = click_run(at)
    assert not at.exception
    strategies = next(df.value for df in at.dataframe if "expert loads" in df.value.columns)
    assert len(strategies) == 8  # 7 strategies and the naive loop
    assert "task-level top-3" in set(strategies["strategy"]) and not any("tas3" in s for s in strategies["strategy"])
    claims = next(df.value for df in at.dataframe if "Claim" in df.value.columns)
    assert len(claims) == 2
    assert len(at.get("plotly_chart")) == 4
    text = page_text(at)
    assert "Skill inference (learned tagger)" in text and "the paper: +8.15" in text
    assert "None" not in text and "nan" not in text


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Form-only tagger"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.selectbox(key=f"{NAME}.skill_inference").value == "form"
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Small validation set"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.number_input(key=f"{NAME}.validation_per_skill").value == 20
