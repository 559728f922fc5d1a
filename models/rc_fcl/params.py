"""Parameters of an RC-FCL run: the federation, the concept stream, the detector and the calibration."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from models.common.seeds import seeds_field

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults (1 seed, 10 clients, 30 rounds, four methods) take about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    seeds: int = seeds_field(default=1, maximum=5)
    clients: int = Field(default=10, ge=2, le=20, title="Clients",
                         description="Federated clients (non-IID Dirichlet split of the digits).")
    rounds: int = Field(default=30, ge=10, le=60, title="Server rounds",
                        description="Server rounds; every client drifts clean -> rotated -> inverted on its own clock.")
    batch: int = Field(default=64, ge=16, le=200, title="Fresh samples per round", json_schema_extra={"unit": "examples"},
                       description="Each participating client draws this many fresh samples of its current data.")
    drift_magnitude: float = Field(default=1.0, ge=0.0, le=1.0, title="Drift magnitude",
                                   description="After a drift a share m_k = this x U(0.5, 1) of a client's fresh samples "
                                               "comes from the new concept (0 = no drift).")
    dirichlet_alpha: float = Field(default=0.5, ge=0.05, le=100.0, title="Dirichlet α",
                                   description="Concentration of the class split over the clients (small = non-IID).")
    participation: float = Field(default=1.0, ge=0.2, le=1.0, title="Participation",
                                 description="Probability that a client trains in a round (its own clock advances only then).")
    local_epochs: int = Field(default=3, ge=1, le=10, title="Local epochs",
                              description="Local passes over the round's fresh batch.")
    detection_threshold: float = Field(default=0.5, ge=0.0, le=1.0, title="Detection threshold",
                                       description="Drift is flagged when the discriminator's score 2 x held-out "
                                                   "accuracy - 1 exceeds this.")
    window: int = Field(default=3, ge=1, le=10, title="Calibration window", json_schema_extra={"unit": "rounds"},
                        description="Rounds after a detection during which the calibration acts.")
    drift_penalty: float = Field(default=2.0, ge=0.0, le=50.0, title="Drift penalty β",
                                 description="Server weight n_k exp(-β x magnitude x remaining window share).")
    prox_mu: float = Field(default=0.01, ge=0.0, le=1.0, title="FedProx μ",
                           description="FedProx proximal coefficient (loss + μ/2 ||w - w_global||^2).")
    learning_rate: float = Field(default=0.3, ge=0.001, le=1.0, title="Learning rate", description="Local SGD learning rate.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base seed (split, drift schedule, batches, initialisation); seed k of a run is seed + k.")
