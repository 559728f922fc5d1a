"""AppTest of the noisy-verifier RLVR page against the live backend: a short run, an example, a refusal."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text, read_number
from tests.conftest import page_file

NAME = "rlvr_noise"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=120)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_the_claims_table_the_masses_the_competition_and_six_figures(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.j_values").set_value("-0.2, 0, 0.3")
    at.number_input(key=f"{NAME}.steps").set_value(150)
    at.slider(key=f"{NAME}.seeds").set_value(1)
    at.slider(key=f"{NAME}.bandit_seeds").set_value(4)
    at = click_run(at)  # inside the form: values are committed by the Run button
    assert not at.exception
    assert "The paper's claims, checked here" in [h.value for h in at.subheader]
    claims = next(df.value for df in at.dataframe if "Claim" in df.value.columns)
    assert len(claims) == 9
    finals = next(df.value for df in at.dataframe if "bandit mean" in df.value.columns)
    assert [read_number(v) for v in finals["J"]] == [-0.2, 0.0, 0.3]
    competition = next(df.value for df in at.dataframe if "favoured share at the end" in df.value.columns)
    assert len(competition) == 1 and "None" not in competition.to_string()
    assert len(at.get("plotly_chart")) == 6
    assert "None" not in page_text(at) and "nan" not in page_text(at)


def test_impossible_j_is_refused_with_the_range(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.j_values").set_value("0.9")
    at = click_run(at)
    assert "J must lie in [-0.300, 0.700]" in page_text(at).replace("\\", "")  # the message is markdown-escaped


def test_example_fills_the_controls_and_labels_come_from_the_params(live_backend: str) -> None:
    at = _page()
    assert at.slider(key=f"{NAME}.group_size").label == "Group size G"
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Almost-random"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.slider(key=f"{NAME}.fpr").value == 0.45
    assert at.text_input(key=f"{NAME}.j_values").value == "-0.1, -0.05, 0, 0.05, 0.1"
