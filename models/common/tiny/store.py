"""A model store: weights live on disk, at most `capacity` models are resident, every load is counted.

This is the cost the Skill-MoE paper's batched inference avoids: with one model resident at a time,
a per-query loop loads an expert from disk for every (query, expert) pair, while grouping the
queries by expert loads each expert once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import torch

__all__ = ["ModelStore"]


class ModelStore:
    """Loads `directory/<name>.pt` state dicts into modules built by `factory(name)` on `device`.

    `get(name)` returns the resident module or loads it (evicting the least recently used one when
    `capacity` models are resident); `loads` counts real reads from disk, `load_log` lists them.
    """

    def __init__(self, directory: Path, factory: Callable[[str], torch.nn.Module], *, device: str = "cpu",
                 capacity: int = 1) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.directory = Path(directory)
        self.factory = factory
        self.device = device
        self.capacity = capacity
        self.loads = 0
        self.load_log: list[str] = []
        self._resident: OrderedDict[str, torch.nn.Module] = OrderedDict()

    def path(self, name: str) -> Path:
        return self.directory / f"{name}.pt"

    def names(self) -> list[str]:
        """The names of the models stored on disk, sorted."""
        return sorted(p.stem for p in self.directory.glob("*.pt"))

    def resident(self) -> list[str]:
        return list(self._resident)

    def get(self, name: str) -> torch.nn.Module:
        """The model `name`, loaded from disk if it is not resident."""
        if name in self._resident:
            self._resident.move_to_end(name)
            return self._resident[name]
        while len(self._resident) >= self.capacity:
            self.unload(next(iter(self._resident)))
        model = self.factory(name)
        state = torch.load(self.path(name), map_location=self.device, weights_only=True)
        model.load_state_dict(state)
        model.to(self.device).eval()
        self._resident[name] = model
        self.loads += 1
        self.load_log.append(name)
        return model

    def unload(self, name: str) -> None:
        """Drop `name` from memory (no-op when it is not resident)."""
        self._resident.pop(name, None)

    def unload_all(self) -> None:
        self._resident.clear()

    @staticmethod
    def save(model: torch.nn.Module, path: Path) -> None:
        """Write `model`'s state dict (float32) to `path`."""
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save({k: v.detach().cpu() for k, v in model.state_dict().items()}, path)
