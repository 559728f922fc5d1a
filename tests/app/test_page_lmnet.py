"""AppTest of the LMNet page against the live backend: a short run, an example, a refusal."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "lmnet"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_claims_the_table_and_figures(live_backend: str) -> None:
    at = _page()
    assert at.text_input(key=f"{NAME}.labels").value == "50, 200"
    at.text_input(key=f"{NAME}.labels").set_value("20")
    at.number_input(key=f"{NAME}.steps").set_value(20)
    at = click_run(at)
    assert not at.exception
    assert "Finished" in page_text(at)
    scores = next(df.value for df in at.dataframe if "labels" in df.value.columns)
    assert list(scores["labels"]) == [20]
    assert "LoRA on node B (parameter-matched)" in scores.columns
    claims = next(df.value for df in at.dataframe if "Claim" in df.value.columns)
    assert len(claims) == 3
    assert len(at.get("plotly_chart")) == 2
    text = page_text(at)
    assert "Label counts where LMNet is ahead on the seed" in text
    assert "Standing on test exact match from 20 labels (%)" in text
    assert "None" not in text and "nan" not in text


def test_example_picker_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Reproduce the paper"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert not at.exception
    assert at.text_input(key=f"{NAME}.labels").value == "25, 100, 400"
    assert at.slider(key=f"{NAME}.seeds").value == 3


def test_too_much_work_is_refused_with_the_limit(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.labels").set_value("100, 200, 300, 400, 500")
    at.number_input(key=f"{NAME}.steps").set_value(2000)
    at.slider(key=f"{NAME}.seeds").set_value(2)
    at = click_run(at)
    assert not at.exception
    assert "above the limit 40000" in page_text(at)
