"""Inequality prover page: a claim and its hypotheses in, an exact counterexample or a twice-checked
certificate with its Lean proof out."""

from __future__ import annotations

import json
import re
from typing import Any

import streamlit as st

from app.components import (
    JobView,
    example_picker,
    field_columns,
    method_page,
    param_widget,
    report_input_error,
    show_figures,
    show_tables,
)
from app.components.plain import code, plain

NAME = "inequality"
CERTIFICATE_KEY = f"{NAME}._certificate_text"
SEARCH = (("max_multiplier_power", "refute_starts", "seed", "seeds", "max_bits", "max_gram"),
          ("fast_paths", "sparsity", "facial_reduction", "solver", "use_llm", "lean_check"))
_NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _load(params: dict[str, Any]) -> None:
    """Fill the certificate box (drawn by this page) from an example or an earlier run."""
    certificate = params.get("certificate")
    st.session_state[CERTIFICATE_KEY] = json.dumps(certificate, indent=1) if certificate else ""


def _variables(problem: str, hypotheses: list[str]) -> list[str]:
    """The names typed so far, only to phrase the domain sentence (the server parses for real)."""
    names = {m for text in [problem, *hypotheses] for m in _NAME_PATTERN.findall(text)}
    return sorted(names)


def _domain_sentence(problem: str, hypotheses: list[str]) -> str:
    names = _variables(problem, hypotheses)
    shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
    who = f"all real {shown}" if names else "all real values of the variables"
    if hypotheses:
        return (f"Nothing is proved yet. A proof would cover **{who} satisfying the hypotheses** "
                "(a counterexample must satisfy them too).")
    return f"Nothing is proved yet. A proof would cover **{who}** (no hypotheses: over all reals)."


def _certificate_box() -> dict[str, Any] | None:
    st.session_state.setdefault(CERTIFICATE_KEY, "")
    text = st.text_area(
        "Verify my certificate (optional, JSON)", key=CERTIFICATE_KEY, height=90,
        help='The output format: {"multiplier": null, "margin": "0", "squares": [{"coeff": "1", "poly": "x - y"}], '
             '"products": [{"hypotheses": [0], "squares": [...]}], "equalities": [{"hypothesis": 1, "poly": "..."}]}. '
             "It is checked by both checks and exported to Lean, without any search. Leave empty to search.",
    )
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        report_input_error(f"Certificate: not valid JSON (line {exc.lineno}, column {exc.colno})")
        return None
    if not isinstance(value, dict):
        report_input_error("Certificate: expected a JSON object")
        return None
    return value


def controls() -> dict[str, Any]:
    """The claim, its hypotheses, the degree bound, an optional certificate, and the search settings."""
    example_picker(NAME, on_load=_load)
    problem = param_widget(NAME, "problem", widget="text")
    hypotheses = param_widget(NAME, "hypotheses", widget="lines")
    st.markdown(_domain_sentence(str(problem or ""), list(hypotheses or [])))
    params = {"problem": problem, "hypotheses": hypotheses,
              **field_columns(NAME, (("degree_bound",), ("time_budget_s",)))}
    certificate = _certificate_box()
    with st.expander("Search settings"):
        params |= field_columns(NAME, SEARCH)
    if certificate is not None:
        params["certificate"] = certificate
    return params


def _claim(result: dict[str, Any]) -> None:
    relation = "> 0" if result.get("strict") else r"\geq 0"
    latex = result.get("polynomial_latex") or ""
    if latex and len(latex) <= 3000:
        st.latex(f"p = {latex} \\;{relation}")
    hypotheses = result.get("hypotheses") or []
    if hypotheses:
        st.markdown("for all real " + ", ".join(f"`{v}`" for v in result.get("variables", [])) + " with "
                    + "; ".join(f"`g{k + 1}`: {code(h)}" for k, h in enumerate(hypotheses)))
    else:
        st.markdown("for all real " + (", ".join(f"`{v}`" for v in result.get("variables", [])) or "values") + ".")


def _pipeline(job: JobView) -> None:
    result = job.result
    show_tables(job, ["Pipeline"])
    if result.get("llm") and result["llm"] != "not requested":
        st.caption(f"LLM proposal: {plain(result['llm'])}")  # model output may carry links: shown as text


def _certificate(job: JobView) -> None:
    result = job.result
    certificate = result.get("certificate") or {}
    st.subheader("Certificate")
    margin = certificate.get("margin", "0")
    lhs = "p" if margin == "0" else f"(p - {margin})"
    if result.get("multiplier_latex"):
        lhs = f"{result['multiplier_latex']} \\cdot {lhs}"
    latex = result.get("certificate_latex") or "0"
    shown = latex if len(latex) <= 3000 else r"\text{(long: see the table)}"
    st.latex(f"{lhs} = {shown}")
    if result.get("strict"):
        st.markdown(f"Strict claim: proved as p - {margin} >= 0 with the margin **{margin} > 0**.")
    show_tables(job, ["Certificate"], headings=False)
    lean = result.get("lean") or {}
    status = lean.get("status", "not_run")
    label = {"accepted": "Lean accepted the proof", "rejected": "Lean rejected the proof",
             "not_available": "Lean is not installed on this server", "not_run": "Lean check switched off"}
    st.markdown(f"**Lean 4:** {label.get(status, status)} (`proof.lean` below, written for Mathlib v4.15.0).")
    if lean.get("messages") and status != "accepted":
        st.code(lean["messages"][:2000], language=None)
    if result.get("lean_source"):
        with st.expander("proof.lean"):
            st.code(result["lean_source"], language="lean")


def _counterexample(job: JobView) -> None:
    result = job.result
    found = result.get("counterexample") or {}
    st.subheader("Counterexample")
    where = "satisfies every hypothesis exactly and " if result.get("hypotheses") else ""
    bound = "<= 0" if result.get("strict") else "< 0"
    st.markdown(f"This exact rational point {where}gives **p = {found.get('value')} {bound}**, so the claim is false.")
    show_tables(job, ["Counterexample"], headings=False)


def render(job: JobView) -> None:
    """The claim as proved, the pipeline, the certificate or counterexample, then figures (both checks and
    Lean are rows of the claims table above)."""
    result = job.result
    _claim(result)
    _pipeline(job)
    status = result.get("status")
    if status == "proved":
        _certificate(job)
        show_figures(job, ["gram"])
    elif status == "refuted":
        _counterexample(job)
        show_figures(job, ["slice"])
    else:
        show_figures(job, ["gram"])
    show_figures(job, ["stages"])


method_page(NAME, controls=controls, render=render, form=False)
