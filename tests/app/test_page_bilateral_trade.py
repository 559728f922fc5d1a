"""AppTest of the bilateral trade page against the live backend: short runs, examples, refused inputs."""

from __future__ import annotations

import pandas as pd
from streamlit.testing.v1 import AppTest

from tests.app.pagetools import cards, click_run, page_text, read_number
from tests.conftest import page_file

NAME = "bilateral_trade"
LEARNERS = ["fixed_price", "wbb_one_bit", "wbb_two_bit", "gbb_one_bit", "gbb_one_bit_paper", "gbb_full"]


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def _small(at: AppTest, kind: str) -> AppTest:
    at.selectbox(key=f"{NAME}.distribution.kind").set_value(kind)
    at.run()
    at.select_slider(key=f"{NAME}.horizon").set_value(2**12)
    at.slider(key=f"{NAME}.seeds").set_value(2)
    at.slider(key=f"{NAME}.grid_size").set_value(41)
    return at.run()


def test_every_learner_is_a_readable_choice_and_the_defaults_are_the_papers_point(live_backend: str) -> None:
    at = _page()
    labels = {box.label for box in at.checkbox}
    assert {"GBB one-bit, as in the paper", "GBB one-bit, practical", "Best fixed price (WBB oracle)"} <= labels
    assert all(at.checkbox(key=f"{NAME}.learner.{name}").value for name in LEARNERS)
    assert at.select_slider(key=f"{NAME}.horizon").value == 2**20
    assert at.slider(key=f"{NAME}.seeds").value == 5
    assert at.selectbox(key=f"{NAME}.distribution.kind").value == "two_markets"


def test_a_short_run_shows_bracket_badge_learners_phases_and_departures(live_backend: str) -> None:
    at = click_run(_small(_page(), "factor_two"))
    assert not at.exception
    text = page_text(at)
    assert "density unbounded: the T^(3/4) guarantee does not apply" in text
    metrics = cards(at)
    assert metrics["GBB / fixed price"] == "1.925"  # 2 (1 + 2 eta) / (1 + 6 eta) at eta = 0.01
    assert metrics["GBB optimum (bracket)"] == "[0.4715, 0.4715]"  # exact on atoms
    learners = next(df.value for df in at.dataframe if "learner" in df.value.columns)
    assert len(learners) == len(LEARNERS) and "GBB one-bit, as in the paper" in set(learners["learner"])
    assert all(read_number(v) >= 0 for v in learners["lowest cumulative profit"])  # the GBB budget is kept
    departures = next(df.value for df in at.dataframe if "reason" in df.value.columns)
    assert len(departures) >= 6 and "budget target beta" in set(departures["step"])
    assert len(at.get("plotly_chart")) == 7
    assert at.success or at.warning  # the verdict banner, in its tone


def test_example_picker_fills_nested_controls_and_learners(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Factor-two"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert not at.exception
    assert at.selectbox(key=f"{NAME}.distribution.kind").value == "factor_two"
    assert at.slider(key=f"{NAME}.distribution.eta").value == 0.01
    chosen = [name for name in LEARNERS if at.checkbox(key=f"{NAME}.learner.{name}").value]
    assert chosen == ["fixed_price", "wbb_one_bit", "gbb_one_bit", "gbb_one_bit_paper"]
    assert at.select_slider(key=f"{NAME}.horizon").value == 2**16


def test_rectangle_rows_are_checked_before_submission(live_backend: str) -> None:
    """A cell outside [0, 1] and an empty cell are reported with rows counted from 1; nothing is run."""
    at = _small(_page(), "rectangles")
    bad = pd.DataFrame(
        [[0.0, 0.2, 0.3, 1.2, 1.0], [0.5, None, 0.8, 1.0, 1.0]], columns=["s_lo", "s_hi", "b_lo", "b_hi", "mass"]
    )
    at.session_state[f"{NAME}.distribution.table"] = bad
    at.run()
    text = " ".join(e.value for e in at.error)
    assert "Rectangles, row 1: b_hi = 1.2 is outside [0, 1]" in text
    assert "Rectangles, row 2: empty cell s_hi" in text
    at = click_run(at)
    assert "Not submitted" in " ".join(e.value for e in at.error)
    assert not at.get("plotly_chart")


def test_the_default_rectangle_mixture_runs(live_backend: str) -> None:
    at = click_run(_small(_page(), "rectangles"))
    assert not at.exception
    text = page_text(at)
    assert "mixture of 2 rectangles" in text and "density bounded (12.5)" in text
