"""AppTest of the selective-upcycling page against the live backend: a short run, an example, a refusal."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "moe_upcycling"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_learners_checks_and_figures(live_backend: str) -> None:
    at = _page()
    assert at.slider(key=f"{NAME}.tasks").value == 5
    at.slider(key=f"{NAME}.tasks").set_value(2)
    at.slider(key=f"{NAME}.epochs_per_task").set_value(2)
    at.slider(key=f"{NAME}.layers").set_value(1)
    at.slider(key=f"{NAME}.width").set_value(16)
    at = click_run(at)  # inside the form: values are committed by the Run button
    assert not at.exception
    text = page_text(at)
    assert "Finished" in text
    assert re.search(r"probe drift per block -?[0-9.]+; CKA-favoured blocks", text)  # one block: one drift value
    learners = next(df.value for df in at.dataframe if "learner" in df.value.columns)
    assert list(learners["learner"]) == [
        "Naive fine-tuning", "Replay only", "LwF (distillation)", "Full upcycling (+ replay)",
        "Selective upcycling (CKA + NAS, + replay)",
    ]
    per_seed = next(df.value for df in at.dataframe if "Claim" in df.value.columns and "Seed" in df.value.columns)
    assert len(per_seed) == 4 * at.session_state[f"{NAME}.seeds"]  # four claims, each judged on every seed
    assert len(at.get("plotly_chart")) == 4


def test_example_picker_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Two experts"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert not at.exception
    assert at.slider(key=f"{NAME}.experts").value == 2


def test_too_much_work_is_refused_with_the_limit(live_backend: str) -> None:
    at = _page()
    at.slider(key=f"{NAME}.epochs_per_task").set_value(40)
    at.slider(key=f"{NAME}.experts").set_value(8)
    at = click_run(at)
    assert not at.exception
    assert "above the limit of 400" in page_text(at)
