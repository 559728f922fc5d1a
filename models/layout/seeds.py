"""The method's entry point: the pipeline on every seed (optimiser starts seed, seed + 1, ...), claims measured."""

from __future__ import annotations

from models.common import Progress
from models.common.seeds import run_seeds, seed_values
from models.layout.claims import measure_claims, standing
from models.layout.params import Params
from models.layout.result import Result
from models.layout.run import run as run_once

__all__ = ["run"]


def run(params: Params, progress: Progress) -> Result:
    """Run each seed; the first seed's layout is shown, every seed's measured against the claims."""
    seeds = seed_values(params.seed, params.seeds)
    results = run_seeds(seeds, lambda s, stage: run_once(params.model_copy(update={"seed": s}), stage), progress)
    first = results[0]
    first.claims = measure_claims(results, seeds)
    first.standing = standing(results)
    return first
