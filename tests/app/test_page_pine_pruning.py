"""AppTest of the PINE pruning page against the live backend: a short run, an example, a refusal."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "pine_pruning"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_the_tables_and_figures(live_backend: str) -> None:
    at = _page()
    at.slider(key=f"{NAME}.trees").set_value(10)
    at.text_input(key=f"{NAME}.alphas").set_value("0.1, 0.5")
    at.slider(key=f"{NAME}.oracle_rounds").set_value(2)
    at.number_input(key=f"{NAME}.samples").set_value(200)
    at = click_run(at)
    assert not at.exception
    subheaders = [h.value for h in at.subheader]
    assert "The paper's claims, checked here" in subheaders and "Conformal regions (first seed)" in subheaders
    assert any(h.startswith("Prunings per seed (gradient boosting, 10 trees)") for h in subheaders)
    methods = next(df.value for df in at.dataframe if "trees kept" in df.value.columns)
    assert len(methods) == 2 + 2  # two alphas, whole space, accuracy pruning (one seed)
    assert all(v in ("", "—") or v.startswith(("yes", "no")) for v in methods["proved by the MILP"])
    assert len(at.get("plotly_chart")) >= 3


def test_an_alpha_out_of_range_is_refused(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.alphas").set_value("0.1, 1.5")
    at = click_run(at)
    assert "alphas" in page_text(at)


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Synthetic"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.selectbox(key=f"{NAME}.dataset").value == "synthetic"
