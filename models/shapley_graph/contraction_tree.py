"""A binary contraction tree over the atoms' cores, for sweeps with cached partial contractions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import opt_einsum
import torch

from models.shapley_graph.tensor_network import NetworkLayout

__all__ = ["ContractionTree", "contraction_tree"]


@dataclass
class _Node:
    """A node of the tree: a leaf (one atom) or the contraction of two subtrees.

    `open_bonds` are the bonds with exactly one end inside the subtree: the axes (after the batch axis)
    of both the node's value and its environment, in this order.
    """

    open_bonds: tuple[int, ...]
    atom: int = -1
    left: int = -1
    right: int = -1
    value_equation: str = ""  # value(left), value(right) -> value(node)
    left_env_equation: str = ""  # env(node), value(right) -> env(left)
    right_env_equation: str = ""  # env(node), value(left) -> env(right)


def _equation(a: tuple[int, ...], b: tuple[int, ...], out: tuple[int, ...]) -> str:
    """A batched two-operand einsum over bond ids, with letters assigned locally (torch has only 52)."""
    letters: dict[int, str] = {}
    for bond in a + b + out:
        letters.setdefault(bond, opt_einsum.get_symbol(len(letters) + 1))
    batch = opt_einsum.get_symbol(0)

    def term(bonds: tuple[int, ...]) -> str:
        return batch + "".join(letters[x] for x in bonds)

    return f"{term(a)},{term(b)}->{term(out)}"


class ContractionTree:
    """The opt_einsum path of the batched network, as a tree with cached values and environments.

    `sweep` updates every leaf once, depth first. Entering a node, the environment of each child is the
    node's environment contracted with the sibling's current value; leaving it, the node's value is
    rebuilt from its children. So each update sees the exact current environment (Gauss-Seidel ALS),
    and a whole sweep costs about three contractions of the network instead of n.
    """

    def __init__(self, layout: NetworkLayout, nodes: list[_Node], root: int) -> None:
        self.layout = layout
        self.nodes = nodes
        self.root = root

    def leaf_order(self, node: int | None = None) -> list[int]:
        node = self.root if node is None else node
        current = self.nodes[node]
        if current.atom >= 0:
            return [current.atom]
        return self.leaf_order(current.left) + self.leaf_order(current.right)

    def values(self, per_atom: list[torch.Tensor]) -> list[torch.Tensor | None]:
        """Bottom-up values of every node for the current per-atom tensors."""
        values: list[torch.Tensor | None] = [None] * len(self.nodes)

        def visit(k: int) -> torch.Tensor:
            node = self.nodes[k]
            if node.atom >= 0:
                values[k] = per_atom[node.atom]
            else:
                values[k] = torch.einsum(node.value_equation, visit(node.left), visit(node.right))
            return values[k]  # type: ignore[return-value]

        visit(self.root)
        return values

    def sweep(self, per_atom: list[torch.Tensor], update: object, mirror: bool = False) -> None:
        """Visit every leaf depth first and call update(atom, environment) -> new per-atom tensor."""
        values = self.values(per_atom)
        batch = per_atom[0].shape[0]
        root_env = torch.ones(batch, dtype=per_atom[0].dtype, device=per_atom[0].device)

        def visit(k: int, env: torch.Tensor) -> torch.Tensor:
            node = self.nodes[k]
            if node.atom >= 0:
                new = update(node.atom, env)  # type: ignore[operator]
                values[k] = new
                return new
            first, second = (node.right, node.left) if mirror else (node.left, node.right)
            eq_first = node.right_env_equation if mirror else node.left_env_equation
            eq_second = node.left_env_equation if mirror else node.right_env_equation
            visit(first, torch.einsum(eq_first, env, values[second]))
            visit(second, torch.einsum(eq_second, env, values[first]))
            values[k] = torch.einsum(node.value_equation, values[node.left], values[node.right])
            return values[k]  # type: ignore[return-value]

        visit(self.root, root_env)


@lru_cache(maxsize=32)
def contraction_tree(layout: NetworkLayout, chi: int, batch: int) -> ContractionTree:
    """Build the tree from opt_einsum's greedy path for this layout, bond dimension and batch size."""
    shapes = [(batch,) + (chi,) * layout.degree(i) for i in range(layout.n)]
    path, _ = opt_einsum.contract_path(layout.equation(), *shapes, shapes=True, optimize="greedy")
    nodes = [_Node(open_bonds=tuple(layout.incident[i]), atom=i) for i in range(layout.n)]
    live = list(range(layout.n))
    for step in path:
        if len(step) != 2:
            raise ValueError("expected a pairwise contraction path")
        a, b = (live[i] for i in step)
        for i in sorted(step, reverse=True):
            live.pop(i)
        left, right = nodes[a].open_bonds, nodes[b].open_bonds
        shared = set(left) & set(right)
        out = tuple(x for x in left if x not in shared) + tuple(x for x in right if x not in shared)
        nodes.append(_Node(
            open_bonds=out, left=a, right=b,
            value_equation=_equation(left, right, out),
            left_env_equation=_equation(out, right, left),
            right_env_equation=_equation(out, left, right),
        ))
        live.append(len(nodes) - 1)
    if len(live) != 1:
        raise ValueError("the network is not connected")
    return ContractionTree(layout, nodes, live[0])
