"""The "Use via API" snippets, the Sweep panel and the compare view: their pure parts, and on the toy page
against live backends (open and shared mode: the snippets never hold the viewer's token)."""

from __future__ import annotations

import ast
import time
from collections.abc import Iterator
from pathlib import Path

import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from app.components.compare import DIFFERS, overlay, side_by_side, wanted_ids
from app.components.snippets import api_snippets
from app.components.sweep import claim_figures, default_values, numeric_fields, parse_values
from tests.app.pagetools import click_run
from tests.conftest import make_settings, served

TOY_PAGE = str(Path(__file__).with_name("toy_page.py"))


def test_snippets_hold_the_runs_params_and_read_the_token_from_the_environment() -> None:
    params = {"steps": 3, "behaviour": "ok", "note": "it's"}
    open_mode = api_snippets("toy", params, "http://h:1", shared=False, job_id="abc")
    ast.parse(open_mode["Python"])
    assert "client.run('toy', {'behaviour': 'ok', 'note': \"it's\", 'steps': 3})" in open_mode["Python"]
    assert "PLAYGROUND_TOKEN" not in "".join(open_mode.values())
    assert "/api/jobs/abc/reproduce.py" in open_mode["curl"] and "backend.cli run toy" in open_mode["Command line"]
    shared = api_snippets("toy", params, "http://h:1", shared=True)
    ast.parse(shared["Python"])
    assert 'token=os.environ["PLAYGROUND_TOKEN"]' in shared["Python"]
    assert '"Authorization: Bearer $PLAYGROUND_TOKEN"' in shared["curl"]


def test_sweep_fields_values_and_figures() -> None:
    schema = {"properties": {"seed": {"type": "integer"}, "horizon": {"type": "integer", "minimum": 16, "maximum": 4096},
                             "rate": {"anyOf": [{"type": "number"}, {"type": "null"}]}, "name": {"type": "string"}}}
    assert list(numeric_fields(schema)) == ["horizon", "rate"]
    assert default_values(numeric_fields(schema)["horizon"], 1024) == [512, 1024, 2048, 4096]
    assert parse_values("1, 2.5; 4", "number") == [1.0, 2.5, 4.0]
    for bad in ("1, 1", "", "a", ",".join(["1"] * 13)):
        with pytest.raises(ValueError):
            parse_values(bad, "integer")
    rows = [{"claim": "gain", "headline": True, "value": v, "mean": m, "interval": [m - 1, m + 2], "holds": "held",
             "target": 5.0, "criterion": ">= 5", "quantity": "gain (points)"} for v, m in ((1, 6.0), (2, 7.0))]
    rows.append({**rows[0], "claim": "check", "headline": False})
    figures = claim_figures({"field": "horizon", "rows": rows})
    assert list(figures) == ["gain"]
    trace = figures["gain"].data[0]
    assert list(trace.y) == [6.0, 7.0] and list(trace.error_y.array) == [2.0, 2.0]
    assert list(trace.error_y.arrayminus) == [1.0, 1.0]
    assert figures["gain"].layout.shapes[0].y0 == 5.0 and figures["gain"].layout.xaxis.title.text == "horizon"


def test_compare_marks_differences_and_overlays_only_shared_axes() -> None:
    frame = side_by_side([{"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3], "c": 0.5}], ["r1", "r2"], "parameter")
    assert list(frame["differs"]) == ["", DIFFERS, DIFFERS] and list(frame["r1"]) == ["1", "[1, 2]", "—"]

    def figure(x_title: str) -> go.Figure:
        return go.Figure(go.Scatter(x=[1, 2], y=[3, 4], name="ours"), layout={"xaxis_title": x_title, "yaxis_title": "y"})

    band = go.Figure([go.Scatter(x=[1, 2], y=[3, 4], name="ours"), go.Scatter(x=[1], y=[2], showlegend=False)],
                     layout={"xaxis_title": "T", "yaxis_title": "y"})
    merged = overlay({"r1": band, "r2": figure("T")})
    assert merged is not None and [t.name for t in merged.data] == ["r1 · ours", None, "r2 · ours"]
    assert merged.data[2].line.dash == "dot" and merged.data[1].showlegend is False
    assert overlay({"r1": figure("T"), "r2": figure("seconds")}) is None
    assert wanted_ids("a, b,,c\x00") == ["a", "b"]


def _run_toy(at: AppTest, steps: int) -> str:
    at.slider(key="toy.steps").set_value(steps)
    click_run(at)
    assert not at.exception
    return str(at.session_state["job:toy"])


def _codes(at: AppTest) -> str:
    return "\n".join(str(block.value) for block in at.code)


def test_toy_page_shows_snippets_sweeps_and_compares(live_backend: str) -> None:
    at = AppTest.from_file(TOY_PAGE, default_timeout=60)
    at.run()
    first = _run_toy(at, 3)
    assert "client.run('toy', {'behaviour': 'ok', 'memory_mb': 0, 'seed': 0, 'step_s': 0.0, 'steps': 3})" in _codes(at)
    second = _run_toy(at, 4)
    at.selectbox(key="sweep-field-toy").set_value("steps")
    at.run()
    at.text_input(key="sweep-values-toy-steps").set_value("2, 5")
    next(b for b in at.button if b.label == "Run the sweep").click()
    at.run()
    assert not at.exception and at.session_state["sweep:toy"]
    deadline = time.monotonic() + 60
    while "succeeded" not in " ".join(str(c.value) for c in at.caption) and time.monotonic() < deadline:
        time.sleep(0.5)
        at.run()
    assert any(f"Sweep `{at.session_state['sweep:toy'][:8]}` of steps over 2 values: succeeded" in str(c.value)
               for c in at.caption)
    at.query_params["compare"] = f"{first},{second}"
    at.run()
    assert not at.exception
    tables = [frame.value for frame in at.dataframe if "parameter" in frame.value.columns]
    assert tables, "the compare view draws the params side by side"
    steps = tables[0].set_index("parameter").loc["steps"]
    assert (steps[first[:8]], steps[second[:8]], steps["differs"]) == ("3", "4", DIFFERS)


@pytest.fixture(scope="module")
def shared_backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(make_settings(tmp_path_factory.mktemp("shared44"), executor="inline", access_mode="shared")) as url:
        yield url


def test_shared_snippets_never_hold_the_viewers_token(shared_backend: str) -> None:
    at = AppTest.from_file(TOY_PAGE, default_timeout=60)
    at.run()
    _run_toy(at, 2)
    token = str(at.session_state["api_token"])
    codes = _codes(at)
    assert "PLAYGROUND_TOKEN" in codes and token and token not in codes
