"""AppTest of the Extra-Merge page against the live backend: a short run, an example, a refusal."""

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


def test_a_short_run_shows_claims_losses_and_figures(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.steps").set_value(240)
    at.slider(key=f"{NAME}.checkpoint_every").set_value(5)
    at.slider(key=f"{NAME}.merge_window").set_value(4)
    at.selectbox(key=f"{NAME}.width").set_value(16)
    at.slider(key=f"{NAME}.layers").set_value(1)
    at = click_run(at)
    assert not at.exception
    per_seed = next(df.value for df in at.dataframe if "Claim" in df.value.columns and "Seed" in df.value.columns)
    assert len(per_seed) == 6  # six claims, one seed
    losses = next(df.value for df in at.dataframe if "regime (merged >= 0.8)" in df.value.columns)
    assert len(losses) == 2  # one seed, two analysis points
    assert "None" not in losses.to_string() and "nan" not in losses.to_string()
    assert len(at.get("plotly_chart")) == 4
    assert "Loss floor" in page_text(at)


def test_too_few_checkpoints_are_refused(live_backend: str) -> None:
    at = _page()
    at.number_input(key=f"{NAME}.steps").set_value(200)
    at = click_run(at)
    assert "needs at least 48" in page_text(at)


def test_the_reproduce_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Reproduce the paper"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.slider(key=f"{NAME}.seeds").value == 3
    assert at.number_input(key=f"{NAME}.steps").value == 3200
