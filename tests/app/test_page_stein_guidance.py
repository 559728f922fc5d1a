"""AppTest of the Stein-guidance page against the live backend: a short run and an example."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "stein_guidance"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_the_hit_ratios_and_four_figures(live_backend: str) -> None:
    at = _page()
    # small on purpose: the live backend runs the job inline, inside the page's HTTP request
    at.number_input(key=f"{NAME}.particles").set_value(32)
    at.slider(key=f"{NAME}.steps").set_value(12)
    at.multiselect(key=f"{NAME}.methods").set_value(["dps", "sdg", "sdg_no_stein"])
    at = click_run(at)  # the controls sit in a form: their values travel with the Run click
    assert not at.exception
    assert any(h.value == "Hit ratio at each method's tuned strength" for h in at.subheader)
    outcomes = next(df.value for df in at.dataframe if "hit ratio" in df.value.columns)
    assert list(outcomes["method"])[:3] == ["DPS", "SDG (Stein + annealing)", "SDG without Stein"]
    assert "Exact target law p^(1-alpha) exp(beta r) (reference)" in set(outcomes["method"])
    fidelity = next(df.value for df in at.dataframe if "energy distance" in df.value.columns)
    assert "Exact sampler, same sample size (noise floor)" in set(fidelity["method"])
    assert len(at.get("plotly_chart")) == 4
    text = page_text(at)
    assert "the toy's docking hit ratio" in text and "None" not in text and "nan" not in text


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("SDG against DPS"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.multiselect(key=f"{NAME}.methods").value == ["dps", "sdg", "sdg_no_stein"]
    assert at.number_input(key=f"{NAME}.particles").value == 1000
