"""A test-only method with claims whose per-seed values are known in closed form (the sweep tests check
the sweep's rows against them): on seed s the quantity is `level + spread * (s - seed)`."""

from __future__ import annotations

import time

import plotly.graph_objects as go
from pydantic import BaseModel, ConfigDict, Field

from models.common import MethodResult, MethodSpec, Paper, Progress
from models.common.claims import Claim, Measurement, evaluate_claims

__all__ = ["CLAIMS", "SPEC", "expected_values"]

CLAIMS = (
    Claim("level", "The level reaches 5", paper="qualitative", quantity="level (units)", op=">=", target=5.0),
    Claim("small", "The level stays below 8", paper="qualitative", quantity="level (units)", op="<", target=8.0,
          headline=False),
)


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: float = Field(4.0, ge=0, le=100, description="Level (units).")
    spread: float = Field(0.5, ge=0, le=10, description="Added per seed (units).")
    step_s: float = Field(0.0, ge=0, le=5, description="Seconds each seed sleeps.")
    seeds: int = Field(3, ge=1, le=5, description="Seeds.")
    seed: int = Field(0, ge=0, le=1000, description="First seed.")


class Result(MethodResult):
    values: list[float]
    elapsed_seconds: float = 0.0

    def metrics(self) -> dict[str, float | int | str]:
        return {"Mean level (units)": sum(self.values) / len(self.values), "Seeds": len(self.values)}


def expected_values(level: float, spread: float, seeds: int) -> list[float]:
    return [level + spread * k for k in range(seeds)]


def run(params: Params, progress: Progress) -> Result:
    started = time.perf_counter()
    values = []
    for k, value in enumerate(expected_values(params.level, params.spread, params.seeds)):
        progress(k / params.seeds, f"seed {k + 1}")
        time.sleep(params.step_s)
        values.append(value)
    seeds = [params.seed + k for k in range(params.seeds)]
    claims = evaluate_claims(CLAIMS, {"level": [Measurement(v) for v in values],
                                      "small": [Measurement(v) for v in values]}, seeds)
    return Result(values=values, claims=claims, elapsed_seconds=time.perf_counter() - started)


def figures(result: Result) -> dict[str, go.Figure]:
    figure = go.Figure(go.Scatter(x=list(range(len(result.values))), y=result.values))
    figure.update_layout(title="Levels", xaxis_title="seed", yaxis_title="level (units)")
    return {"levels": figure}


SPEC = MethodSpec(
    name="sweep_toy", title="Sweep toy (tests)", paper=Paper(title="A toy", authors="Tests"),
    summary="Levels per seed. Used only by the client and sweep tests.", params_model=Params, result_model=Result,
    run=run, figures=figures, section="Tests", about="1. Add.")
