"""Sparse multivariate polynomials with exact rational coefficients over a fixed variable list."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

import numpy as np

__all__ = ["Monomial", "Polynomial", "format_fraction", "latex_fraction", "natural_key", "sum_polys"]

Monomial = tuple[int, ...]


def natural_key(name: str) -> tuple[object, ...]:
    """Sort key that orders x2 before x10 (digits compared as numbers)."""
    parts: list[object] = []
    digits = ""
    letters = ""
    for ch in name:
        if ch.isdigit():
            if letters:
                parts.append((0, letters))
                letters = ""
            digits += ch
        else:
            if digits:
                parts.append((1, int(digits)))
                digits = ""
            letters += ch
    if letters:
        parts.append((0, letters))
    if digits:
        parts.append((1, int(digits)))
    return tuple(parts)


def format_fraction(value: Fraction) -> str:
    """'a/b' or 'a' for an exact rational."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


class Polynomial:
    """A polynomial: monomial exponent tuple (one entry per variable) -> nonzero Fraction."""

    __slots__ = ("variables", "terms")

    def __init__(self, variables: Sequence[str], terms: Mapping[Monomial, Fraction] | None = None) -> None:
        self.variables: tuple[str, ...] = tuple(variables)
        n = len(self.variables)
        clean: dict[Monomial, Fraction] = {}
        for mono, coeff in (terms or {}).items():
            if len(mono) != n:
                raise ValueError("monomial length does not match the number of variables")
            if coeff != 0:
                clean[tuple(mono)] = Fraction(coeff)
        self.terms: dict[Monomial, Fraction] = clean

    # construction -----------------------------------------------------------------------------
    @classmethod
    def constant(cls, variables: Sequence[str], value: Fraction | int) -> Polynomial:
        return cls(variables, {(0,) * len(variables): Fraction(value)})

    @classmethod
    def variable(cls, variables: Sequence[str], name: str) -> Polynomial:
        mono = tuple(1 if v == name else 0 for v in variables)
        return cls(variables, {mono: Fraction(1)})

    @classmethod
    def monomial(cls, variables: Sequence[str], mono: Monomial, coeff: Fraction | int = 1) -> Polynomial:
        return cls(variables, {mono: Fraction(coeff)})

    # arithmetic -------------------------------------------------------------------------------
    def _same(self, other: Polynomial) -> None:
        if other.variables != self.variables:
            raise ValueError("polynomials over different variable lists")

    def __add__(self, other: Polynomial) -> Polynomial:
        self._same(other)
        out = dict(self.terms)
        for mono, coeff in other.terms.items():
            out[mono] = out.get(mono, Fraction(0)) + coeff
        return Polynomial(self.variables, out)

    def __neg__(self) -> Polynomial:
        return Polynomial(self.variables, {m: -c for m, c in self.terms.items()})

    def __sub__(self, other: Polynomial) -> Polynomial:
        return self + (-other)

    def __mul__(self, other: Polynomial) -> Polynomial:
        self._same(other)
        out: dict[Monomial, Fraction] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in other.terms.items():
                mono = tuple(a + b for a, b in zip(m1, m2, strict=True))
                out[mono] = out.get(mono, Fraction(0)) + c1 * c2
        return Polynomial(self.variables, out)

    def scale(self, factor: Fraction | int) -> Polynomial:
        return Polynomial(self.variables, {m: c * factor for m, c in self.terms.items()})

    def __pow__(self, exponent: int) -> Polynomial:
        result = Polynomial.constant(self.variables, 1)
        for _ in range(exponent):
            result = result * self
        return result

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Polynomial):
            return NotImplemented
        return self.variables == other.variables and self.terms == other.terms

    def __hash__(self) -> int:
        return hash((self.variables, frozenset(self.terms.items())))

    def __repr__(self) -> str:
        return f"Polynomial({self.format()!r})"

    # queries ----------------------------------------------------------------------------------
    def is_zero(self) -> bool:
        return not self.terms

    def degree(self) -> int:
        return max((sum(m) for m in self.terms), default=0)

    def min_degree(self) -> int:
        return min((sum(m) for m in self.terms), default=0)

    def is_homogeneous(self) -> bool:
        return self.degree() == self.min_degree()

    def constant_value(self) -> Fraction | None:
        """The value when the polynomial is constant, else None."""
        if self.degree() > 0:
            return None
        return self.terms.get((0,) * len(self.variables), Fraction(0))

    def homogeneous_part(self, degree: int) -> Polynomial:
        return Polynomial(self.variables, {m: c for m, c in self.terms.items() if sum(m) == degree})

    def evaluate(self, point: Sequence[Fraction]) -> Fraction:
        """Exact value at a rational point."""
        total = Fraction(0)
        for mono, coeff in self.terms.items():
            term = coeff
            for x, e in zip(point, mono, strict=True):
                if e:
                    term *= x**e
            total += term
        return total

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Exponent matrix (terms x variables) and float coefficient vector."""
        monos = sorted(self.terms)
        exps = np.array(monos, dtype=np.int64).reshape(len(monos), len(self.variables))
        coeffs = np.array([float(self.terms[m]) for m in monos], dtype=float)
        return exps, coeffs

    def with_variables(self, variables: Sequence[str]) -> Polynomial:
        """The same polynomial over a larger (or reordered) variable list."""
        index = [variables.index(v) for v in self.variables]
        out: dict[Monomial, Fraction] = {}
        for mono, coeff in self.terms.items():
            new = [0] * len(variables)
            for i, e in zip(index, mono, strict=True):
                new[i] = e
            out[tuple(new)] = coeff
        return Polynomial(variables, out)

    # printing ---------------------------------------------------------------------------------
    def sorted_terms(self) -> list[tuple[Monomial, Fraction]]:
        """Terms by decreasing degree, then graded-lex order."""
        return sorted(self.terms.items(), key=lambda mc: (-sum(mc[0]), tuple(-e for e in mc[0])))

    def _mono_text(self, mono: Monomial, names: Sequence[str], power: str, times: str) -> str:
        factors = []
        for name, e in zip(names, mono, strict=True):
            if e == 1:
                factors.append(name)
            elif e > 1:
                factors.append(f"{name}{power}{e}" if power == "^" else f"{name}^{{{e}}}")
        return times.join(factors)

    def format(self, names: Sequence[str] | None = None) -> str:
        """Text in the input syntax, e.g. '3/4*x^2 - 2*x*y + 1' (parses back to the same polynomial)."""
        names = tuple(names) if names is not None else self.variables
        if not self.terms:
            return "0"
        pieces: list[str] = []
        for k, (mono, coeff) in enumerate(self.sorted_terms()):
            sign = "-" if coeff < 0 else "+"
            mag = abs(coeff)
            mono_text = self._mono_text(mono, names, "^", "*")
            if not mono_text:
                body = format_fraction(mag)
            elif mag == 1:
                body = mono_text
            else:
                body = f"{format_fraction(mag)}*{mono_text}"
            if k == 0:
                pieces.append(("-" if sign == "-" else "") + body)
            else:
                pieces.append(f" {sign} {body}")
        return "".join(pieces)

    def latex(self, names: Sequence[str] | None = None) -> str:
        """LaTeX text, e.g. '\\frac{3}{4} x^{2} - 2 x y + 1'."""
        names = tuple(names) if names is not None else self.variables
        tex_names = [_latex_name(n) for n in names]
        if not self.terms:
            return "0"
        pieces: list[str] = []
        for k, (mono, coeff) in enumerate(self.sorted_terms()):
            mag = abs(coeff)
            mono_text = self._mono_text(mono, tex_names, "tex", " ")
            num = latex_fraction(mag)
            body = num if not mono_text else (mono_text if mag == 1 else f"{num} {mono_text}")
            if k == 0:
                pieces.append(("-" if coeff < 0 else "") + body)
            else:
                pieces.append(f" {'-' if coeff < 0 else '+'} {body}")
        return "".join(pieces)


def latex_fraction(value: Fraction) -> str:
    """'\\frac{a}{b}' or 'a'."""
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def _latex_name(name: str) -> str:
    """x12 -> x_{12}; names are allow-listed identifiers, so no escaping beyond underscores."""
    stem = name.rstrip("0123456789")
    digits = name[len(stem):]
    stem = stem.replace("_", "\\_")
    return f"{stem}_{{{digits}}}" if digits and stem else stem or name


def sum_polys(polys: Iterable[Polynomial], variables: Sequence[str]) -> Polynomial:
    """Sum of an iterable of polynomials over `variables` (accumulates in one dict)."""
    out: dict[Monomial, Fraction] = {}
    for poly in polys:
        for mono, coeff in poly.terms.items():
            out[mono] = out.get(mono, Fraction(0)) + coeff
    return Polynomial(variables, out)
