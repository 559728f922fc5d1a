"""AppTest of the inequality page against the live backend: prove under hypotheses, refute in the domain,
strict claims, a given certificate, examples and refused input."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text
from tests.conftest import page_file

NAME = "inequality"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def _set(at: AppTest, problem: str, hypotheses: str = "") -> AppTest:
    at.text_input(key=f"{NAME}.problem").set_value(problem)
    at.text_area(key=f"{NAME}.hypotheses").set_value(hypotheses)
    at.slider(key=f"{NAME}.refute_starts").set_value(2)
    at.checkbox(key=f"{NAME}.lean_check").set_value(False)
    return at.run()


def _frames(at: AppTest, column: str) -> list:
    return [df.value for df in at.dataframe if column in df.value.columns]


def test_page_proves_under_hypotheses_and_shows_both_checks(live_backend: str) -> None:
    at = _set(_page(), "x^3 + y^3 + z^3 >= 3*x*y*z", "x >= 0\ny >= 0\nz >= 0")
    text = page_text(at)
    assert "Nothing is proved yet" in text and "all real x, y, z satisfying the hypotheses" in text
    at = click_run(at)
    assert not at.exception
    text = page_text(at)
    assert "Proved" in text
    per_seed = next(df for df in _frames(at, "Claim") if "Seed" in df.columns)
    holds = dict(zip(per_seed["Claim"], per_seed["Holds"], strict=False))  # one seed by default
    assert holds["exact"] == holds["independent"] == "✅"
    assert "A certificate is an exact SOS identity" in text  # the claims table states each claim
    parts = set(_frames(at, "part")[0]["part"])
    assert {"g1", "g2", "g3"} <= parts
    assert "Lean 4" in text


def test_page_refutes_inside_the_domain(live_backend: str) -> None:
    at = click_run(_set(_page(), "x*y >= 1/4", "x + y = 1"))
    assert not at.exception
    text = page_text(at)
    assert "Refuted" in text and "satisfies every hypothesis exactly" in text
    assert "Counterexample" in [h.value for h in at.subheader]


def test_page_strict_claim_reports_its_margin(live_backend: str) -> None:
    at = click_run(_set(_page(), "x^2 - x*y + y^2 + 1 > 0"))
    assert not at.exception
    text = page_text(at)
    assert "Proved" in text and "with the margin" in text


def test_page_checks_a_given_certificate(live_backend: str) -> None:
    at = _set(_page(), "x^2 + y^2 >= 2*x*y")
    at.text_area(key=f"{NAME}._certificate_text").set_value(json.dumps({"squares": [{"coeff": "1", "poly": "x - y"}]}))
    at = click_run(at.run())
    assert not at.exception
    assert "Proved" in page_text(at)
    steps = list(_frames(at, "step")[0]["step"])
    assert "refute" not in steps and "verify (independent ast evaluation)" in steps


def test_bad_certificate_json_is_refused_before_submission(live_backend: str) -> None:
    at = _page()
    at.text_area(key=f"{NAME}._certificate_text").set_value("{not json")
    at = click_run(at.run())
    assert "Certificate: not valid JSON" in " ".join(e.value for e in at.error)


def test_example_picker_fills_problem_and_hypotheses(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("AM-GM on the simplex"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert not at.exception
    assert at.text_input(key=f"{NAME}.problem").value == "x*y*z <= 1/27"
    assert "x + y + z = 1" in at.text_area(key=f"{NAME}.hypotheses").value
