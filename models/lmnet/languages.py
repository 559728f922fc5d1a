"""Synthetic languages of fixed-length words, the two pre-training tasks and the composed task.

The alphabet has 8 base letters `a..h`, each also in a *marked* form `A..H` (like a capital or an
accent). Two fixed maps act on base letters: the context table T (a random function of a letter and
the letter before it, 9 x 8 entries with a start row) and the permutation rho.

- Node A's pre-training task (the "translator"): letter i -> T[letter i-1, letter i], unmarked. Each
  output letter depends on two input letters (a bigram lookup, 72 entries), which a model cannot
  pin down from a handful of words. A's output language L1 has no marks, so the marks are lost in
  A's *text*.
- Node B's pre-training task (the "reverser"): word -> rho applied to reverse(word), marks kept.
- The composed task (what the network is trained on from a few labels): the word translated by A
  and then reversed by B, with the input's marks kept (`composed_target`). It needs A's knowledge
  (the table), B's reversal, and the marks that A's text drops.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "ALPHABET",
    "BASE",
    "RHO",
    "TABLE",
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
# Fixed maps on the 8 base letters (part of the languages' definition, not random per run): the context
# table T[previous, current] (row 8 is the start of the word) and the permutation rho.
START = 8
TABLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(v) for v in row) for row in np.random.default_rng(2505_12741).integers(0, 8, size=(9, 8)))
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


def _translated(word: str) -> list[int]:
    """T[previous base letter, base letter] at every position (START before the first)."""
    bases = [_split(ch)[0] for ch in word]
    return [TABLE[START if i == 0 else bases[i - 1]][b] for i, b in enumerate(bases)]


def translator_target(word: str) -> str:
    """Node A's task: the context table on each letter and the one before it, marks dropped (L1 has none)."""
    return "".join(BASE[t] for t in _translated(word))


def reverser_target(word: str) -> str:
    """Node B's task: reverse the word and apply rho to each base letter, keeping its mark."""
    out = []
    for ch in reversed(word):
        index, marked = _split(ch)
        out.append(_join(RHO[index], marked))
    return "".join(out)


def composed_target(word: str) -> str:
    """The network's task: reverser(translator(word)) with each input letter's mark kept."""
    marks = [_split(ch)[1] for ch in word]
    pairs = zip(_translated(word), marks, strict=True)
    return "".join(_join(RHO[t], m) for t, m in reversed(list(pairs)))
