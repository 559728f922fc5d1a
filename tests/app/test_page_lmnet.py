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


def test_a_short_run_shows_the_table_gradient_checks_and_figures(live_backend: str) -> None:
    at = _page()
    assert at.text_input(key=f"{NAME}.labels").value == "50, 200"
    at.text_input(key=f"{NAME}.labels").set_value("20")
    at.slider(key=f"{NAME}.epochs").set_value(2)
    at = click_run(at)
    assert not at.exception
    text = page_text(at)
    assert "Finished" in text
    scores = next(df.value for df in at.dataframe if "labels" in df.value.columns)
    assert list(scores["labels"]) == [20]  # the run used the edited label count
    assert list(scores.columns) == ["labels", "LMNet (dense edge)", "Text pipeline", "Single fine-tuned model"]
    checks = next(df.value for df in at.dataframe if "check" in df.value.columns)
    assert len(checks) == 3 and set(checks["holds"]) <= {"✅", "❌"}
    assert len(at.get("plotly_chart")) == 2
    assert at.info or at.success or at.warning  # the verdict banner (200 labels not run: info)


def test_example_picker_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Only 200"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert not at.exception
    assert at.slider(key=f"{NAME}.epochs").value == 40
    assert at.text_input(key=f"{NAME}.labels").value == "200"


def test_too_much_work_is_refused_with_the_limit(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.labels").set_value("1000, 1000")
    at.slider(key=f"{NAME}.epochs").set_value(200)
    at = click_run(at)
    assert not at.exception
    assert "above the limit 6000" in page_text(at)
