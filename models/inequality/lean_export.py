"""Lean 4 / Mathlib export of a checked certificate, generated from parsed data only.

The theorem states the user's inequality (lhs and rhs expanded, in the user's variable names when
they are valid Lean identifiers; otherwise every variable is renamed v1..vn and a comment says so)
with the hypotheses as Lean hypotheses. The proof restates the certificate identity
`M * (p - margin) = s_0 + sum prod(g) s + sum h lambda` (`ring`), shows each part nonnegative
(`positivity`, `mul_nonneg` with the hypotheses) or zero (the equalities), and concludes with
`linarith`, which reads products of polynomials as linear forms over monomials. Every number is
printed from a Fraction, so no user text reaches the file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from .certificate import Certificate, WeightedSquare
from .orthant import nonnegative_variables
from .parser import Problem
from .polynomial import Polynomial

__all__ = ["THEOREM_NAME", "lean_names", "lean_polynomial", "lean_proof"]

THEOREM_NAME = "nspi_inequality"

_IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_KEYWORDS = frozenset(
    "at by calc do else end example exists forall from fun have if import in instance let match namespace "
    "open section show suffices then theorem lemma def this using variable where with obtain return Type "
    "Prop Sort true false True False sorry rfl id abbrev axiom class structure inductive deriving local "
    "private protected noncomputable partial unsafe macro syntax elab attribute extends export omit include "
    "universe mutual nomatch nofun only for unless try catch finally break continue mut set_option".split()
)
_RELATIONS = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "=": "="}


def lean_names(variables: Sequence[str]) -> tuple[list[str], bool]:
    """The user's names when every one is a safe Lean identifier, else v1..vn (and True: renamed)."""
    ok = all(_IDENT.match(v) and v not in _KEYWORDS and not v.startswith("nspi") for v in variables)
    return (list(variables), False) if ok else ([f"v{i + 1}" for i in range(len(variables))], True)


def _lean_number(value: Fraction) -> str:
    if value.denominator == 1:
        return f"({value.numerator} : ℝ)"
    return f"({value.numerator} / {value.denominator} : ℝ)"


def lean_polynomial(poly: Polynomial, names: Sequence[str]) -> str:
    """Sum of terms `c * x ^ a * y ^ b` with every coefficient typed as a real numeral."""
    if poly.is_zero():
        return "(0 : ℝ)"
    pieces = []
    for mono, coeff in poly.sorted_terms():
        factors = [] if coeff == 1 and any(mono) else [_lean_number(coeff)]
        for name, e in zip(names, mono, strict=True):
            if e == 1:
                factors.append(name)
            elif e > 1:
                factors.append(f"{name} ^ {e}")
        pieces.append(" * ".join(factors))
    return " + ".join(pieces)


def _lean_squares(squares: Sequence[WeightedSquare], names: Sequence[str]) -> str:
    if not squares:
        return "(0 : ℝ)"
    return " + ".join(f"{_lean_number(s.coeff)} * ({lean_polynomial(s.poly, names)}) ^ 2" for s in squares)


def _heartbeats(certificate: Certificate) -> int:
    squares = [*certificate.squares, *(s for t in certificate.products for s in t.squares)]
    terms = sum(len(s.poly.terms) ** 2 for s in squares) + sum(len(e.poly.terms) for e in certificate.equalities)
    return int(min(4_000_000, 200_000 + 400 * terms))


def _difference(lhs: Polynomial, rhs: Polynomial, relation: str, names: Sequence[str]) -> str:
    """p = lhs - rhs (rhs - lhs for <= and <) as Lean text, from the user's two sides."""
    left, right = (rhs, lhs) if relation in ("<=", "<") else (lhs, rhs)
    return f"({lean_polynomial(left, names)}) - ({lean_polynomial(right, names)})"


def lean_proof(problem: Problem, certificate: Certificate) -> str:
    """The full `proof.lean` text for the user's claim under its hypotheses, from a checked certificate."""
    claim = problem.claim
    names, renamed = lean_names(problem.variables)
    p_text = _difference(claim.lhs, claim.rhs, claim.relation, names)
    margin = certificate.margin
    target = p_text if margin == 0 else f"{p_text} - {_lean_number(margin)}"
    lines = _statement(problem, certificate, names, renamed)
    orthant = nonnegative_variables(problem) if certificate.multiplier_kind.startswith("orthant") else {}
    parts, facts = _terms(problem, certificate, names, orthant, lines)
    rhs = " + ".join(parts) or "(0 : ℝ)"
    if certificate.multiplier is None:
        lines.append(f"  have nspi_key : {target} = {rhs} := by ring")
        lines.append(f"  linarith [{', '.join(['nspi_key', *facts])}]")
    elif orthant:
        lines += _with_orthant_multiplier(certificate, names, orthant, target, rhs, facts)
    else:
        lines += _with_multiplier(certificate, names, target, rhs, facts)
    lines += ["", f"#print axioms {THEOREM_NAME}", ""]
    return "\n".join(lines)


def _statement(problem: Problem, certificate: Certificate, names: Sequence[str], renamed: bool) -> list[str]:
    """The file's header and the theorem statement, up to `:= by`."""
    claim = problem.claim
    binders = f" ({' '.join(names)} : ℝ)" if names else ""
    hyp_binders = "".join(
        f" (nspi_h{k + 1} : {lean_polynomial(h.lhs, names)} {_RELATIONS[h.relation]} {lean_polynomial(h.rhs, names)})"
        for k, h in enumerate(problem.hypotheses)
    )
    statement = f"{lean_polynomial(claim.lhs, names)} {_RELATIONS[claim.relation]} {lean_polynomial(claim.rhs, names)}"
    margin = certificate.margin
    return [
        "import Mathlib",
        "",
        "/-! Generated by the NSPI inequality prover (Method Playground).",
        (
            f"Variables are renamed v1..v{len(names)} (the user's names are not all valid Lean identifiers); "
            "they follow the order of `variables` in result.json."
            if renamed
            else "Variables keep the user's names."
        ),
        "The certificate was checked in exact rational arithmetic and by an independent evaluator before export.",
        f"Identity: M * (p - margin) = s_0 + sum prod(g) * s + sum h * lambda, margin = {margin}. -/",
        "",
        f"set_option maxHeartbeats {_heartbeats(certificate)} in",
        f"theorem {THEOREM_NAME}{binders}{hyp_binders} :",
        f"    {statement} := by",
    ]


def _terms(
    problem: Problem, certificate: Certificate, names: Sequence[str], orthant: dict[int, int], lines: list[str]
) -> tuple[list[str], list[str]]:
    """Append a `have` for every hypothesis the certificate uses and for every term of its right-hand side
    to `lines`; return the terms and the names of the facts that bound them."""
    g_text = {k: _difference(h.lhs, h.rhs, h.relation, names) for k, h in enumerate(problem.hypotheses)}
    facts: list[str] = []
    used = sorted({i for t in certificate.products for i in t.hypotheses} | {e.hypothesis for e in certificate.equalities}
                  | set(orthant.values()))
    for k in used:
        h = problem.hypotheses[k]
        if h.is_equality:
            lines.append(f"  have nspi_e{k + 1} : {g_text[k]} = 0 := by linarith [nspi_h{k + 1}]")
        else:
            lines.append(f"  have nspi_g{k + 1} : 0 ≤ {g_text[k]} := by linarith [nspi_h{k + 1}]")
    parts: list[str] = []
    if certificate.squares:
        parts.append(f"({_lean_squares(certificate.squares, names)})")
        lines.append(f"  have nspi_s0 : 0 ≤ {parts[-1]} := by positivity")
        facts.append("nspi_s0")
    for n, term in enumerate(certificate.products):
        weight = " * ".join(f"({g_text[i]})" if len(term.hypotheses) > 1 else g_text[i] for i in term.hypotheses)
        parts.append(f"({weight}) * ({_lean_squares(term.squares, names)})")
        proof = f"nspi_g{term.hypotheses[0] + 1}"
        for i in term.hypotheses[1:]:
            proof = f"(mul_nonneg {proof} nspi_g{i + 1})"
        lines.append(f"  have nspi_t{n + 1} : 0 ≤ {parts[-1]} := mul_nonneg {proof} (by positivity)")
        facts.append(f"nspi_t{n + 1}")
    for n, eq in enumerate(certificate.equalities):
        parts.append(f"({g_text[eq.hypothesis]}) * ({lean_polynomial(eq.poly, names)})")
        lines.append(f"  have nspi_z{n + 1} : {parts[-1]} = 0 := by rw [nspi_e{eq.hypothesis + 1}, zero_mul]")
        facts.append(f"nspi_z{n + 1}")
    return parts, facts


def _with_orthant_multiplier(
    certificate: Certificate, names: Sequence[str], orthant: dict[int, int], target: str, rhs: str, facts: list[str]
) -> list[str]:
    """M = (1 + S)^k or S^k with S = sum x_i (x_i >= 0) + sum y_j^2: S >= 0 on the domain, S = 0 only at 0."""
    base = " + ".join(v if i in orthant else f"{v} ^ 2" for i, v in enumerate(names))
    k = certificate.multiplier_power
    signs = ", ".join([*(f"nspi_g{orthant[i] + 1}" for i in sorted(orthant)),
                       *(f"sq_nonneg {v}" for i, v in enumerate(names) if i not in orthant)])
    affine = certificate.multiplier_kind == "orthant-affine"
    d_text = f"(1 + {base}) ^ {k}" if affine else f"({base}) ^ {k}"
    lines = [
        f"  have nspi_key : {d_text} * ({target}) = {rhs} := by ring",
        f"  have nspi_n : 0 ≤ {d_text} * ({target}) := by linarith [{', '.join(['nspi_key', *facts])}]",
    ]
    conclude = [
        "by_contra nspi_neg",
        "push_neg at nspi_neg",
        f"have nspi_lt : {target} < 0 := by linarith",
        "have nspi_prod := mul_neg_of_pos_of_neg nspi_d nspi_lt",
        "linarith",
    ]
    if affine:
        return lines + [f"  have nspi_d : 0 < {d_text} := pow_pos (by linarith [{signs}]) {k}"] + [f"  {c}" for c in conclude]
    zero_facts = []
    for i, v in enumerate(names):
        if i in orthant:
            zero_facts.append(f"    have nspi_{v}0 : {v} = 0 := by linarith [{signs}]")
        else:
            zero_facts.append(f"    have nspi_{v}0 : {v} = 0 := by\n"
                              f"      have nspi_sq : {v} ^ 2 = 0 := by nlinarith [{signs}]\n"
                              f"      simpa using nspi_sq")
    return lines + [
        f"  rcases (show (0 : ℝ) ≤ {base} by linarith [{signs}]).lt_or_eq with nspi_pos | nspi_zero",
        f"  · have nspi_d : 0 < {d_text} := pow_pos nspi_pos {k}",
        *[f"    {c}" for c in conclude],
        "  · -- S = 0 on the domain forces every variable to 0, where p vanishes",
        *zero_facts,
        "    subst " + " ".join(f"nspi_{v}0" for v in names),
        "    norm_num",
    ]


def _with_multiplier(certificate: Certificate, names: Sequence[str], target: str, rhs: str, facts: list[str]) -> list[str]:
    """M * (p - margin) = N >= 0 and M > 0 (affine), or M > 0 off the origin where a form vanishes."""
    assert certificate.multiplier is not None
    squares_of_vars = " + ".join(f"{v} ^ 2" for v in names)
    k = certificate.multiplier_power
    if certificate.multiplier_kind == "affine":
        d_text = f"(1 + {squares_of_vars}) ^ {k}"
    elif certificate.multiplier_kind == "homogeneous":
        d_text = f"({squares_of_vars}) ^ {k}"
    else:
        d_text = f"({lean_polynomial(certificate.multiplier, names)})"
    lines = [
        f"  have nspi_key : {d_text} * ({target}) = {rhs} := by ring",
        f"  have nspi_n : 0 ≤ {d_text} * ({target}) := by linarith [{', '.join(['nspi_key', *facts])}]",
    ]
    if certificate.multiplier_kind != "homogeneous":
        return lines + [
            f"  have nspi_d : 0 < {d_text} := by positivity",
            "  by_contra nspi_neg",
            "  push_neg at nspi_neg",
            f"  have nspi_lt : {target} < 0 := by linarith",
            "  have nspi_prod := mul_neg_of_pos_of_neg nspi_d nspi_lt",
            "  linarith",
        ]
    zero_facts = [
        f"    have nspi_{v}0 : {v} = 0 := by\n"
        f"      have nspi_sq : {v} ^ 2 = 0 := by nlinarith [{', '.join(f'sq_nonneg {w}' for w in names)}]\n"
        f"      simpa using nspi_sq"
        for v in names
    ]
    return lines + [
        f"  rcases (show (0 : ℝ) ≤ {squares_of_vars} by positivity).lt_or_eq with nspi_pos | nspi_zero",
        f"  · have nspi_d : 0 < {d_text} := pow_pos nspi_pos {k}",
        "    by_contra nspi_neg",
        "    push_neg at nspi_neg",
        f"    have nspi_lt : {target} < 0 := by linarith",
        "    have nspi_prod := mul_neg_of_pos_of_neg nspi_d nspi_lt",
        "    linarith",
        "  · -- |x|^2 = 0 forces x = 0, where the homogeneous p vanishes",
        *zero_facts,
        "    subst " + " ".join(f"nspi_{v}0" for v in names),
        "    norm_num",
    ]
