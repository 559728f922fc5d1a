"""AppTest of the graph Shapley page against the live backend: short runs, the picker, examples, a bad SMILES."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run, page_text, read_number
from tests.conftest import page_file

NAME = "shapley_graph"


def _page() -> AppTest:
    at = AppTest.from_file(page_file(NAME), default_timeout=180)
    at.run()
    assert not at.exception
    return at


def test_picking_a_molecule_fills_the_one_smiles_input_and_the_additive_game_is_exact(live_backend: str) -> None:
    at = _page()
    at.selectbox(key=f"{NAME}._molecule").set_value("phenol (7 atoms, solvent)")
    at.run()
    assert at.text_input(key=f"{NAME}.smiles").value == "Oc1ccccc1"
    at.selectbox(key=f"{NAME}.predictor").set_value("additive")
    at.slider(key=f"{NAME}.budget").set_value(100)
    at.checkbox(key=f"{NAME}.error_curve").uncheck()
    at = click_run(at)
    assert not at.exception
    text = page_text(at)
    assert "Validation game" in text and "7 heavy atoms" in text and "closely matches exact Shapley values" in text
    exact = next(df.value for df in at.dataframe if "Shapley (exact)" in df.value.columns)
    assert len(exact) == 7 and all(read_number(x) < 1e-3 for x in exact["|error| / max |phi| (%)"])
    seeds = next(df.value for df in at.dataframe if "TN-SHAP-G SII error (%)" in df.value.columns)
    assert list(seeds["seed"]) == [0]


def test_default_molecule_with_the_gnn_shows_prediction_reference_maskings_and_estimators(live_backend: str) -> None:
    at = _page()
    assert at.selectbox(key=f"{NAME}._molecule").value.startswith("paracetamol (")
    at.slider(key=f"{NAME}.budget").set_value(150)
    at.checkbox(key=f"{NAME}.error_curve").uncheck()
    at = click_run(at)
    assert not at.exception
    text = page_text(at)
    assert "Masked game" in text and "paracetamol" in text and "Predicted logP" in text
    assert "brute force over all 2,048 coalitions" in text
    methods = next(df.value for df in at.dataframe if "method" in df.value.columns)
    assert list(methods["method"]) == ["TN-SHAP-G (this page)", "Warm start only (graph-local quadratic, no sweep)",
                                       "KernelSHAP", "PermutationSamplingSV", "KernelSHAPIQ", "Exact, brute force"]
    maskings = next(df.value for df in at.dataframe if "corr(phi, Crippen)" in df.value.columns)
    assert len(maskings) == 3
    pairs = next(df.value for df in at.dataframe if "pair" in df.value.columns)
    assert len(pairs) == 10 and {"✅", "❌"} >= set(pairs["bonded"])
    assert len(at.get("plotly_chart")) >= 5


def test_an_example_sets_the_model_and_the_picker(live_backend: str) -> None:
    at = _page()
    label = next(o for o in at.selectbox(key=f"{NAME}._example").options if o.startswith("Aspirin, global-readout"))
    at.selectbox(key=f"{NAME}._example").set_value(label)
    at.run()
    assert not at.exception
    assert at.selectbox(key=f"{NAME}.predictor").value == "gnn_global"
    assert at.selectbox(key=f"{NAME}._molecule").value.startswith("aspirin (")
    assert at.slider(key=f"{NAME}.budget").value == 500


def test_page_reports_an_invalid_smiles(live_backend: str) -> None:
    at = _page()
    at.text_input(key=f"{NAME}.smiles").set_value("c1ccccc1X")
    at.run()
    assert "custom molecule" in page_text(at)
    at = click_run(at)
    assert not at.exception
    assert "cannot parse" in page_text(at)
