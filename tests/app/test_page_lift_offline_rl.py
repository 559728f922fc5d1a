"""AppTest of the LIFT page against the live backend: a short run, an example, a refusal."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "lift_offline_rl"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=120)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_the_comparison(live_backend: str) -> None:
    at = _page()
    at.selectbox(key=f"{NAME}.dimension").set_value(2)
    at.number_input(key=f"{NAME}.trajectories").set_value(6)
    at.number_input(key=f"{NAME}.train_steps").set_value(60)
    at.text_input(key=f"{NAME}.trajectory_sweep").set_value("3")
    at = click_run(at)
    assert not at.exception
    subheaders = [h.value for h in at.subheader]
    assert "Every learner, mean over the seeds" in subheaders and "The paper's claims, checked here" in subheaders
    comparison = next(df.value for df in at.dataframe if "learner and data" in df.value.columns)
    assert list(comparison["learner and data"]) == ["TD3+BC on the raw logs (standard offline RL)",
                                                    "TD3+BC on LIFT-SC data (augmented collection + shortcuts)"]
    assert "checkpoint" in page_text(at)
    assert len(at.get("plotly_chart")) == 4


def test_a_bad_sweep_is_refused(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.trajectory_sweep").set_value("1, 5")
    at = click_run(at)
    assert "trajectory_sweep" in page_text(at)


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("4-D, full observation"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.checkbox(key=f"{NAME}.partial_observation").value is False
