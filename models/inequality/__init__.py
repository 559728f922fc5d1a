"""NSPI inequality prover: refute, propose an SOS decomposition, refine it exactly, check, export to Lean 4."""

from __future__ import annotations

import json
from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown, static_path

from .figures import figures
from .params import Params
from .parser import parse_problem
from .result import Result
from .run import run

__all__ = ["SPEC", "examples", "input_summary"]


def examples() -> dict[str, dict[str, Any]]:
    """Named example problems from static/inequality/examples.json, as params dicts (a plain string is a
    problem over all reals; an object carries `problem`, `hypotheses` and any other params)."""
    problems: dict[str, Any] = json.loads(static_path("inequality", "examples.json").read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for label, entry in problems.items():
        params = {"problem": entry} if isinstance(entry, str) else dict(entry)
        params.setdefault("hypotheses", [])
        out[label] = params
    # the paper's largest setting (10 variables); about 15 s on one core, the checks re-drawn on 3 seeds
    out = {"Reproduce the paper: 10-variable quartic, 3 seeds (~1 s)":
           {**out["10-variable quartic"], "seeds": 3}, **out}
    return out


def check(params: Params) -> None:
    """Parse the claim and hypotheses at submission (bounded, no search): bad input is a 422 at once."""
    parse_problem(params.problem, params.hypotheses)


def input_summary(params: Params) -> str:
    """The claim and its hypotheses, shortened for the history table."""
    text = params.problem.strip()
    if params.hypotheses:
        text += " given " + ", ".join(h.strip() for h in params.hypotheses)
    if params.certificate is not None:
        text += " (certificate given)"
    return text if len(text) <= 90 else text[:87] + "..."


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="inequality",
    nav_title="Inequality prover",
    title="Polynomial inequality prover (NSPI)",
    paper=Paper(
        title="From LLM-Generated Conjectures to Lean Formalizations: Automated Polynomial Inequality Proving via Sum-of-Squares Certificates",
        authors="Ruobing Zuo, Hanrui Zhao, Gaolei He, Zhengfeng Yang, Jianlin Wang",
        url="https://arxiv.org/abs/2605.15445",
    ),
    summary=(
        "Type a polynomial inequality, with hypotheses such as x >= 0 or x + y + z = 1 if it has a domain, and get "
        "either an exact counterexample inside the domain or a certificate checked twice (exact rational arithmetic "
        "and an independent evaluator) and exported to Lean 4. A numerical LP/SDP proposes the certificate, exact "
        "rounding and projection make it exact, and nothing counts as proved unless both checks accept it."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Core demos",
    about=ABOUT,
    examples=examples,
    input_summary=input_summary,
    check=check,
    smoke_params={"problem": "x^3 + y^3 >= x^2*y + x*y^2", "hypotheses": ["x >= 0", "y >= 0"], "refute_starts": 2,
                  "lean_check": False},
    order=1,
    tags=("sum of squares", "Putinar", "SDP", "Lean 4", "exact arithmetic"),
)
