"""NSPI inequality prover: refute, propose an SOS decomposition, refine it exactly, check, export to Lean 4."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]

_EXAMPLES = Path(__file__).resolve().parents[2] / "static" / "inequality" / "examples.json"


def examples() -> dict[str, dict[str, Any]]:
    """Named example problems from static/inequality/examples.json, as params dicts."""
    problems: dict[str, str] = json.loads(_EXAMPLES.read_text(encoding="utf-8"))
    return {label: {"problem": text} for label, text in problems.items()}


ABOUT = """
NSPI splits inequality proving between a fast numerical **proposer** and exact **symbolic refinement**,
and trusts nothing it has not checked exactly.

1. **Parse** the inequality with a safe tokenizer (no `eval`): `lhs >= rhs` becomes `p = lhs - rhs >= 0`
   with exact rational coefficients.
2. **Refute first**: odd degree is refuted along a ray; otherwise random restarts of a local minimiser
   look for `p < 0`, and the point is rationalised until `p` is negative in exact arithmetic.
3. **Propose**: a Gram matrix `Q` with `p = z^T Q z` over a reduced monomial basis `z` (Newton polytope,
   diagonal pruning, correlative / term-sparsity blocks), solved by cvxpy + Clarabel while maximising
   the smallest eigenvalue (an LLM endpoint can propose squares instead).
4. **Refine exactly** (Peyrl & Parrilo): round `Q` to rationals, project it orthogonally onto
   `{Q : p = z^T Q z}`, and test PSD with a rational `LDL^T`, which reads off `p = sum d_i l_i^2`.
   A singular `Q` (p has real zeros) goes through **facial reduction**.
5. **Multipliers**: if `p` is nonnegative but not SOS (Motzkin, Robinson), certify `D p` with
   `D = (1 + |x|^2)^k` (or `(|x|^2)^k` for forms).
6. **Check** the identity `D p = sum c_i s_i^2` in exact arithmetic with an independent checker, then
   **export** a Lean 4 / Mathlib proof (`ring` + `positivity`) and run Lean when the server has it.
"""

SPEC = MethodSpec(
    name="inequality",
    nav_title="Inequality prover",
    title="Polynomial inequality prover (NSPI)",
    paper=Paper(
        title="NSPI: Neuro-Symbolic Polynomial-Inequality Proving",
        authors="NSPI authors",
        url="https://arxiv.org/abs/2605.15445",
    ),
    summary=(
        "Type a polynomial inequality and get either an exact counterexample or a sum-of-squares "
        "certificate checked in rational arithmetic and exported to Lean 4. A numerical SDP proposes the "
        "certificate, exact rounding and projection make it exact, and nothing counts as proved unless "
        "the exact checker accepts it."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Core demos",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("sum of squares", "SDP", "Lean 4", "exact arithmetic"),
)
