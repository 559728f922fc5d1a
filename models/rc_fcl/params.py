"""Parameters of an RC-FCL run: the federation, the drift, the detector and the aggregation."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults (10 clients, 20 rounds, three methods) take about 15 s on one core."""

    model_config = ConfigDict(extra="forbid")

    clients: int = Field(default=10, ge=2, le=20, description="Federated clients (non-IID Dirichlet split of the digits).")
    rounds: int = Field(default=20, ge=5, le=60, description="Server rounds.")
    drift_magnitude: float = Field(
        default=0.8,
        ge=0.0,
        le=1.0,
        description="Scale of every client's concept drift (0 = none): its magnitude is this times U(0.5, 1); "
        "a permutation then moves that share of the client's classes, a rotation turns the images by 180° times it.",
    )
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Random seed (split, drift schedule, initialisation, batches).")
    dirichlet_alpha: float = Field(default=0.5, ge=0.05, le=100.0, description="Dirichlet concentration of the class split (small = non-IID).")
    participation: float = Field(
        default=1.0, ge=0.2, le=1.0, description="Probability that a client trains in a round (its own clock advances only then)."
    )
    local_epochs: int = Field(default=2, ge=1, le=10, description="Local passes over a client's data per round.")
    detection_threshold: float = Field(
        default=0.2, ge=0.0, le=1.0, description="Drift is flagged when the discriminator's score 2 x held-out accuracy - 1 exceeds this."
    )
    drift_penalty: float = Field(
        default=5.0, ge=0.0, le=50.0, description="RC-FCL aggregation weight n_k exp(-penalty x drift score)."
    )
    prox_mu: float = Field(default=0.01, ge=0.0, le=1.0, description="FedProx proximal coefficient mu (loss + mu/2 ||w - w_global||^2).")
    learning_rate: float = Field(default=0.1, ge=0.001, le=1.0, description="Local SGD learning rate.")
