"""Parameters of an LMNet run: the label counts swept, the training passes and the seed."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults train three variants at two label counts in about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    labels: list[Annotated[int, Field(ge=10, le=1000)]] = Field(
        default_factory=lambda: [50, 200], min_length=1, max_length=5,
        description="Labelled training words of the composed task, one run per count (10 to 1000 each; a single "
                    "number is read as a one-element list). The paper's check is at 200 labels.")
    epochs: int = Field(default=25, ge=1, le=200,
                        description="Training passes over the labelled words (batches of 32) for every variant.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1,
                      description="Random seed (labelled and test words, edge initialisation, batch order).")

    @field_validator("labels", mode="before")
    @classmethod
    def _one_count(cls, value: Any) -> Any:
        return [value] if isinstance(value, int) and not isinstance(value, bool) else value
