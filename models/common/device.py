"""The torch device a method should use: CUDA when available, else CPU."""

from __future__ import annotations

__all__ = ["torch_device"]


def torch_device() -> str:
    """Return "cuda" when torch sees a GPU, else "cpu" (and "cpu" when torch is missing)."""
    try:
        import torch
    except ImportError:
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"
