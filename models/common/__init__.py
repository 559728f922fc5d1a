"""The method contract every method package follows (see DESIGN.md, "The method contract")."""

from __future__ import annotations

from models.common.contract import (
    Artifact,
    Cancelled,
    MethodInputError,
    MethodResult,
    MethodSpec,
    Paper,
    Progress,
    Requirements,
    Verdict,
    no_progress,
)
from models.common.device import torch_device

__all__ = [
    "Artifact",
    "Cancelled",
    "MethodInputError",
    "MethodResult",
    "MethodSpec",
    "Paper",
    "Progress",
    "Requirements",
    "Verdict",
    "no_progress",
    "torch_device",
]
