"""AppTest of the Extra-Merge page against the live backend: a short run and an example."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "extra_merge"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_losses_checks_and_figures(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.steps").set_value(300)
    at.slider(key=f"{NAME}.checkpoint_every").set_value(10)
    at.slider(key=f"{NAME}.merge_window").set_value(5)
    at = click_run(at)
    assert not at.exception
    losses = next(df.value for df in at.dataframe if "test loss (nats/token)" in df.value.columns)
    assert len(losses) == 5
    checks = next(df.value for df in at.dataframe if "check" in df.value.columns)
    assert len(checks) == 3
    assert len(at.get("plotly_chart")) == 3
    assert "at the end of training" in page_text(at)


def test_too_few_checkpoints_are_refused(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.steps").set_value(100)
    at.slider(key=f"{NAME}.checkpoint_every").set_value(10)
    at = click_run(at)
    assert "needs at least 24" in page_text(at)


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Muon"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.selectbox(key=f"{NAME}.optimizer").value == "muon"
