"""AppTest of the APT operator page against the live backend: a short run per mesh, the reproduce example."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "apt_operator"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def _run(mesh: str) -> AppTest:
    at = _page()
    at.selectbox(key=f"{NAME}.mesh").set_value(mesh)
    at.slider(key=f"{NAME}.test_samples").set_value(4)
    at.slider(key=f"{NAME}.seeds").set_value(1)  # one row per claim in the per-seed table
    at = click_run(at)
    assert not at.exception
    return at


def test_the_evaluation_mesh_changes_the_evaluation(live_backend: str) -> None:
    grid, adaptive = _run("regular"), _run("adaptive")
    for mesh, at in (("regular", grid), ("adaptive", adaptive)):
        assert any(f"judged on the {mesh} mesh" in h.value for h in at.subheader)
    for at in (grid, adaptive):
        claims = next(df.value for df in at.dataframe if "Claim" in df.value.columns)
        assert len(claims) == 8
        errors = next(df.value for df in at.dataframe if "FNO (regular grid)" in df.value.columns)
        assert "None" not in errors.to_string() and "nan" not in errors.to_string()
        assert len(at.get("plotly_chart")) == 5
        assert "shipped checkpoint" in page_text(at)
    tables = [next(df.value for df in at.dataframe if "FNO (regular grid)" in df.value.columns) for at in (grid, adaptive)]
    assert not tables[0].equals(tables[1])


def test_the_reproduce_example_fills_the_controls(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Reproduce the paper"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert at.slider(key=f"{NAME}.seeds").value == 3
    assert at.slider(key=f"{NAME}.test_samples").value == 48
