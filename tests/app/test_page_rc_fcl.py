"""AppTest of the RC-FCL page against the live backend: a short run, an example, a run without drift."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "rc_fcl"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_methods_checks_and_figures(live_backend: str) -> None:
    at = _page()
    at.slider(key=f"{NAME}.clients").set_value(4)
    at.slider(key=f"{NAME}.rounds").set_value(6)
    at = click_run(at)  # inside the form: values are committed by the Run button
    assert not at.exception
    assert "Finished" in page_text(at)
    methods = next(df.value for df in at.dataframe if "method" in df.value.columns)
    assert list(methods["method"]) == ["RC-FCL", "FedAvg", "FedProx"]
    checks = next(df.value for df in at.dataframe if "check" in df.value.columns)
    assert len(checks) == 2
    clients = next(df.value for df in at.dataframe if "drift_round" in df.value.columns)
    assert len(clients) == 4  # the run used the four clients set above
    assert len(at.get("plotly_chart")) == 4


def test_example_picker_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Stragglers"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert not at.exception
    assert at.slider(key=f"{NAME}.participation").value == 0.6


def test_no_drift_gives_a_neutral_verdict(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("No drift"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    at.slider(key=f"{NAME}.clients").set_value(3)
    at.slider(key=f"{NAME}.rounds").set_value(5)
    at = click_run(at)
    assert not at.exception
    assert "No drift to detect" in page_text(at)
    checks = next(df.value for df in at.dataframe if "check" in df.value.columns)
    assert checks["measured"][0] == "no drift to detect" and checks["holds"][0] == "—"
