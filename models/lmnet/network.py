"""LMNet's dense network and its two baselines, built on the frozen pre-trained nodes.

- Dense (LMNet): text -> A's embedding and blocks (frozen) -> dense vectors -> trainable edge ->
  B's blocks (frozen, embedding stripped) -> B's unembedding -> text. Nothing is decoded between
  the nodes; the end-task loss reaches the edge *through* the frozen node B.
- Text pipeline: A decodes greedily (argmax per position) to text, B re-embeds that text, a
  trainable edge of the same shape sits between B's embedding and B's blocks (the only place a
  text pipeline can be trained from the end-task loss: no gradient crosses the argmax).
- Single: a copy of node B with every weight fine-tuned on the task.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from models.common.tiny import Block, TinyTransformer
from models.lmnet.nodes import DIM, HEADS, seeded_module

__all__ = ["DenseNetwork", "Edge", "SingleModel", "TextPipeline", "gradient_report", "trainable_parameters"]


class Edge(nn.Module):
    """A small length-preserving seq2seq module on dense vectors: a linear map, then one
    bidirectional transformer block (positions exchange information)."""

    def __init__(self, dim: int = DIM, heads: int = HEADS) -> None:
        super().__init__()
        self.linear = nn.Linear(dim, dim)
        self.block = Block(dim, heads, causal=False)
        # Identity at initialisation: the edge starts by passing its input through unchanged.
        with torch.no_grad():
            self.linear.weight.copy_(torch.eye(dim))
            self.linear.bias.zero_()
            for last in (self.block.attn.out, self.block.mlp[2]):
                assert isinstance(last, nn.Linear)
                last.weight.zero_()
                last.bias.zero_()

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        return self.block(self.linear(hidden))


class DenseNetwork(nn.Module):
    """A -> edge -> B with dense vectors between the nodes; `a_hidden` is A's (frozen) output."""

    def __init__(self, a: TinyTransformer, b: TinyTransformer, seed: int) -> None:
        super().__init__()
        self.a = a
        self.b = b
        edge = seeded_module(seed, Edge)
        self.edge = edge.to(next(b.parameters()).device)

    def node_a(self, tokens: torch.Tensor) -> torch.Tensor:
        """A with its unembedding stripped: (batch, time) tokens -> (batch, time, dim) vectors."""
        return self.a.body(self.a.embed_tokens(tokens))

    def from_a(self, a_hidden: torch.Tensor) -> torch.Tensor:
        """Logits from A's dense output: edge, B's blocks (its token embedding stripped; its position
        embedding kept, as every transformer adds one to its input), B's unembedding."""
        positions = self.b.position(torch.arange(a_hidden.shape[1], device=a_hidden.device))
        return self.b.unembed(self.b.body(self.edge(a_hidden) + positions))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.from_a(self.node_a(tokens))


class TextPipeline(nn.Module):
    """A decodes to text (argmax), B re-embeds it; a trainable edge between B's embedding and blocks."""

    def __init__(self, a: TinyTransformer, b: TinyTransformer, seed: int) -> None:
        super().__init__()
        self.a = a
        self.b = b
        self.edge = seeded_module(seed, Edge).to(next(b.parameters()).device)

    @torch.no_grad()
    def node_a_text(self, tokens: torch.Tensor) -> torch.Tensor:
        """A's greedy decoding: the intermediate text as token indices."""
        return self.a(tokens).argmax(-1)

    def from_text(self, a_tokens: torch.Tensor) -> torch.Tensor:
        return self.b.unembed(self.b.body(self.edge(self.b.embed_tokens(a_tokens))))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.from_text(self.node_a_text(tokens))


class SingleModel(nn.Module):
    """A trainable copy of one pre-trained node (all weights fine-tuned)."""

    def __init__(self, node: TinyTransformer) -> None:
        super().__init__()
        self.model = copy.deepcopy(node)
        for p in self.model.parameters():
            p.requires_grad_(True)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.model(tokens)  # type: ignore[no-any-return]


def trainable_parameters(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


def gradient_report(network: DenseNetwork, loss: torch.Tensor) -> dict[str, bool | int]:
    """Backpropagate `loss` (computed from the full dense network, tokens in) and look at every grad.

    edges_nonzero: every edge tensor got a gradient with a nonzero entry; frozen_nonzero: some node
    tensor got a nonzero gradient; frozen_requires_grad: how many node tensors would take one.
    """
    network.zero_grad(set_to_none=True)
    loss.backward()
    edge_params = list(network.edge.parameters())
    node_params = list(network.a.parameters()) + list(network.b.parameters())
    edges_nonzero = all(p.grad is not None and bool(p.grad.abs().sum() > 0) for p in edge_params)
    frozen_nonzero = any(p.grad is not None and bool(p.grad.abs().sum() > 0) for p in node_params)
    report: dict[str, bool | int] = {
        "edges_nonzero": edges_nonzero,
        "frozen_nonzero": frozen_nonzero,
        "frozen_requires_grad": sum(int(p.requires_grad) for p in node_params),
        "edge_tensors": len(edge_params),
        "frozen_tensors": len(node_params),
    }
    network.zero_grad(set_to_none=True)
    return report
