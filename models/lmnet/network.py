"""LMNet's dense network and its two baselines, built on the frozen pre-trained nodes.

- Dense (LMNet): text -> A's embedding and blocks (frozen) -> dense vectors -> trainable edge ->
  B's blocks (frozen, embedding stripped) -> B's unembedding -> text. Nothing is decoded between
  the nodes; the end-task loss reaches the edge *through* the frozen node B.
- Text pipeline: A decodes greedily (argmax per position) to text, B re-embeds that text, a
  trainable edge of the same shape sits between B's embedding and B's blocks (the only place a
  text pipeline can be trained from the end-task loss: no gradient crosses the argmax).
- Single: a copy of one node with every weight fine-tuned on the task.
- LoRA: a copy of node B, frozen, with low-rank adapters (Hu et al. 2022) on every linear map of its
  blocks, the rank chosen so the adapters have about as many parameters as LMNet's edge.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from models.common.device import seeded_init
from models.common.tiny import Block, TinyTransformer
from models.lmnet.nodes import DIM, HEADS

__all__ = ["DenseNetwork", "Edge", "LoRALinear", "LoRAModel", "SingleModel", "TextPipeline", "gradient_report",
           "lora_rank_matching", "trainable_parameters"]


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
        edge = seeded_init(seed, Edge)
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


class FullNetwork(DenseNetwork):
    """The same A -> edge -> B network with every weight trainable (copies of both nodes): the fair
    fine-tuning baseline, holding both pre-trained skills like a monolithic model of the network's size."""

    def __init__(self, a: TinyTransformer, b: TinyTransformer, seed: int) -> None:
        super().__init__(copy.deepcopy(a), copy.deepcopy(b), seed)
        for p in self.parameters():
            p.requires_grad_(True)


class TextPipeline(nn.Module):
    """A decodes to text (argmax), B re-embeds it; a trainable edge between B's embedding and blocks."""

    def __init__(self, a: TinyTransformer, b: TinyTransformer, seed: int) -> None:
        super().__init__()
        self.a = a
        self.b = b
        self.edge = seeded_init(seed, Edge).to(next(b.parameters()).device)

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


class LoRALinear(nn.Module):
    """A frozen linear map plus a trainable low-rank update: W x + (B A) x, with B = 0 at the start."""

    def __init__(self, base: nn.Linear, rank: int) -> None:
        super().__init__()
        self.base = base
        for p in base.parameters():
            p.requires_grad_(False)
        self.down = nn.Parameter(torch.randn(rank, base.in_features) / base.in_features ** 0.5)
        self.up = nn.Parameter(torch.zeros(base.out_features, rank))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + (x @ self.down.T) @ self.up.T


def _block_linears(node: TinyTransformer) -> list[tuple[nn.Module, str, nn.Linear]]:
    """(parent, attribute, linear) for every linear map inside the node's blocks."""
    found: list[tuple[nn.Module, str, nn.Linear]] = []
    for block in node.blocks:
        assert isinstance(block, Block)
        found += [(block.attn, "qkv", block.attn.qkv), (block.attn, "out", block.attn.out)]
        for index in ("0", "2"):
            linear = block.mlp[int(index)]
            assert isinstance(linear, nn.Linear)
            found.append((block.mlp, index, linear))
    return found


def lora_rank_matching(node: TinyTransformer, parameters: int) -> int:
    """The LoRA rank whose adapters on the node's blocks have about `parameters` parameters."""
    per_rank = sum(lin.in_features + lin.out_features for _, _, lin in _block_linears(node))
    return max(1, round(parameters / per_rank))


class LoRAModel(nn.Module):
    """A frozen copy of a node with LoRA adapters of `rank` on every linear map of its blocks."""

    def __init__(self, node: TinyTransformer, rank: int, seed: int) -> None:
        super().__init__()
        self.model = copy.deepcopy(node)
        for p in self.model.parameters():
            p.requires_grad_(False)
        adapters = seeded_init(seed, lambda: [(parent, name, LoRALinear(linear, rank).to(linear.weight.device))
                                              for parent, name, linear in _block_linears(self.model)])
        for parent, name, adapter in adapters:
            if isinstance(parent, nn.Sequential):
                parent[int(name)] = adapter
            else:
                setattr(parent, name, adapter)

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
