"""The page kit's run panel on the toy method: verdict first, results, downloads, history by id,
permalinks that restore inputs, progress and Cancel."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from streamlit.testing.v1 import AppTest

from app.components.history import picked_id
from tests.app.pagetools import click_run
from tests.conftest import make_settings, served

TOY_PAGE = str(Path(__file__).with_name("toy_page.py"))


def _page() -> AppTest:
    at = AppTest.from_file(TOY_PAGE, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def _run(at: AppTest, steps: int, behaviour: str = "ok") -> str:
    at.selectbox(key="toy.behaviour").set_value(behaviour)
    at.slider(key="toy.steps").set_value(steps)
    click_run(at)
    assert not at.exception
    return str(at.session_state["job:toy"])


def _history(at: AppTest):  # the last dataframe on the page
    return at.dataframe[-1].value


def test_run_shows_verdict_metrics_figures_downloads_and_history(live_backend: str) -> None:
    at = _page()
    assert at.title[0].value == "Toy method (tests)"
    assert "Tests. A toy. ICML 2026." in at.caption[0].value
    job_id = _run(at, 4)  # 1 + 2 + 3 + 4 = 10: "Even", a success
    assert [s.value for s in at.success] == ["**Even**: the sum is 10"]
    assert any(c.value.startswith(f"Finished: run `{job_id[:8]}`") for c in at.caption)
    assert at.query_params["job"] == job_id
    metrics = at.dataframe[0].value
    assert list(metrics["Metric"]) == ["Steps done", "Sum of 1..steps"]
    assert list(metrics["Value"]) == ["4", "10"]
    labels = [d.label for d in at.get("download_button")]
    assert labels == ["⬇ result.json", "⬇ steps.csv", "⬇ export.zip"]
    history = _history(at)
    assert history["Run"][0] == job_id[:8]
    assert history["Input"][0] == "ok, 4 steps · defaults" and history["Verdict"][0] == "🟢 Even"


def test_a_refutation_is_not_green(live_backend: str) -> None:
    at = _page()
    _run(at, 2)  # 1 + 2 = 3: "Odd", tone error
    assert not at.success
    assert [e.value for e in at.error] == ["**Odd**: the sum is 3"]


def test_a_failed_run_shows_its_message(live_backend: str) -> None:
    at = _page()
    _run(at, 3, behaviour="fail")
    assert "behaviour 'fail' asks for a failure" in at.error[0].value


def test_a_rejected_input_clears_the_previous_result_and_is_not_stored(live_backend: str) -> None:
    at = _page()
    _run(at, 4)
    count = httpx.get(f"{live_backend}/api/jobs", params={"method": "toy"}).json()["count"]
    at.selectbox(key="toy.behaviour").set_value("reject")
    click_run(at)
    assert [e.value for e in at.error] == ["Not run: behaviour 'reject' is refused before the job is stored"]
    assert not at.success, "the earlier run's verdict must not stay on the page under a refused input"
    assert "job:toy" not in at.session_state
    assert httpx.get(f"{live_backend}/api/jobs", params={"method": "toy"}).json()["count"] == count


def test_history_selection_maps_rows_to_the_ids_as_drawn() -> None:
    drawn = ["new-run", "old-run"]
    assert picked_id(drawn, [1]) == "old-run"
    assert picked_id(drawn, []) is None
    assert picked_id(drawn, [2]) is None  # a stale selection past the drawn rows selects nothing


def test_a_new_run_shows_itself_after_an_older_run_was_opened(live_backend: str) -> None:
    at = _page()
    old = _run(at, 2)  # "Odd"
    newer = _run(at, 4)  # "Even"
    fresh = AppTest.from_file(TOY_PAGE, default_timeout=60)
    fresh.query_params["job"] = old
    fresh.run()
    assert [e.value for e in fresh.error] == ["**Odd**: the sum is 3"]
    third = _run(fresh, 5)  # 15: "Odd" again, but a new run
    assert third not in (old, newer)
    assert fresh.session_state["job:toy"] == third
    assert fresh.query_params["job"] == third
    assert any(c.value.startswith(f"Finished: run `{third[:8]}`") for c in fresh.caption)
    assert [e.value for e in fresh.error] == ["**Odd**: the sum is 15"]
    rows = list(_history(fresh)["Run"])
    assert rows[:3] == [third[:8], newer[:8], old[:8]], "newest first"
    assert list(_history(fresh)[""])[0] == "▶", "the run shown is marked in the history"


def test_permalink_opens_the_run_and_restores_its_inputs(live_backend: str) -> None:
    at = _page()
    job_id = _run(at, 7)
    fresh = AppTest.from_file(TOY_PAGE, default_timeout=60)
    fresh.query_params["job"] = job_id
    fresh.run()
    assert not fresh.exception
    assert fresh.session_state["job:toy"] == job_id
    assert fresh.slider(key="toy.steps").value == 7, "the run's inputs are restored into the controls"
    assert [s.value for s in fresh.success] == ["**Even**: the sum is 28"]


def test_an_out_of_range_number_is_named_and_not_run(live_backend: str) -> None:
    at = _page()
    at.number_input(key="toy.memory_mb").set_value(-7)
    click_run(at)
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any("-7 is below the minimum of 0" in e for e in errors), "named next to the control"
    assert any(e.startswith("Fix 1 input before running") for e in errors), "and in one line above Run"
    assert "job:toy" not in at.session_state, "nothing was submitted"


def test_a_finished_run_is_fetched_once_per_session(live_backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from app import client

    at = _page()
    _run(at, 4)
    calls: list[str] = []
    for name in ("job", "artifact_bytes", "export_zip"):
        real = getattr(client, name)
        monkeypatch.setattr(client, name, lambda *a, _real=real, _name=name, **k: (calls.append(_name), _real(*a, **k))[1])
    at.run()
    at.run()
    assert not at.exception
    assert calls.count("artifact_bytes") == 0 and calls.count("export_zip") == 0, calls
    assert calls.count("job") <= 2, f"one status read per rerun, no full re-fetch: {calls}"


def test_a_wrong_permalink_says_so(live_backend: str) -> None:
    fresh = AppTest.from_file(TOY_PAGE, default_timeout=60)
    fresh.query_params["job"] = "no-such-run"
    fresh.run()
    assert not fresh.exception
    assert "There is no run `no-such-run` of this method" in fresh.warning[0].value


def test_example_picker_fills_the_controls(live_backend: str) -> None:
    at = _page()
    at.selectbox(key="toy._example").set_value("Quick")
    at.run()
    assert at.slider(key="toy.steps").value == 3


@pytest.fixture
def slow_backend(tmp_path: Path) -> Iterator[str]:
    """A live backend with the real process-per-job executor, so a job is still running on rerun."""
    with served(make_settings(tmp_path)) as url:
        yield url


def test_progress_cancel_and_run_disabled_while_running(slow_backend: str) -> None:
    at = _page()
    job_id = _run(at, 1000, behaviour="sleep")
    deadline = time.monotonic() + 30
    while httpx.get(f"{slow_backend}/api/jobs/{job_id}").json()["status"] != "running":
        assert time.monotonic() < deadline, "the job never started"
        time.sleep(0.05)
    at.run()
    assert at.get("progress"), "a running job shows a progress bar"
    run_button = next(b for b in at.button if b.label == "Run")
    assert run_button.disabled, "Run is disabled while the page's job runs"
    next(b for b in at.button if b.label == "Cancel").click()
    at.run()
    while httpx.get(f"{slow_backend}/api/jobs/{job_id}").json()["status"] == "running":
        assert time.monotonic() < deadline, "the job was not cancelled"
        time.sleep(0.05)
    at.run()
    assert any("cancelled" in w.value for w in at.warning)
    assert not next(b for b in at.button if b.label == "Run").disabled


def _claims_script() -> None:
    from app.components.jobview import JobView, VerdictView
    from app.components.results import claims_table, verdict_banner

    claim = {"id": "beats", "statement": "Ours beats | the baseline", "paper": "+20 points", "quantity": "gain (points)",
             "criterion": "> 0", "floor": "the baseline was tuned", "headline": True, "holds": "partial",
             "ours": {"mean": 1.5, "sd": 2.0, "n": 2, "text": "1.5 ± 2 (2 seeds)"},
             "seeds": [{"seed": 0, "value": 3.0, "holds": True, "floor_ok": True, "note": ""},
                       {"seed": 1, "value": 0.1234567890123, "holds": False, "floor_ok": False, "note": ""}],
             "detail": "tie: the 95% interval [-16, 19] reaches > 0",
             "test": {"kind": "t over 2 seeds", "interval": [-16.0, 19.0], "level": 0.95, "units": "", "resamples": 0},
             "null": {"name": "majority router", "value": -3.0, "passes": False}}
    check = {**claim, "id": "check", "statement": "The budget is respected", "headline": False, "holds": "held",
             "null": None, "test": {"kind": "exact"}}
    job = JobView(id="j1", method="m", status="succeeded", progress=1.0, message="", params={},
                  result={"claims": [claim, check]},
                  verdict=VerdictView(kind="partly", tone="warning", held=0, tested=1, headline=1, seeds=2))
    verdict_banner(job)
    claims_table(job)


def _beaten_script() -> None:
    from app.components.jobview import JobView, VerdictView
    from app.components.results import verdict_banner

    claim = {"id": "beats", "holds": "held"}
    verdict_banner(JobView(id="j2", method="m", status="succeeded", progress=1.0, message="", params={},
                           result={"claims": [claim]},
                           verdict=VerdictView(kind="beaten", tone="warning", held=1, tested=1, headline=1, seeds=3,
                                               beaten_by=("FNO (regular grid)",), metric="test_loss",
                                               detail="beats held: 1")))


def _unescaped(markdown: str) -> str:
    return markdown.replace("\\", "").replace("\u2060", "")


def test_the_banner_is_worded_from_the_verdicts_fields_and_names_who_beats_the_method() -> None:
    at = AppTest.from_function(_beaten_script, default_timeout=30)
    at.run()
    assert not at.exception
    (banner,) = [w.value for w in at.warning]
    assert _unescaped(banner) == ("**All 1 headline claims hold over 3 seeds, but FNO (regular grid) scores better on "
                                  "test_loss** (claims table below)")
    assert "test\\_loss" in banner, "shown literally: escaped markdown"


def test_the_claims_table_shows_paper_ours_and_holds_and_the_banner_counts_them() -> None:
    at = AppTest.from_function(_claims_script, default_timeout=30)
    at.run()
    assert not at.exception
    (banner,) = [w.value for w in at.warning]
    assert _unescaped(banner) == ("**Inconclusive: none of 1 tested headline claims holds over 2 seeds; some lean the "
                                  "paper's way, but their intervals cannot decide** (claims table below)")
    table_md, checks_md = [m.value for m in at.markdown if m.value.startswith("| Holds")]
    assert "🟡 partial" in table_md and "+20 points" in table_md and "1.5 ± 2 (2 seeds)" in table_md
    assert "95% interval \\[-16, 19\\]" in table_md and "majority router: -3 (does not pass)" in table_md
    assert "Ours beats \\| the baseline" in table_md, "a pipe in a claim is escaped: it cannot break the table"
    assert table_md.splitlines()[2].count("|") - table_md.splitlines()[2].count("\\|") == 7, "six cells"
    assert "The budget is respected" in checks_md and "The budget" not in table_md, "checks are shown apart"
    # seed 1 met "> 0" but its run was degenerate: the table says why it does not count
    assert "sanity floor not met on 1 seed: the baseline was tuned" in table_md
    seeds = at.dataframe[0].value
    assert list(seeds["Value"]) == ["3", "0.1235"] * 2, "per-seed values formatted, no 17-digit floats"


@pytest.mark.parametrize(("prop", "value", "words"), [
    ({"minimum": 0}, -7, "is below the minimum of 0"),
    ({"maximum": 5}, 6, "is above the maximum of 5"),
    ({"exclusiveMinimum": 0}, 0, "is below the minimum: it must be above 0"),
    ({"exclusiveMaximum": 1}, 1, "is above the maximum: it must be below 1"),
])
def test_every_out_of_range_number_is_named_with_its_bound(prop: dict, value: float, words: str) -> None:
    """One wording for every bound, exclusive ones included (the browser test looks for it on every page)."""
    from app.components.controls import bound_problem

    assert bound_problem(prop, value, "Rate") == f"Rate: {value:g} {words}"
    assert bound_problem(prop, 0.5, "Rate") == ""


def test_a_queued_run_says_how_many_are_ahead_and_about_how_long() -> None:
    from app.components.jobview import JobView

    def queued(position: int | None, wait: float | None) -> str:
        return JobView(id="j", method="m", status="queued", progress=0.0, message="", params={},
                       queue_position=position, queue_wait_s=wait).queued_text()

    assert queued(None, None) == "Queued, waiting for a worker…"
    assert queued(0, 12.0) == "Queued: no run ahead of this one, about 12 s…"
    assert queued(1, None) == "Queued: 1 run ahead of this one…"
    assert queued(3, 600.0) == "Queued: 3 runs ahead of this one, about 10 min…"


def test_the_verdict_sentence_counts_headline_claims_and_never_says_partly_for_none() -> None:
    from app.components.jobview import VerdictView
    from app.components.verdict import verdict_sentence

    none_held = VerdictView(kind="partly", tone="warning", held=0, tested=4, headline=4, seeds=1)
    assert verdict_sentence(none_held).startswith("Inconclusive: none of 4 tested headline claims holds over 1 seed")
    some = VerdictView(kind="partly", tone="warning", held=3, tested=3, headline=5, seeds=3)
    assert verdict_sentence(some) == ("Partly reproduced: 3 of 3 tested headline claims hold over 3 seeds "
                                      "(2 not tested by these settings)")
    one_seed = VerdictView(kind="reproduced", tone="success", held=2, tested=2, headline=2, seeds=1)
    assert "this one seed" in verdict_sentence(one_seed)
    proved = VerdictView(kind="answer", tone="warning", label="Proved", held=1, tested=2, headline=2, seeds=1)
    assert verdict_sentence(proved) == "Proved, but 1 of 2 tested headline claims hold"
