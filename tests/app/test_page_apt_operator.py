"""AppTest of the APT operator page against the live backend: a short run with the shipped checkpoint, an example."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "apt_operator"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_errors_checks_and_figures(live_backend: str) -> None:
    at = _page()
    assert at.selectbox(key=f"{NAME}.mesh").value == "adaptive"
    at.slider(key=f"{NAME}.test_samples").set_value(4)
    at = click_run(at)
    assert not at.exception
    errors = next(df.value for df in at.dataframe if "mesh" in df.value.columns)
    assert set(errors["mesh"]) == {"regular", "adaptive"} and "FNO (regular grid)" in errors.columns
    checks = next(df.value for df in at.dataframe if "check" in df.value.columns)
    assert len(checks) == 3 and set(checks["holds"]) <= {"✅", "❌"}
    assert len(at.get("plotly_chart")) == 5
    assert "shipped checkpoint" in page_text(at)
    assert at.success or at.warning


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Retrain all four"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.checkbox(key=f"{NAME}.retrain").value is True
    assert at.slider(key=f"{NAME}.train_samples").value == 64
