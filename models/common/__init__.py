"""The method contract every method package follows (see docs/architecture.md, "The method contract")."""

from __future__ import annotations

from models.common.claims import (
    QUALITATIVE,
    Claim,
    ClaimResult,
    Measurement,
    Standing,
    evaluate_claims,
    format_value,
)
from models.common.contract import (
    Answer,
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
from models.common.device import seeded_init, torch_device
from models.common.seeds import run_seeds, seed_values, seeds_field

__all__ = [
    "Answer",
    "QUALITATIVE",
    "Claim",
    "ClaimResult",
    "Measurement",
    "Standing",
    "evaluate_claims",
    "format_value",
    "run_seeds",
    "seed_values",
    "seeds_field",
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
    "seeded_init",
    "torch_device",
]
