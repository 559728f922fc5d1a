"""AppTest of the best-case-ERM page against the live backend: a short run, an example, a refusal."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "erm_overfit"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=120)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_the_erm_and_gd_tables(live_backend: str) -> None:
    at = _page()
    at.selectbox(key=f"{NAME}.dimension").set_value(31)
    at.slider(key=f"{NAME}.samples").set_value(6)
    at.text_input(key=f"{NAME}.horizons").set_value("10, 50")
    at = click_run(at)
    assert not at.exception
    subheaders = [h.value for h in at.subheader]
    assert "The overfitting ERM (exact)" in subheaders and "Projected gradient descent" in subheaders
    gd = next(df.value for df in at.dataframe if "eta T" in df.value.columns)
    assert len(gd) == 4 * 2
    assert len(at.get("plotly_chart")) == 3
    assert "Illustration of the construction at small dimension" in page_text(at)


def test_a_bad_learning_rate_is_refused(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.etas").set_value("0, 0.1")
    at = click_run(at)
    assert "etas" in page_text(at)


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Small code"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.selectbox(key=f"{NAME}.dimension").value == 31
    assert at.slider(key=f"{NAME}.samples").value == 6
