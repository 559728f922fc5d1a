"""Home's reproduction line on each card (issue 47, item 7): the words, and the page against a live backend."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from app.components.homecards import reproduction_line
from tests.conftest import page_file


def test_the_line_counts_held_of_tested_and_says_whose_run_and_when() -> None:
    assert reproduction_line(None) == "○ Reproduce: not yet run"
    run = {"tested": 4, "held": 3, "tone": "warning", "source": "reference", "finished_at": "2026-12-01T12:09:00+00:00"}
    assert reproduction_line(run) == "🟠 Reproduce: 3 of 4 tested claims held · the site's reference run, 1 Dec 2026"
    mine = {**run, "tested": 1, "held": 1, "tone": "success", "source": "yours", "finished_at": None}
    assert reproduction_line(mine) == "🟢 Reproduce: 1 of 1 tested claim held · your run"
    assert "no claim could be tested" in reproduction_line({**run, "tested": 0, "held": 0})


def test_home_cards_say_not_yet_run(live_backend: str) -> None:
    at = AppTest.from_file(page_file("home"), default_timeout=60)
    at.run()
    assert not at.exception
    assert any(c.value == "○ Reproduce: not yet run" for c in at.caption), [c.value for c in at.caption]
