"""A tiny pre-norm transformer: causal self-attention, MLP blocks, and a character-level model.

The blocks follow the GPT-2 layout (Radford et al. 2019): x + Attn(LN(x)), then x + MLP(LN(x)).
Attention is written out (no fused kernel) so that its maths is visible and testable.
"""

from __future__ import annotations

import math

import torch
from torch import nn

__all__ = ["Block", "CausalSelfAttention", "TinyTransformer"]


class CausalSelfAttention(nn.Module):
    """Multi-head self-attention; with `causal`, position t attends to positions <= t only."""

    def __init__(self, dim: int, heads: int, causal: bool = True) -> None:
        super().__init__()
        if dim % heads:
            raise ValueError(f"dim {dim} is not a multiple of heads {heads}")
        self.heads = heads
        self.causal = causal
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, pad_mask: torch.Tensor | None = None) -> torch.Tensor:
        """x: (batch, time, dim); pad_mask: (batch, time), True where a key is padding."""
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=2)
        shape = (b, t, self.heads, d // self.heads)
        q, k, v = (z.view(shape).transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)
        if self.causal:
            future = torch.triu(torch.ones(t, t, dtype=torch.bool, device=x.device), diagonal=1)
            scores = scores.masked_fill(future, float("-inf"))
        if pad_mask is not None:
            scores = scores.masked_fill(pad_mask[:, None, None, :], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        # A query whose keys are all masked has NaN weights; it attends to nothing instead.
        weights = torch.nan_to_num(weights, nan=0.0)
        return self.out((weights @ v).transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    """One pre-norm transformer block: attention and a 4x MLP, each with a residual connection."""

    def __init__(self, dim: int, heads: int, causal: bool = True) -> None:
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, heads, causal)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x: torch.Tensor, pad_mask: torch.Tensor | None = None) -> torch.Tensor:
        x = x + self.attn(self.ln1(x), pad_mask)
        return x + self.mlp(self.ln2(x))


class TinyTransformer(nn.Module):
    """Token + position embeddings, `layers` blocks, a final LayerNorm and an unembedding.

    `body(hidden)` runs the blocks only, so a caller can strip the embedding and unembedding and
    pass dense vectors through the network (as LMNet does).
    """

    def __init__(self, vocab: int, dim: int = 32, heads: int = 2, layers: int = 2, max_len: int = 32,
                 causal: bool = True) -> None:
        super().__init__()
        self.max_len = max_len
        self.embed = nn.Embedding(vocab, dim)
        self.position = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList([Block(dim, heads, causal) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(dim)
        self.unembed = nn.Linear(dim, vocab)

    def embed_tokens(self, tokens: torch.Tensor) -> torch.Tensor:
        """(batch, time) indices -> (batch, time, dim) token plus position embeddings."""
        t = tokens.shape[1]
        if t > self.max_len:
            raise ValueError(f"sequence length {t} is above max_len {self.max_len}")
        return self.embed(tokens) + self.position(torch.arange(t, device=tokens.device))

    def body(self, hidden: torch.Tensor, pad_mask: torch.Tensor | None = None) -> torch.Tensor:
        """The blocks and the final LayerNorm on dense vectors (batch, time, dim)."""
        for block in self.blocks:
            hidden = block(hidden, pad_mask)
        return self.ln_f(hidden)

    def forward(self, tokens: torch.Tensor, pad_mask: torch.Tensor | None = None) -> torch.Tensor:
        """Logits (batch, time, vocab)."""
        return self.unembed(self.body(self.embed_tokens(tokens), pad_mask))
