"""AppTest of the graph Shapley page against the live backend: a short run and a rejected SMILES."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.pagetools import page_text
from tests.conftest import page_file


def test_page_explains_phenol_with_the_additive_oracle(live_backend: str) -> None:
    at = AppTest.from_file(page_file("shapley_graph"), default_timeout=180)
    at.run()
    assert not at.exception
    at.selectbox(key="sg_molecule").set_value("phenol (7 atoms, solvent)")
    at.radio(key="sg_oracle").set_value("additive")
    at.slider(key="sg_budget").set_value(100)
    at.checkbox(key="sg_curve").uncheck()
    next(b for b in at.button if b.label == "Run").click()
    at.run()
    assert not at.exception
    text = page_text(at)
    assert "Finished" in text and "Validation game" in text and "7 heavy atoms" in text
    exact = next(df.value for df in at.dataframe if "Shapley (exact)" in df.value.columns)
    assert len(exact) == 7 and set(exact["within 5 % of max |phi|"]) == {"✅"}
    metrics = next(df.value for df in at.dataframe if "Metric" in df.value.columns)
    assert "Shapley relative L2 error vs exact (%)" in set(metrics["Metric"])
    assert len(at.get("plotly_chart")) >= 4


def test_page_reports_an_invalid_smiles(live_backend: str) -> None:
    at = AppTest.from_file(page_file("shapley_graph"), default_timeout=180)
    at.run()
    at.selectbox(key="sg_molecule").set_value("Custom SMILES (type it below)")
    at.text_input(key="sg_smiles").set_value("c1ccccc1X")
    next(b for b in at.button if b.label == "Run").click()
    at.run()
    assert not at.exception
    assert "cannot parse" in page_text(at)


def test_page_explains_the_default_molecule_with_the_gnn(live_backend: str) -> None:
    at = AppTest.from_file(page_file("shapley_graph"), default_timeout=180)
    at.run()
    at.slider(key="sg_budget").set_value(150)
    next(b for b in at.button if b.label == "Run").click()
    at.run()
    assert not at.exception
    text = page_text(at)
    assert "Masked game" in text and "paracetamol" in text and "held-out molecules" in text
    shapiq_rows = next(df.value for df in at.dataframe if "method" in df.value.columns)
    assert list(shapiq_rows["method"]) == ["TN-SHAP-G (this page)", "KernelSHAP", "PermutationSamplingSV", "KernelSHAPIQ"]
    pairs = next(df.value for df in at.dataframe if "pair" in df.value.columns)
    assert len(pairs) == 10 and {"✅", "❌"} >= set(pairs["bonded"])
