"""A small message-passing GNN (sum pooling, linear head) that predicts Crippen logP from a molecule."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.shapley_graph.molecules import ATOM_FEATURES

__all__ = ["WEIGHTS_PATH", "GnnMetadata", "MolecularGNN", "load_gnn"]

WEIGHTS_PATH = Path(__file__).resolve().parent / "weights" / "gnn_logp.npz"
METADATA_PATH = WEIGHTS_PATH.with_suffix(".json")


class MolecularGNN(nn.Module):
    """h0 = relu(W x); h <- h + relu(W_s h + W_n sum_{neighbours} h) per layer; f = w . sum_i h_i + b.

    Sum pooling followed by a linear head means f is a sum of per-atom readouts w . h_i (plus b), and
    each h_i depends on the atom's `layers`-hop neighbourhood: the game it induces is local on the graph.
    """

    def __init__(self, n_features: int = len(ATOM_FEATURES), hidden: int = 32, layers: int = 2) -> None:
        super().__init__()
        self.embed = nn.Linear(n_features, hidden)
        self.self_maps = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(layers)])
        self.neighbour_maps = nn.ModuleList([nn.Linear(hidden, hidden, bias=False) for _ in range(layers)])
        self.head = nn.Linear(hidden, 1, bias=False)
        self.bias = nn.Parameter(torch.zeros(()))

    def atom_readouts(self, x: torch.Tensor, adjacency: torch.Tensor) -> torch.Tensor:
        """Per-atom contributions w . h_i, shape (B, n), for features (B, n, F) and adjacency (n, n) or (B, n, n)."""
        h = torch.relu(self.embed(x))
        for self_map, neighbour_map in zip(self.self_maps, self.neighbour_maps, strict=True):
            h = h + torch.relu(self_map(h) + neighbour_map(adjacency @ h))
        return self.head(h).squeeze(-1)

    def forward(self, x: torch.Tensor, adjacency: torch.Tensor, atom_mask: torch.Tensor | None = None) -> torch.Tensor:
        """Predicted logP per graph, shape (B,); `atom_mask` (B, n) excludes padding atoms from the sum."""
        readouts = self.atom_readouts(x, adjacency)
        if atom_mask is not None:
            readouts = readouts * atom_mask
        return readouts.sum(dim=-1) + self.bias


@dataclass(frozen=True)
class GnnMetadata:
    """What the training script measured: held-out R^2 of logP, split sizes and the mean atom features."""

    test_r2: float
    train_r2: float
    test_mae: float
    n_train: int
    n_test: int
    hidden: int
    layers: int
    epochs: int
    mean_features: tuple[float, ...]


def save_gnn(model: MolecularGNN, metadata: GnnMetadata, path: Path = WEIGHTS_PATH) -> None:
    """Write the weights (float32 npz) and a JSON side file with the metadata."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    np.savez_compressed(path, **arrays)
    path.with_suffix(".json").write_text(json.dumps(metadata.__dict__, indent=2))


@lru_cache(maxsize=2)
def load_gnn(device: str = "cpu") -> tuple[MolecularGNN, GnnMetadata]:
    """The shipped trained GNN in float64 on `device`, with its metadata."""
    meta_raw = json.loads(METADATA_PATH.read_text())
    meta_raw["mean_features"] = tuple(meta_raw["mean_features"])
    metadata = GnnMetadata(**meta_raw)
    model = MolecularGNN(hidden=metadata.hidden, layers=metadata.layers)
    with np.load(WEIGHTS_PATH) as arrays:
        state = {k: torch.tensor(arrays[k]) for k in arrays.files}
    model.load_state_dict(state)
    model = model.to(dtype=torch.float64, device=device).eval()
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    return model, metadata
