"""A fixed character vocabulary that turns short strings into padded index tensors."""

from __future__ import annotations

from collections.abc import Sequence

import torch

__all__ = ["CharVocab"]


class CharVocab:
    """Index 0 is padding, 1 is unknown; the given characters follow in order."""

    PAD = 0
    UNK = 1

    def __init__(self, characters: str) -> None:
        if len(set(characters)) != len(characters):
            raise ValueError("CharVocab: characters must be distinct")
        self.characters = characters
        self._index = {ch: i + 2 for i, ch in enumerate(characters)}

    def __len__(self) -> int:
        return len(self.characters) + 2

    def encode(self, texts: Sequence[str], length: int) -> torch.Tensor:
        """A (len(texts), length) long tensor; longer texts are cut, shorter ones padded with PAD."""
        rows = torch.full((len(texts), length), self.PAD, dtype=torch.long)
        for r, text in enumerate(texts):
            ids = [self._index.get(ch, self.UNK) for ch in text[:length]]
            if ids:
                rows[r, : len(ids)] = torch.tensor(ids, dtype=torch.long)
        return rows

    def decode(self, ids: Sequence[int]) -> str:
        """The characters of `ids`, skipping padding; unknown indices become '?'."""
        out = []
        for i in ids:
            if i == self.PAD:
                continue
            out.append(self.characters[i - 2] if 2 <= i < len(self) else "?")
        return "".join(out)
