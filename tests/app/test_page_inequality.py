"""AppTest of the inequality page against the live backend: prove, refute, and load an example."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import page_text
from tests.conftest import page_file


def _run_with(at: AppTest, problem: str) -> AppTest:
    at.text_area(key="inequality_problem").set_value(problem)
    at.number_input[0].set_value(2)  # refuter restarts: keep the job small
    at.run()
    run_button = next(b for b in at.button if b.label == "Run")
    run_button.click()
    at.run()
    return at


def test_page_proves_and_shows_the_certificate(live_backend: str) -> None:
    at = AppTest.from_file(page_file("inequality"), default_timeout=180)
    at.run()
    assert not at.exception
    _run_with(at, "x^2 + y^2 >= 2*x*y")
    assert not at.exception
    text = page_text(at)
    assert "Proved" in text
    assert any("x - y" in latex.value for latex in at.latex)
    assert "Lean 4" in text


def test_page_refutes_with_an_exact_point(live_backend: str) -> None:
    at = AppTest.from_file(page_file("inequality"), default_timeout=180)
    at.run()
    _run_with(at, "x^2 + y^2 >= 3*x*y")
    assert not at.exception
    text = page_text(at)
    assert "Refuted" in text and "Counterexample" in [h.value for h in at.subheader]


def test_example_picker_fills_the_box(live_backend: str) -> None:
    at = AppTest.from_file(page_file("inequality"), default_timeout=180)
    at.run()
    label = next(o for o in at.selectbox(key="inequality_example").options if o.startswith("Motzkin"))
    at.selectbox(key="inequality_example").set_value(label)
    at.run()
    assert not at.exception
    assert "x^4*y^2" in at.text_area(key="inequality_problem").value
