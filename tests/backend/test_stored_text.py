"""No stored markdown (issue 31, D5) and no stored NUL (D8): a stranger's text (a molecule name in a
summary, a figure title, an error message) reaches another person's browser as text only."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any

import plotly.graph_objects as go
import pytest
from markdown_it import MarkdownIt

from app.components.plain import plain
from backend.jobs import outcome as outcome_module
from backend.jobs.outcome import Outcome, execute, unlinked
from models.common.verdict import Verdict

ATTACK = ('![p](http://127.0.0.9:18199/pixel.png) [verify](http://127.0.0.9:18199/login) '
          '<img src="http://127.0.0.9:18199/x" onerror="alert(1)"> <a href="http://127.0.0.9/">here</a> '
          'http://127.0.0.9/bare www.example.org $x^2$ :red[alarm]')


def test_plain_text_renders_as_text_with_no_image_link_or_html() -> None:
    """CommonMark (what Streamlit's markdown follows) renders plain(ATTACK) with no <img>, no <a> and
    no raw HTML; bare addresses are split by a word joiner so GFM's autolinks do not catch them."""
    html = MarkdownIt("commonmark").render(plain(ATTACK))
    assert not re.search(r"<(img|a|script)\b", html, re.IGNORECASE), html  # escaped text (&lt;img) only
    assert "http://" not in plain(ATTACK) and "www." not in plain(ATTACK), "an autolink target survived"
    shown = MarkdownIt("commonmark").render(plain("Benzene (C6H6) - 2*3 #1")).strip()
    assert shown == "<p>Benzene (C6H6) - 2*3 #1</p>", "ordinary text reads the same"


def test_figure_titles_keep_their_text_but_lose_stranger_links() -> None:
    figure = go.Figure(layout_title_text='Shapley values of <a href="http://127.0.0.9/">verify</a> <b>x</b>')
    figure.add_bar(x=['<A HREF="http://e.example">m</A>'], y=[1], name="<a href='http://e.example'>n</a>")
    cleaned = unlinked(json.loads(figure.to_json()))
    text = json.dumps(cleaned)
    assert "href" not in text.lower() and "<a" not in text.lower(), text
    assert "Shapley values of verify <b>x</b>" in text, "the title's own text and markup stay"


def test_execute_stores_figures_without_links_and_text_without_nul(monkeypatch: pytest.MonkeyPatch) -> None:
    figure = go.Figure(layout_title_text='<a href="http://127.0.0.9/">name</a>')
    result = SimpleNamespace(model_dump=lambda mode: {"name": "x"}, metrics=lambda: {})
    run = SimpleNamespace(figures={"f": figure}, artifacts={}, result=result,
                          verdict=Verdict("answer", "success", label="Reproduced\x00", detail="d\x00\x07"))
    monkeypatch.setattr(outcome_module, "run_method", lambda *_args: run)
    spec: Any = SimpleNamespace(name="fake")
    done = execute(spec, {}, progress=None)  # type: ignore[arg-type]
    assert "href" not in json.dumps(done.figures), done.figures
    assert "\x00" not in json.dumps(done.verdict) and "\\u0000" not in json.dumps(done.verdict), done.verdict
    assert "\x00" not in Outcome.failed("bad name 'a\x00b'").error, "PostgreSQL text refuses NUL"
