"""AppTest of the all-ERMs-can-fail page against the live backend: a short run, an example, a refusal."""

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


def test_a_short_run_shows_the_claims_the_seed_table_and_figures(live_backend: str) -> None:
    at = _page()
    at.slider(key=f"{NAME}.samples").set_value(4)
    at.slider(key=f"{NAME}.seeds").set_value(2)
    at.slider(key=f"{NAME}.instances").set_value(10)
    at = click_run(at)
    assert not at.exception
    per_seed = next(df.value for df in at.dataframe if "Claim" in df.value.columns and "Seed" in df.value.columns)
    assert len(per_seed) == 6 * 2  # six claims, each judged on both seeds
    seeds = next(df.value for df in at.dataframe if "Clopper-Pearson 95% lower bound" in df.value.columns)
    assert len(seeds) == 2
    assert len(at.get("plotly_chart")) == 2
    text = page_text(at)
    assert "No GD check" in text and "None" not in seeds.to_string() and "nan" not in seeds.to_string()


def test_a_negative_seed_is_refused(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.seed").set_value(-1)
    at = click_run(at)
    assert "below the minimum of 0" in page_text(at)


def test_the_reproduce_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Reproduce the paper"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.slider(key=f"{NAME}.instances").value == 150
    assert at.slider(key=f"{NAME}.seeds").value == 5
