"""A graph-aligned tensor network: one core per atom, one bond index per chemical bond."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import opt_einsum
import torch

__all__ = ["GraphTensorNetwork", "NetworkLayout", "quadratic_cores", "random_cores"]


@dataclass(frozen=True)
class NetworkLayout:
    """Which bonds meet at which atom: the wiring of the TN-SHAP-G network (Heidari & Rabusseau, 2026).

    Atom i's core has axes (physical p_i in {0, 1}, then one bond axis per incident edge, in the
    order of `incident[i]`). The layout is the molecular graph itself, rings included.
    """

    n: int
    edges: tuple[tuple[int, int], ...]
    incident: tuple[tuple[int, ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        incident: list[list[int]] = [[] for _ in range(self.n)]
        for e, (u, v) in enumerate(self.edges):
            incident[u].append(e)
            incident[v].append(e)
        object.__setattr__(self, "incident", tuple(tuple(x) for x in incident))

    def degree(self, atom: int) -> int:
        return len(self.incident[atom])

    def equation(self) -> str:
        """The batched einsum: every atom's core, with the input vector already absorbed, shares `b`."""
        batch = opt_einsum.get_symbol(0)
        terms = [batch + "".join(opt_einsum.get_symbol(e + 1) for e in inc) for inc in self.incident]
        return ",".join(terms) + "->" + batch


@lru_cache(maxsize=64)
def _expression(layout: NetworkLayout, chi: int, batch: int) -> opt_einsum.contract.ContractExpression:
    """Cached opt_einsum contraction path for a layout, bond dimension and batch size."""
    shapes = [(batch,) + (chi,) * layout.degree(i) for i in range(layout.n)]
    return opt_einsum.contract_expression(layout.equation(), *shapes, optimize="greedy")


class GraphTensorNetwork:
    """g(z) = contraction of cores A_i with input vectors [1 - z_i, z_i]: multilinear in z by construction.

    TN-SHAP-G (Heidari & Rabusseau, ICML 2026): the network has the molecule's topology, so g is a
    multilinear polynomial whose values on binary z are the surrogate's coalition values, and whose
    derivatives along the diagonal z = (t, ..., t) give Shapley-type indices.
    """

    def __init__(self, layout: NetworkLayout, chi: int, cores: list[torch.Tensor]) -> None:
        self.layout = layout
        self.chi = chi
        self.cores = cores  # cores[i]: shape (2,) + (chi,) * degree(i), float64

    def contract(self, per_atom: list[torch.Tensor]) -> torch.Tensor:
        """Contract batched per-atom tensors of shape (B,) + (chi,) * degree(i) to a (B,) vector."""
        batch = int(per_atom[0].shape[0])
        expr = _expression(self.layout, self.chi, batch)
        return expr(*per_atom, backend="torch")

    def absorb(self, inputs: torch.Tensor, atom: int) -> torch.Tensor:
        """Per-sample core of `atom` for input columns `inputs` of shape (B, 2): sum_p x[b, p] A[p, ...]."""
        core = self.cores[atom]
        return torch.tensordot(inputs, core, dims=([1], [0]))

    def evaluate(self, z: np.ndarray | torch.Tensor) -> torch.Tensor:
        """g(z) for a batch of points z of shape (B, n) in [0, 1]^n (binary or not)."""
        zt = torch.as_tensor(z, dtype=torch.float64, device=self.cores[0].device)
        per_atom = [self.absorb(torch.stack([1 - zt[:, i], zt[:, i]], dim=1), i) for i in range(self.layout.n)]
        with torch.no_grad():
            return self.contract(per_atom)

    def n_parameters(self) -> int:
        return int(sum(core.numel() for core in self.cores))


def _spanning_tree(layout: NetworkLayout, root: int) -> tuple[list[int], set[int]]:
    """Parent edge of each atom (-1 for the root) in a BFS tree, and the set of tree edges."""
    parent_edge = [-2] * layout.n
    parent_edge[root] = -1
    queue = deque([root])
    tree: set[int] = set()
    while queue:
        u = queue.popleft()
        for e in layout.incident[u]:
            a, b = layout.edges[e]
            v = b if a == u else a
            if parent_edge[v] == -2:
                parent_edge[v] = e
                tree.add(e)
                queue.append(v)
    if min(parent_edge) == -2:
        raise ValueError("the molecular graph is not connected")
    return parent_edge, tree


def _set_entry(
    core: np.ndarray, vector: tuple[float, float], states: dict[int, int], par: int | None, par_state: int | None
) -> None:
    """Add `vector` (over z_i = 0, 1) at the bond states given (all other bonds at state 0)."""
    index = [0] * (core.ndim - 1)
    for k, state in states.items():
        index[k] = state
    if par is not None and par_state is not None:
        index[par] = par_state
    key: tuple[slice | int, ...] = (slice(None), *index)
    core[key] += vector  # type: ignore[index]


def quadratic_cores(
    layout: NetworkLayout,
    chi: int,
    intercept: float,
    weights: np.ndarray,
    bond_weights: np.ndarray,
    rng: np.random.Generator,
    noise: float = 0.0,
    device: str = "cpu",
) -> list[torch.Tensor]:
    """Cores representing c + sum_i a_i z_i + sum_{bonds uv} b_uv z_u z_v exactly (chi >= 3; chi = 2: no b).

    States along a BFS spanning tree, read towards the root: 0 = "1" (idle), 1 = "the one active term
    lies below", 2 = "the child's z", to be multiplied by b z at the parent. A ring-closing bond uses
    state 1 to carry the sender's z to the receiver, which adds b z_s z_t; BFS never closes a ring
    between an atom and its ancestor, so the receiver's path to the root avoids the sender. This is
    the warm start of the least-squares fit (Gaussian noise breaks the symmetry of unused entries).
    """
    if chi < 2:
        raise ValueError("bond dimension must be at least 2")
    parent_edge, tree = _spanning_tree(layout, 0)
    ring_bonds = {e: layout.edges[e] for e in range(len(layout.edges)) if e not in tree}
    cores = [
        _quadratic_core(layout, i, chi, parent_edge, tree, ring_bonds, intercept, weights, bond_weights)
        for i in range(layout.n)
    ]
    out = []
    for core in cores:
        if noise > 0:
            core = core + noise * rng.standard_normal(core.shape)
        out.append(torch.tensor(core, dtype=torch.float64, device=device))
    return out


def _quadratic_core(
    layout: NetworkLayout,
    i: int,
    chi: int,
    parent_edge: list[int],
    tree: set[int],
    ring_bonds: dict[int, tuple[int, int]],
    intercept: float,
    weights: np.ndarray,
    bond_weights: np.ndarray,
) -> np.ndarray:
    """Atom i's core in `quadratic_cores`: its own term, its children's and its ring bonds' (sent or received).

    `parent_edge` and `tree` are the BFS spanning tree; `ring_bonds` are the other bonds, each sent by
    its larger atom and received by its smaller one.
    """
    pairs = chi >= 3
    inc = layout.incident[i]
    core = np.zeros((2,) + (chi,) * len(inc))
    par = inc.index(parent_edge[i]) if parent_edge[i] >= 0 else None
    children = [k for k, e in enumerate(inc) if e in tree and k != par]
    sends = [k for k, e in enumerate(inc) if e in ring_bonds and max(ring_bonds[e]) == i]
    receives = [k for k, e in enumerate(inc) if e in ring_bonds and min(ring_bonds[e]) == i]

    def put(vector: tuple[float, float], states: dict[int, int], par_state: int | None) -> None:
        _set_entry(core, vector, states, par, par_state)

    active = 1 if par is not None else None  # the root has no parent: its active entries are outputs
    if par is None:
        put((intercept, intercept), {}, None)
    else:
        put((1.0, 1.0), {}, 0)
        if pairs:
            put((0.0, 1.0), {}, 2)
    if pairs:
        for k in sends:
            put((0.0, 1.0), {k: 1}, 0 if par is not None else None)
    put((0.0, weights[i]), {}, active)
    for k in children:
        put((1.0, 1.0), {k: 1}, active)
        if pairs:
            put((0.0, bond_weights[inc[k]]), {k: 2}, active)
    if pairs:
        for k in receives:
            put((0.0, bond_weights[inc[k]]), {k: 1}, active)
    return core


def random_cores(
    layout: NetworkLayout, chi: int, rng: np.random.Generator, device: str = "cpu"
) -> list[torch.Tensor]:
    """Random Gaussian cores scaled so that g stays of order one (for tests of the index formulas)."""
    cores = []
    for i in range(layout.n):
        shape = (2,) + (chi,) * layout.degree(i)
        scale = 1.0 / np.sqrt(chi ** (layout.degree(i) / 2))
        cores.append(torch.tensor(scale * rng.standard_normal(shape), dtype=torch.float64, device=device))
    return cores
