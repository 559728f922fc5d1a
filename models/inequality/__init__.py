"""NSPI inequality prover: refute, propose an SOS decomposition, refine it exactly, check, export to Lean 4."""

from __future__ import annotations

import json
from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import static_path

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
    out = {"Reproduce the paper: 10-variable quartic, 3 seeds (~15 s)":
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


ABOUT = """
NSPI splits inequality proving between a fast numerical **proposer** and exact **symbolic refinement**,
and trusts nothing that two independent checks have not accepted. The claim is proved **for all real
values of its variables that satisfy the hypotheses** (over all reals when there are none).

1. **Parse** the claim and hypotheses with a safe tokenizer (no `eval`), every size bounded before it is
   expanded: `lhs >= rhs` (also `≥`, `≤`, strict `>`, `<`) becomes `p = lhs - rhs >= 0` with exact rational
   coefficients; each hypothesis becomes `g >= 0` or `h = 0` the same way. Linear equalities are
   substituted away.
2. **Refute first**, inside the domain: odd degree along a ray, small grids, then random restarts of a
   local minimiser with a penalty for violated hypotheses; a counterexample is an exact rational point
   that satisfies every hypothesis and has `p < 0` (`p <= 0` against a strict claim).
3. **Fast paths**: a term-wise certificate (every term an even monomial with a positive coefficient)
   and a DSOS linear program (Ahmadi & Majumdar), before any SDP.
4. **Propose**: Gram matrices over reduced monomial bases (Newton polytope, diagonal pruning, sparsity
   blocks), solved by cvxpy + Clarabel maximising the smallest eigenvalue. Under hypotheses the
   certificate is `p - margin = s_0 + sum g_i s_i + sum g_i g_k s_ik + sum h_j lambda_j` (Putinar, then
   Schmuedgen pairs) up to a degree bound; when every hypothesis is `x_i >= 0`, also `x_i = t_i^2`: a
   global certificate of `p(t^2)` split by parity is an exact Schmuedgen certificate (Schur's inequality).
   An LLM endpoint may propose squares: their monomials
   restrict the SDP's basis. A strict claim `p > 0` is proved as `p - margin >= 0` with the largest
   rational margin the SDP allows, never from `p >= 0` alone.
5. **Refine exactly** (Peyrl & Parrilo): round, project onto the affine Gram space in rational
   arithmetic, factor with a rational `LDL^T`; singular Gram matrices go through **facial reduction**;
   non-SOS nonnegative polynomials get a multiplier `(1 + |x|^2)^k` (Motzkin, Robinson).
6. **Check twice**: the exact checker expands the identity in rational arithmetic; an independent
   evaluator built on Python's `ast` (whitelisted nodes only) evaluates the user's original text and the
   certificate at random rational points (Schwartz-Zippel). "Proved" needs both.
7. **Export** a Lean 4 / Mathlib proof of the user's statement (hypotheses as Lean hypotheses,
   `ring`, `positivity`, `mul_nonneg`, `linarith`) and run Lean when the server has it.

Scaled down here: at most 12 variables, degree 12, Gram blocks of 100, a time budget per job; the
paper's LLM is optional (off unless the server has an endpoint).

Ruobing Zuo, Hanrui Zhao, Gaolei He, Zhengfeng Yang, Jianlin Wang. *From LLM-Generated Conjectures to Lean
Formalizations: Automated Polynomial Inequality Proving via Sum-of-Squares Certificates.* ICML 2026,
arXiv 2605.15445.
"""

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
