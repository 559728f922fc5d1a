"""A test-only method that exercises the whole job lifecycle (success, failure, crash, sleep, memory)."""

from __future__ import annotations

import time
from typing import Literal

import numpy  # noqa: F401 - loads OpenBLAS, whose thread pool the `threads` behaviour reports
import plotly.graph_objects as go
from pydantic import BaseModel, ConfigDict, Field

from models.common import Answer, Artifact, MethodInputError, MethodResult, MethodSpec, Paper, Progress

__all__ = ["SPEC"]


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")

    behaviour: Literal["ok", "fail", "crash", "sleep", "memory", "threads", "reject"] = Field(
        "ok", description="What the run does ('reject' is refused by the submit-time check).")
    steps: int = Field(4, ge=1, le=1000, description="Progress steps.")
    step_s: float = Field(0.0, ge=0, le=5, description="Seconds per step.")
    memory_mb: int = Field(0, ge=0, le=65536, description="Megabytes to allocate (behaviour=memory).")
    seed: int = Field(0, ge=0, le=2**31 - 1, description="Seed (unused; part of the contract).")


class Result(MethodResult):
    steps_done: int
    total: int
    blas_threads: int = 0  # behaviour=threads: the largest BLAS/OpenMP pool size the job sees

    def metrics(self) -> dict[str, float | int | str]:
        return {"Steps done": self.steps_done, "Sum of 1..steps": self.total}

    def answer(self) -> Answer:
        return Answer("Even" if self.total % 2 == 0 else "Odd", "success" if self.total % 2 == 0 else "error",
                       f"the sum is {self.total}")

    def artifacts(self) -> dict[str, Artifact]:
        return {"steps.csv": Artifact.csv("step\n" + "".join(f"{i}\n" for i in range(self.steps_done)))}


def run(params: Params, progress: Progress) -> Result:
    if params.behaviour == "fail":
        raise MethodInputError("behaviour 'fail' asks for a failure: this message is for the user")
    if params.behaviour == "crash":
        raise ZeroDivisionError("boom")
    if params.behaviour == "memory":
        hog = bytearray(params.memory_mb * 2**20)
        hog[-1] = 1
    if params.behaviour == "threads":
        from threadpoolctl import threadpool_info

        pools = [int(pool["num_threads"]) for pool in threadpool_info()]
        return Result(steps_done=0, total=0, blas_threads=max(pools, default=0))
    steps = params.steps if params.behaviour != "sleep" else 10**6
    for step in range(steps):
        progress(step / steps, f"step {step + 1} of {steps}")
        time.sleep(params.step_s)
    return Result(steps_done=params.steps, total=params.steps * (params.steps + 1) // 2)


def _check(params: Params) -> None:
    if params.behaviour == "reject":
        raise MethodInputError("behaviour 'reject' is refused before the job is stored")


def figures(result: Result) -> dict[str, go.Figure]:
    figure = go.Figure(go.Bar(x=list(range(result.steps_done)), y=list(range(result.steps_done))))
    figure.update_layout(title="Steps", xaxis_title="step", yaxis_title="index")
    return {"steps": figure}


SPEC = MethodSpec(
    name="toy", title="Toy method (tests)", paper=Paper(title="A toy", authors="Tests"),
    summary="Counts steps. Used only by the tests.", params_model=Params, result_model=Result, run=run,
    figures=figures, section="Tests", about="1. Count.\n2. Stop.", examples=lambda: {"Quick": {"steps": 3}},
    input_summary=lambda p: f"{p.behaviour}, {p.steps} steps", check=_check,
    page_resources=lambda: {"numbers": [1, 2, 3]},
)
