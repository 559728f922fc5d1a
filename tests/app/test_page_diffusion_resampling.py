"""AppTest of the diffusion-resampling page against the live backend: a short run and an example."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "diffusion_resampling"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_a_short_run_shows_the_claims_tables_and_figures(live_backend: str) -> None:
    at = _page()
    # tiny on purpose: the live backend runs the job inline, inside the page's HTTP request
    at.text_input(key=f"{NAME}.particles").set_value("8, 16")
    at.slider(key=f"{NAME}.moment_repeats").set_value(2)
    at.slider(key=f"{NAME}.filter_steps").set_value(5)
    at.slider(key=f"{NAME}.filter_particles").set_value(8)
    at.slider(key=f"{NAME}.gradient_repeats").set_value(2)
    at.slider(key=f"{NAME}.estimation_iterations").set_value(1)
    at.slider(key=f"{NAME}.ode_steps").set_value(2)
    at.slider(key=f"{NAME}.sinkhorn_iterations").set_value(5)
    at.slider(key=f"{NAME}.observations").set_value(8)
    at.slider(key=f"{NAME}.data_sets").set_value(2)
    at.slider(key=f"{NAME}.tuning_data_sets").set_value(1)
    at.slider(key=f"{NAME}.grid_points").set_value(3)
    at = click_run(at)  # the controls sit in a form: their values travel with the Run click
    assert not at.exception
    subheaders = [h.value for h in at.subheader]
    assert "The paper's claims, checked here" in subheaders
    assert any(h.startswith("Secondary: dl/dtheta") for h in subheaders)
    assert any(h.startswith("The paper's LGSSM benchmark") for h in subheaders)
    moments = next(df.value for df in at.dataframe if "moment RMSE, N = 16" in df.value.columns)
    assert len(moments) == 7  # the weighted set plus six resamplers
    bench = next(df.value for df in at.dataframe if "landscape error (nats)" in df.value.columns)
    assert len(bench) == 6
    assert len(at.get("plotly_chart")) == 7
    text = page_text(at)
    assert "ODE convergence check" in text and "paired" in text
    assert "None" not in text and "nan" not in text


def test_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Differentiable only"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.multiselect(key=f"{NAME}.resamplers").value == ["soft", "gumbel", "ot", "diffusion"]
