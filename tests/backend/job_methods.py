"""Test-only methods for the executors: every way a job can end, and one that needs a GPU.

`endings` touches or maps memory, raises torch's allocator error, kills itself with a signal or
exits with a code, sleeps in steps (for timeouts, cancel and shutdown) and reports its pid.
`gpu_toy` (registered through tests.backend.gpu_method) declares `Requirements(gpus=1)`.
"""

from __future__ import annotations

import mmap
import os
import signal
import time
from typing import Literal

import plotly.graph_objects as go
from pydantic import BaseModel, ConfigDict, Field

from models.common import Artifact, MethodResult, MethodSpec, Paper, Progress, Requirements
from models.common.contract import Column, Table

__all__ = ["GPU_TOY", "SPEC"]


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")

    behaviour: Literal["ok", "sleep", "touch_memory", "map_memory", "torch_oom", "signal", "exit"] = Field(
        "ok", description="What the run does.")
    steps: int = Field(4, ge=1, le=100000, description="Progress steps (sleep: steps of step_s).")
    step_s: float = Field(0.0, ge=0, le=30, description="Seconds per step.")
    memory_mb: int = Field(0, ge=0, le=65536, description="Megabytes to touch or map.")


class Result(MethodResult):
    steps_done: int
    pid: int

    def metrics(self) -> dict[str, float | int | str]:
        return {"Steps done": self.steps_done}

    def tables(self) -> list[Table]:
        """One table of steps; the last row's share is NaN (stored as null: PostgreSQL's JSON has no NaN)."""
        columns = [Column(key="step", label="Step"), Column(key="share", label="Share", unit="%", digits=3),
                   Column(key="even", label="Even", fmt="mark"), Column(key="note", label="Note", fmt="text")]
        rows = [{"step": i, "share": 100 * i / self.steps_done if i < self.steps_done - 1 else float("nan"),
                 "even": i % 2 == 0, "note": f"step\x00{i}" if i == 0 else f"step {i}"} for i in range(self.steps_done)]
        return [Table(title="Steps", columns=columns, rows=rows, caption="Each step once.")]

    def artifacts(self) -> dict[str, Artifact]:
        return {"steps.csv": Artifact.csv("step\n" + "".join(f"{i}\n" for i in range(self.steps_done)))}


def run(params: Params, progress: Progress) -> Result:
    if params.behaviour == "touch_memory":  # resident: every page written, 8 MB at a time
        chunks = []
        for step in range(params.memory_mb // 8):
            chunks.append(b"\x01" * (8 * 2**20))
            progress(step * 8 / params.memory_mb, f"{(step + 1) * 8} MB touched")
        time.sleep(params.step_s)
        del chunks
    elif params.behaviour == "map_memory":  # address space only: mapped, never touched
        mapped = mmap.mmap(-1, params.memory_mb * 2**20)
        time.sleep(max(params.step_s, 0.5))
        mapped.close()
    elif params.behaviour == "torch_oom":  # torch's own allocator error (a RuntimeError, not a MemoryError)
        import torch

        torch.empty(2**50, dtype=torch.uint8)
    elif params.behaviour == "signal":
        os.kill(os.getpid(), signal.SIGKILL)
    elif params.behaviour == "exit":
        os._exit(3)
    for step in range(params.steps):
        progress(step / params.steps, f"step {step + 1} of {params.steps}")
        time.sleep(params.step_s)
    return Result(steps_done=params.steps, pid=os.getpid())


def figures(result: Result) -> dict[str, go.Figure]:
    figure = go.Figure(go.Bar(x=list(range(result.steps_done)), y=[1] * result.steps_done))
    figure.update_layout(title="Steps", xaxis_title="step", yaxis_title="count")
    return {"steps": figure}


SPEC = MethodSpec(
    name="endings", title="Job endings (tests)", paper=Paper(title="Endings", authors="Tests"),
    summary="Ends a job in a chosen way. Used only by the tests.", params_model=Params, result_model=Result,
    run=run, figures=figures, section="Tests", about="1. End.",
)
GPU_TOY = MethodSpec(
    name="gpu_toy", title="GPU toy (tests)", paper=Paper(title="GPU", authors="Tests"),
    summary="Needs one GPU. Used only by the tests.", params_model=Params, result_model=Result, run=run,
    figures=figures, section="Tests", about="1. Use the GPU.", requirements=Requirements(cpus=1, gpus=1),
)
