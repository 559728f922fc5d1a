"""Inequality prover page: type p >= q, get an exact counterexample or a checked SOS certificate + Lean proof."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from app.components import JobView, examples, method_page, show_figures, show_metrics

NAME = "inequality"
PROBLEM_KEY = "inequality_problem"
EXAMPLE_KEY = "inequality_example"
DEFAULT_PROBLEM = "x^2 + y^2 >= 2*x*y"
CUSTOM = "(type your own)"


def _load_example() -> None:
    choice = st.session_state.get(EXAMPLE_KEY)
    problems = examples(NAME)
    if choice in problems:
        st.session_state[PROBLEM_KEY] = problems[choice]["problem"]


def controls() -> dict[str, Any]:
    """Example picker, the inequality, and the search settings."""
    problems = examples(NAME)
    st.session_state.setdefault(PROBLEM_KEY, DEFAULT_PROBLEM)
    st.selectbox("Example", [CUSTOM, *problems], key=EXAMPLE_KEY, on_change=_load_example,
                 help="Loads a problem into the box below; edit it freely.")
    problem = st.text_area(
        "Inequality", key=PROBLEM_KEY, height=110,
        help="`lhs >= rhs` or `lhs <= rhs` with + - * / ^, integers, decimals, fractions like 3/4 and "
             "variable names (at most 12 variables, degree 12).",
    )
    with st.expander("Search settings"):
        left, right = st.columns(2)
        with left:
            power = st.slider("Largest multiplier power k", 0, 3, 2,
                              help="D = (1 + |x|^2)^k, or (|x|^2)^k for forms, when p itself is not SOS.")
            starts = st.number_input("Refuter restarts", 0, 200, 16)
            seed = st.number_input("Seed", 0, 2**31 - 1, 0)
            max_bits = st.slider("Finest rounding grid (bits)", 8, 96, 48)
            budget = st.slider("Search time budget (s)", 5, 240, 60,
                               help="Past it the answer is 'not proved' with the reason, instead of a timed-out job.")
        with right:
            sparsity = st.checkbox("Use correlative / term sparsity", value=True)
            facial = st.checkbox("Facial reduction for singular Gram matrices", value=True)
            solver = st.selectbox("SDP solver", ["clarabel", "scs"])
            use_llm = st.checkbox("Ask the LLM proposer first (if the server has one)", value=False)
            lean_check = st.checkbox("Check with Lean (if the server has it)", value=True)
    return {
        "problem": problem, "max_multiplier_power": int(power), "refute_starts": int(starts), "seed": int(seed),
        "max_bits": int(max_bits), "sparsity": sparsity, "facial_reduction": facial, "solver": solver,
        "use_llm": use_llm, "lean_check": lean_check, "time_budget_s": float(budget),
    }


def _pipeline(result: dict[str, Any]) -> None:
    stages = result.get("stages") or []
    if not stages:
        return
    st.subheader("Pipeline")
    good = {"ok", "passed", "PSD", "counterexample", "accepted", "exact", "refined"}
    table = pd.DataFrame({
        "Step": [s["name"] for s in stages],
        "": ["✅" if s["status"] in good else ("➖" if s["status"] in {"skipped", "not_available", "not_run",
                                                                        "none found"} else "❌") for s in stages],
        "Outcome": [s["status"] for s in stages],
        "Time (s)": [round(float(s["seconds"]), 3) for s in stages],
        "Detail": [s.get("detail", "") for s in stages],
    })
    st.dataframe(table, hide_index=True, width="stretch")


def _certificate(result: dict[str, Any]) -> None:
    certificate = result.get("certificate") or {}
    squares = certificate.get("squares") or []
    st.subheader("Certificate")
    lhs = "p" if not result.get("multiplier_latex") else f"{result['multiplier_latex']} \\cdot p"
    st.markdown(f"{len(squares)} weighted square(s); every coefficient is an exact rational and the identity "
                f"was expanded and compared term by term by the exact checker: *{result.get('checker', '')}*.")
    latex = result.get("certificate_latex") or "0"
    if len(latex) <= 3000:
        st.latex(f"{lhs} = {latex}")
    else:
        st.latex(f"{lhs} = \\sum_{{i=1}}^{{{len(squares)}}} c_i\\, s_i(x)^2")
        with st.expander("All squares (LaTeX source is long)"):
            st.code(latex, language="latex")
    if squares:
        table = pd.DataFrame({"coefficient c_i": [s["coeff"] for s in squares], "s_i": [s["poly"] for s in squares]})
        st.dataframe(table, hide_index=True, width="stretch")
    lean = result.get("lean") or {}
    status = lean.get("status", "not_run")
    label = {"accepted": "✅ Lean accepted the proof", "rejected": "❌ Lean rejected the proof",
             "not_available": "➖ Lean is not installed on this server", "not_run": "➖ Lean check switched off"}
    st.markdown(f"**Lean 4:** {label.get(status, status)} (`proof.lean` below).")
    if lean.get("messages") and status != "accepted":
        st.caption(lean["messages"][:2000])
    if result.get("lean_source"):
        with st.expander("proof.lean"):
            st.code(result["lean_source"], language="lean")


def _counterexample(result: dict[str, Any]) -> None:
    found = result.get("counterexample") or {}
    point = found.get("point") or {}
    st.subheader("Counterexample")
    st.markdown(f"At this exact rational point **p = {found.get('value')} < 0**, so the inequality is false.")
    if point:
        table = pd.DataFrame({"variable": list(point), "exact value": list(point.values())})
        st.dataframe(table, hide_index=True, width="stretch")


def render(job: JobView) -> None:
    """Verdict, p, the pipeline table, the certificate or counterexample, then the figures."""
    result = job.result
    status = result.get("status")
    if status == "proved":
        st.success("Proved: the inequality holds for all real values of the variables.")
    elif status == "refuted":
        st.error("Refuted: the inequality is false.")
    else:
        st.warning(f"Not proved: {result.get('reason', '')}")
    if result.get("polynomial_latex") and len(result["polynomial_latex"]) <= 3000:
        st.markdown("The claim is moved to one side: prove")
        st.latex(f"p = {result['polynomial_latex']} \\;\\geq\\; 0")
    _pipeline(result)
    if status == "proved":
        _certificate(result)
        show_figures(job, ["gram"])
    elif status == "refuted":
        _counterexample(result)
        show_figures(job, ["slice"])
    else:
        show_figures(job, ["gram"])
    show_figures(job, ["stages"])
    show_metrics(job)


method_page(NAME, controls=controls, render=render, form=False)
