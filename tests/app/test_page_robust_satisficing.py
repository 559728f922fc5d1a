"""AppTest of the robust-satisficing page against the live backend: a short run, an example, a refusal."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "robust_satisficing"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=120)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_the_check_and_the_methods(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.epochs").set_value(20)
    at.text_input(key=f"{NAME}.tau_sweep").set_value("1.5")
    at = click_run(at)
    assert not at.exception
    subheaders = [h.value for h in at.subheader]
    assert "Methods on the test set, mean ± sd over 3 seeds" in subheaders  # the default: 3 seeds
    assert "The paper's claims, checked here" in subheaders
    methods = next(df.value for df in at.dataframe if "method" in df.value.columns)
    assert list(methods["method"]) == ["ERM", "group DRO (training groups)", "tilted ERM", "JTT", "IRS (the paper)"]
    assert set(methods["backward passes / step"]) == {"1"}
    assert len(at.get("plotly_chart")) == 4
    assert "official code" in page_text(at)


def test_a_bad_tau_sweep_is_refused(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.tau_sweep").set_value("0.5, 1.2")
    at = click_run(at)
    assert "tau_sweep" in page_text(at)


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Diabetes"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.selectbox(key=f"{NAME}.dataset").value == "diabetes"
