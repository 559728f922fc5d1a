"""AppTest of the low-precision scaling page against the live backend: a short run, an example, a refusal."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "precision_scaling"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=120)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_the_table_checks_and_figures(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.model_sizes").set_value("4, 8, 16, 32")
    at.number_input(key=f"{NAME}.n_samples").set_value(1000)
    at.number_input(key=f"{NAME}.dimension").set_value(128)
    at.slider(key=f"{NAME}.seeds").set_value(1)
    at = click_run(at)
    assert not at.exception
    summary = next(df.value for df in at.dataframe if "precision" in df.value.columns)
    assert list(summary["precision"]) == ["full", "multiplicative", "additive"]
    per_seed = next(df.value for df in at.dataframe if "ratio mult. / add." in df.value.columns)
    assert list(per_seed["seed"]) == [0]
    text = page_text(at)
    assert "Multiplicative quantisation maintains the full-precision model size" in text
    assert "kappa add. (risk fit)" in per_seed.columns
    assert not re.search(r"\bnan\b|\bNone\b", text)
    assert len(at.get("plotly_chart")) == 4


def test_model_sizes_above_the_dimension_are_refused(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.model_sizes").set_value("8, 300")
    at = click_run(at)
    assert "below the dimension 256" in page_text(at)


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Reproduce the paper"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.slider(key=f"{NAME}.seeds").value == 5
