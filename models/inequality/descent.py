"""Recursive descent over the tokens, expanding exact polynomials over known variables: every product and
power is bounded (terms, term products, coefficient size) before it is expanded."""

from __future__ import annotations

import math
from fractions import Fraction

from models.common.contract import MethodInputError

from .polynomial import Monomial, Polynomial
from .tokenizer import Limits, Token, input_error

__all__ = ["ExpressionParser", "coefficient_bits", "first_pos"]


class ExpressionParser:
    """Recursive descent over the token list, building exact polynomials over known variables."""

    def __init__(self, tokens: list[Token], variables: tuple[str, ...], field: str, limits: Limits) -> None:
        self.tokens = tokens
        self.variables = variables
        self.field = field
        self.limits = limits
        self.index = 0
        self.depth = 0

    @property
    def current(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def error(self, message: str) -> MethodInputError:
        return input_error(self.field, message)

    def check(self, poly: Polynomial, pos: int) -> Polynomial:
        if poly.degree() > self.limits.max_degree:
            raise self.error(f"degree {poly.degree()} (near position {pos}) is above the maximum of {self.limits.max_degree}")
        if len(poly.terms) > self.limits.max_terms:
            raise self.error(f"{len(poly.terms)} terms (near position {pos}) is above the maximum of {self.limits.max_terms}")
        bits = coefficient_bits(poly)
        if bits > self.limits.max_coefficient_bits:
            raise self.error(
                f"a coefficient (near position {pos}) has about {int(bits * 0.30103)} digits, above the maximum of "
                f"{int(self.limits.max_coefficient_bits * 0.30103)}; rescale the inequality"
            )
        return poly

    def expression(self) -> Polynomial:
        # accumulate into one dict: adding n terms one polynomial at a time would copy O(n^2) entries
        first = self.term()
        total: dict[Monomial, Fraction] = dict(first.terms)
        while self.current.kind == "op" and self.current.text in "+-":
            op = self.advance()
            right = self.term()
            sign = 1 if op.text == "+" else -1
            for mono, coeff in right.terms.items():
                value = total.get(mono, Fraction(0)) + sign * coeff
                if value:
                    total[mono] = value
                else:
                    total.pop(mono, None)
            if len(total) > self.limits.max_terms:
                raise self.error(f"more than {self.limits.max_terms} terms (near position {op.pos})")
        return self.check(Polynomial(self.variables, total), first_pos(self.tokens, self.index))

    def term(self) -> Polynomial:
        result = self.factor()
        while self.current.kind == "op" and self.current.text in ("*", "/"):
            op = self.advance()
            right = self.factor()
            if op.text == "*":
                if result.degree() + right.degree() > self.limits.max_degree:
                    raise self.error(
                        f"degree {result.degree() + right.degree()} (near position {op.pos}) is above "
                        f"the maximum of {self.limits.max_degree}"
                    )
                if len(result.terms) * len(right.terms) > self.limits.max_products:
                    raise self.error(
                        f"product at position {op.pos} is too large to expand ({len(result.terms) * len(right.terms)} "
                        f"term products, above the maximum of {self.limits.max_products})"
                    )
                if coefficient_bits(result) + coefficient_bits(right) > self.limits.max_coefficient_bits + 64:
                    raise self.error(f"product at position {op.pos} has coefficients too large to expand")
                result = self.check(result * right, op.pos)
            else:
                divisor = right.constant_value()
                if divisor is None:
                    raise self.error(f"division by a non-constant expression at position {op.pos} is not supported")
                if divisor == 0:
                    raise self.error(f"division by zero at position {op.pos}")
                result = result.scale(1 / divisor)
        return result

    def factor(self) -> Polynomial:
        if self.current.kind == "op" and self.current.text in "+-":
            op = self.advance()
            self.enter(op.pos)
            inner = self.factor()
            self.depth -= 1
            return -inner if op.text == "-" else inner
        return self.power()

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > self.limits.max_nesting:
            raise self.error(f"nesting deeper than {self.limits.max_nesting} levels at position {pos}")

    def power(self) -> Polynomial:
        base = self.atom()
        if self.current.kind == "op" and self.current.text in ("^", "**"):
            op = self.advance()
            exponent = self.exponent(op.pos)
            if base.degree() * exponent > self.limits.max_degree:
                raise self.error(
                    f"degree {base.degree() * exponent} (near position {op.pos}) is above the maximum of "
                    f"{self.limits.max_degree}"
                )
            self.check_power(base, exponent, op.pos)
            result = Polynomial.constant(self.variables, 1)
            for _ in range(exponent):
                result = self.check(result * base, op.pos)
            base = result
            if self.current.kind == "op" and self.current.text in ("^", "**"):
                raise self.error(f"chained powers at position {self.current.pos} are ambiguous; use parentheses")
        if self.current.kind in ("num", "name") or (self.current.kind == "op" and self.current.text == "("):
            raise self.error(f"missing operator before {self.current.text!r} at position {self.current.pos}")
        return base

    def check_power(self, base: Polynomial, exponent: int, pos: int) -> None:
        """Bound base^exponent before expanding it, as `term()` bounds a product: the terms of base^k are
        at most the multisets of k base terms, and at most the monomials of degree <= k deg(base) in the
        variables base uses; expanding costs sum_k |base^k| |base| multiplications; the coefficients
        grow to at most k times their bits plus the log of the number of summands."""
        n_terms = len(base.terms)
        if exponent <= 1 or n_terms == 0:
            return
        used = sum(1 for i in range(len(self.variables)) if any(m[i] for m in base.terms))
        cost = 0
        for k in range(1, exponent):
            bound = min(math.comb(n_terms + k - 1, k), math.comb(used + k * base.degree(), used))
            if bound > self.limits.max_terms:
                raise self.error(
                    f"power at position {pos} may expand to {bound} terms, above the maximum of {self.limits.max_terms}"
                )
            cost += bound * n_terms
        if cost > self.limits.max_products:
            raise self.error(
                f"power at position {pos} is too large to expand ({cost} term products, above the maximum of "
                f"{self.limits.max_products})"
            )
        bits = exponent * (coefficient_bits(base) + math.ceil(math.log2(n_terms + 1)))
        if bits > self.limits.max_coefficient_bits + 64:
            raise self.error(
                f"power at position {pos} gives coefficients of about {int(bits * 0.30103)} digits, above the "
                f"maximum of {int(self.limits.max_coefficient_bits * 0.30103)}; rescale the inequality"
            )

    def exponent(self, pos: int) -> int:
        parens = 0
        while self.current.kind == "op" and self.current.text == "(":
            self.advance()
            parens += 1
        if self.current.kind == "op" and self.current.text == "-":
            raise self.error(f"exponent at position {self.current.pos} must be a non-negative integer")
        token = self.advance()
        if token.kind != "num" or not token.text.isdigit():
            raise self.error(f"exponent at position {token.pos} must be a non-negative integer")
        value = int(token.text)
        if value > self.limits.max_degree:
            raise self.error(f"exponent {value if len(token.text) < 12 else token.text[:12] + '...'} at position "
                             f"{token.pos} is above the maximum of {self.limits.max_degree}")
        for _ in range(parens):
            self.expect(")")
        return value

    def expect(self, text: str) -> None:
        token = self.advance()
        if token.kind != "op" or token.text != text:
            found = "end of input" if token.kind == "end" else repr(token.text)
            raise self.error(f"expected {text!r} at position {token.pos}, found {found}")

    def atom(self) -> Polynomial:
        token = self.advance()
        if token.kind == "num":
            return Polynomial.constant(self.variables, Fraction(token.text))
        if token.kind == "name":
            if self.current.kind == "op" and self.current.text == "(":
                raise self.error(f"function calls are not allowed ({token.text[:30]}( at position {token.pos})")
            return Polynomial.variable(self.variables, token.text)
        if token.kind == "op" and token.text == "(":
            self.enter(token.pos)
            inner = self.expression()
            self.depth -= 1
            self.expect(")")
            return inner
        found = "end of input" if token.kind == "end" else repr(token.text)
        raise self.error(f"expected a number, a variable or '(' at position {token.pos}, found {found}")


def coefficient_bits(poly: Polynomial) -> int:
    """The largest bit length of a numerator or denominator in `poly`."""
    return max((max(c.numerator.bit_length(), c.denominator.bit_length()) for c in poly.terms.values()), default=0)


def first_pos(tokens: list[Token], index: int) -> int:
    return tokens[min(index, len(tokens) - 1)].pos
