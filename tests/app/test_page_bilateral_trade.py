"""AppTest of the bilateral trade page against the live backend: a short run, and a rejected input."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file


def _small_run(at: AppTest, kind: str) -> AppTest:
    at.selectbox(key="bt_kind").set_value(kind)
    at.run()
    at.select_slider(key="bt_horizon").set_value(2**12)
    at.slider(key="bt_seeds").set_value(1)
    at.slider(key="bt_grid").set_value(41)
    at.run()
    return click_run(at)


def test_page_runs_the_learners_and_shows_benchmarks(live_backend: str) -> None:
    at = AppTest.from_file(page_file("bilateral_trade"), default_timeout=180)
    at.run()
    assert not at.exception
    _small_run(at, "factor_two")
    assert not at.exception
    text = page_text(at)
    assert "Finished" in text
    assert "Density bound: **infinite**" in text
    subheaders = [h.value for h in at.subheader]
    assert "Benchmarks (expected gain from trade per round)" in subheaders
    assert any(h.startswith("Learners at T = 4,096") for h in subheaders)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["GBB / fixed price"] == "1.925"  # 2 (1 + 2 eta) / (1 + 6 eta) at eta = 0.01
    learners = next(df.value for df in at.dataframe if "learner" in df.value.columns)
    assert len(learners) == 5
    assert "WBB explore-then-commit, two-bit" in set(learners["learner"])
    assert "product form G(x) I_S(x) + F(x) I_B(x) in" in text  # the two-bit learner's estimator note
    assert set(learners["GBB kept"]) == {"✅"}
    checks = next(df.value for df in at.dataframe if "check" in df.value.columns)
    assert list(checks["holds"]) == ["✅", "✅", "✅"]
    assert len(at.get("plotly_chart")) == 6


def test_page_runs_the_default_rectangle_mixture(live_backend: str) -> None:
    at = AppTest.from_file(page_file("bilateral_trade"), default_timeout=180)
    at.run()
    _small_run(at, "rectangles")
    assert not at.exception
    text = page_text(at)
    assert "mixture of 2 rectangles" in text
    assert "Density bound: **12.5**" in text  # mass 1/2 on 0.2 x 0.2 squares


def test_example_picker_fills_the_controls(live_backend: str) -> None:
    at = AppTest.from_file(page_file("bilateral_trade"), default_timeout=180)
    at.run()
    label = next(o for o in at.selectbox(key="bt_example").options if o.startswith("Factor-two"))
    at.selectbox(key="bt_example").set_value(label)
    at.run()
    assert not at.exception
    assert at.selectbox(key="bt_kind").value == "factor_two"
    assert at.slider(key="bt_eta").value == 0.01
    assert at.multiselect(key="bt_learners").value == ["fixed_price", "wbb_one_bit", "gbb_one_bit"]
    assert not at.warning
