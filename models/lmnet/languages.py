"""Synthetic languages of fixed-length words, the two pre-training tasks and the composed task.

The alphabet has 8 base letters `a..h`, each also in a *marked* form `A..H` (like a capital or an
accent). Three maps act on base letters: `translate` (pi) and `shift` (rho) are fixed permutations.

- Node A's pre-training task (the "translator"): word -> pi(base(word)), unmarked. Its output
  language L1 has no marks, so the mark of every letter is lost in A's *text*.
- Node B's pre-training task (the "reverser"): word -> rho applied to reverse(word), marks kept.
- The composed task (what the network is trained on from a few labels): word ->
  rho(pi(reverse(word))) with the marks kept. It needs A's translation and B's reversal, and the
  marks that A's text drops.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "ALPHABET",
    "BASE",
    "MARKED",
    "WORD_LENGTH",
    "composed_target",
    "random_words",
    "reverser_target",
    "translator_target",
]

BASE = "abcdefgh"
MARKED = "ABCDEFGH"
ALPHABET = BASE + MARKED
WORD_LENGTH = 6
# Fixed permutations of the 8 base letters (part of the languages' definition, not random per run).
PI = (3, 6, 0, 7, 1, 4, 2, 5)
RHO = (5, 2, 7, 1, 6, 0, 4, 3)


def _split(ch: str) -> tuple[int, bool]:
    """(base index, marked?) of a letter."""
    if ch in BASE:
        return BASE.index(ch), False
    return MARKED.index(ch), True


def _join(index: int, marked: bool) -> str:
    return MARKED[index] if marked else BASE[index]


def random_words(n: int, rng: np.random.Generator, mark_probability: float = 0.2) -> list[str]:
    """`n` words of WORD_LENGTH letters: uniform base letters, each marked with `mark_probability`."""
    bases = rng.integers(0, len(BASE), size=(n, WORD_LENGTH))
    marks = rng.random((n, WORD_LENGTH)) < mark_probability
    return ["".join(_join(int(b), bool(m)) for b, m in zip(row_b, row_m, strict=True))
            for row_b, row_m in zip(bases, marks, strict=True)]


def translator_target(word: str) -> str:
    """Node A's task: pi on each base letter, marks dropped (L1 has none)."""
    return "".join(BASE[PI[_split(ch)[0]]] for ch in word)


def reverser_target(word: str) -> str:
    """Node B's task: reverse the word and apply rho to each base letter, keeping its mark."""
    out = []
    for ch in reversed(word):
        index, marked = _split(ch)
        out.append(_join(RHO[index], marked))
    return "".join(out)


def composed_target(word: str) -> str:
    """The network's task: rho(pi(.)) on each letter of the reversed word, keeping its mark."""
    out = []
    for ch in reversed(word):
        index, marked = _split(ch)
        out.append(_join(RHO[PI[index]], marked))
    return "".join(out)
