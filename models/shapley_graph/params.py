"""Parameters of TN-SHAP-G (bounded so any job stays small on a shared server)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from models.common.seeds import seeds_field

__all__ = ["MASKING_LABELS", "Params"]


# A masking's short name (the page's picker and the result tables); masking.MASKING_MEANING says what phi means.
MASKING_LABELS: dict[str, str] = {"baseline": "Feature baseline (zeros)", "delete": "Node deletion",
                                  "mean": "Mean-feature baseline"}


class Params(BaseModel):
    """Molecule (SMILES), the game to explain, the surrogate's bond dimension, the query budget and the ensemble."""

    model_config = ConfigDict(extra="forbid")
    seeds: int = seeds_field(default=1, maximum=5)
    smiles: str = Field(
        "CC(=O)Nc1ccc(O)cc1",
        min_length=1,
        max_length=400,
        description="Molecule as SMILES, 3 to 60 heavy atoms, one connected fragment (default: paracetamol)",
    )
    name: str = Field(
        "", max_length=80, description="Display name of the molecule (optional; looked up in the shipped list when empty)"
    )
    predictor: Literal["gnn", "gnn_global", "additive", "bond_pair", "motif"] = Field(
        "gnn",
        description=(
            "Model to explain: gnn (trained logP GNN, sum pooling, linear head), gnn_global (trained logP GNN with a "
            "global MLP readout), or a validation game with closed-form indices: additive (Crippen atom "
            "contributions), bond_pair (plus bond terms), motif (plus three-atom and whole-ring terms)"
        ),
    )
    masking: Literal["baseline", "delete", "mean"] = Field(
        "baseline", title="Masking: what an absent atom means", json_schema_extra={"choices": dict(MASKING_LABELS)},
        description=(
            "What an absent atom means for the GNNs: baseline (its features set to zero, node and bonds kept), "
            "delete (the atom and its bonds removed), mean (its features set to the average training atom)"
        ),
    )
    budget: int = Field(300, ge=20, le=3000, description="Model queries (binary coalitions) used to fit the surrogate")
    bond_dim: int = Field(4, ge=2, le=6, description="Bond dimension chi of the tensor network (one index per chemical bond)")
    ensemble: int = Field(
        1, ge=1, le=8,
        description="Fits of the surrogate to the same queries with different seeds (mean and spread of every index)",
    )
    compare_baselines: bool = Field(
        True, description="Also run shapiq's KernelSHAP, PermutationSamplingSV and KernelSHAPIQ at the same budget"
    )
    error_curve: bool = Field(
        True, description="Error against the exact values over a range of budgets up to this one (first seed; wherever an exact reference exists)"
    )
    seed: int = Field(0, ge=0, le=2**31 - 1, description="Base seed (coalition sampling, network initialisation, shapiq); seed k of a run is seed + k")
