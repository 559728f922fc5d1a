"""Two shipped logP predictors: a local GNN (sum pooling, linear head) and one with a global nonlinear readout."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
import torch
from torch import nn

from models.shapley_graph.molecules import ATOM_FEATURES

__all__ = [
    "PREDICTOR_FILES",
    "GlobalReadoutGNN",
    "GnnMetadata",
    "MolecularGNN",
    "PredictorName",
    "load_gnn",
    "load_predictor",
    "save_gnn",
]

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
PredictorName = Literal["gnn", "gnn_global"]
PREDICTOR_FILES: dict[str, Path] = {
    "gnn": WEIGHTS_DIR / "gnn_logp.npz",
    "gnn_global": WEIGHTS_DIR / "gnn_global_logp.npz",
}
WEIGHTS_PATH = PREDICTOR_FILES["gnn"]


class _MessagePassing(nn.Module):
    """h0 = relu(W x); h <- h + relu(W_s h + W_n sum_{neighbours} h), `layers` times: h_i sees `layers` hops."""

    def __init__(self, n_features: int, hidden: int, layers: int) -> None:
        super().__init__()
        self.embed = nn.Linear(n_features, hidden)
        self.self_maps = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(layers)])
        self.neighbour_maps = nn.ModuleList([nn.Linear(hidden, hidden, bias=False) for _ in range(layers)])

    def atom_states(self, x: torch.Tensor, adjacency: torch.Tensor) -> torch.Tensor:
        """Hidden state of every atom, (B, n, hidden), for features (B, n, F) and adjacency (n, n) or (B, n, n)."""
        h = torch.relu(self.embed(x))
        for self_map, neighbour_map in zip(self.self_maps, self.neighbour_maps, strict=True):
            h = h + torch.relu(self_map(h) + neighbour_map(adjacency @ h))
        return h


class MolecularGNN(_MessagePassing):
    """f = w . sum_i h_i + b: a sum of per-atom readouts, each a function of the atom's `layers`-hop field.

    This locality is what makes exact indices cheap (GraphSHAP-IQ, Muschalik et al.): the masked game
    is a sum of games on the receptive fields (see `receptive_field.py`).
    """

    hops_per_layer = 1

    def __init__(self, n_features: int = len(ATOM_FEATURES), hidden: int = 32, layers: int = 2) -> None:
        super().__init__(n_features, hidden, layers)
        self.layers = layers
        self.head = nn.Linear(hidden, 1, bias=False)
        self.bias = nn.Parameter(torch.zeros(()))

    def atom_readouts(self, x: torch.Tensor, adjacency: torch.Tensor) -> torch.Tensor:
        """Per-atom contributions w . h_i, shape (B, n)."""
        return self.head(self.atom_states(x, adjacency)).squeeze(-1)

    def forward(self, x: torch.Tensor, adjacency: torch.Tensor, atom_mask: torch.Tensor | None = None) -> torch.Tensor:
        """Predicted logP per graph, shape (B,); `atom_mask` (B, n) removes atoms from the pooled sum."""
        readouts = self.atom_readouts(x, adjacency)
        if atom_mask is not None:
            readouts = readouts * atom_mask
        return readouts.sum(dim=-1) + self.bias


class GlobalReadoutGNN(_MessagePassing):
    """f = MLP(sum_i h_i): the same message passing, then a two-layer SiLU network on the pooled vector.

    The nonlinearity acts on all atoms together, so v(S) is no sum of local games: no receptive-field
    bound exists and exact values need all 2^n coalitions (the predictor where the shortcut fails).
    """

    def __init__(self, n_features: int = len(ATOM_FEATURES), hidden: int = 32, layers: int = 2) -> None:
        super().__init__(n_features, hidden, layers)
        self.layers = layers
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, x: torch.Tensor, adjacency: torch.Tensor, atom_mask: torch.Tensor | None = None) -> torch.Tensor:
        h = self.atom_states(x, adjacency)
        if atom_mask is not None:
            h = h * atom_mask[..., None]
        return self.readout(h.sum(dim=-2)).squeeze(-1)


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


def save_gnn(model: nn.Module, metadata: GnnMetadata, path: Path = WEIGHTS_PATH) -> None:
    """Write the weights (float32 npz) and a JSON side file with the metadata."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    np.savez_compressed(path, **arrays)
    path.with_suffix(".json").write_text(json.dumps(metadata.__dict__, indent=2))


def _model_class(name: str) -> type[MolecularGNN] | type[GlobalReadoutGNN]:
    return GlobalReadoutGNN if name == "gnn_global" else MolecularGNN


@lru_cache(maxsize=4)
def load_predictor(name: PredictorName = "gnn", device: str = "cpu") -> tuple[nn.Module, GnnMetadata]:
    """A shipped trained predictor in float64 on `device`, with its metadata."""
    path = PREDICTOR_FILES[name]
    meta_raw = json.loads(path.with_suffix(".json").read_text())
    meta_raw["mean_features"] = tuple(meta_raw["mean_features"])
    metadata = GnnMetadata(**meta_raw)
    model = _model_class(name)(hidden=metadata.hidden, layers=metadata.layers)
    with np.load(path) as arrays:
        state = {k: torch.tensor(arrays[k]) for k in arrays.files}
    model.load_state_dict(state)
    model = model.to(dtype=torch.float64, device=device).eval()
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    return model, metadata


def load_gnn(device: str = "cpu") -> tuple[MolecularGNN, GnnMetadata]:
    """The shipped local GNN (sum pooling, linear head)."""
    model, metadata = load_predictor("gnn", device)
    assert isinstance(model, MolecularGNN)
    return model, metadata
