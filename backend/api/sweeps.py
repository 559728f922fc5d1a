"""Sweeps: `POST /api/sweeps {method, params, vary: {field: [values]}}` runs one job per value; `GET`
answers the status, the job ids and, per claim, a row per value; `DELETE` cancels every job of it.

A sweep is visible to its owner only (and admins), like a job; see backend/jobs/sweeps.py for how a
sweep meets the quotas (N jobs for the hourly quota, its jobs waiting under the concurrency quota)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from sqlalchemy.orm import Session

from backend.api.auth import Caller, CallerDep, visible_to
from backend.api.deps import ServiceDep, SessionDep, SettingsDep
from backend.api.schemas import ERROR_RESPONSES, _control_character_at
from backend.hosting.quotas import QuotaExceeded
from backend.jobs.service import InvalidParams, JobService, UnknownMethod
from backend.jobs.sweeps import (
    MAX_VALUES,
    admit_sweep,
    advance,
    claim_rows,
    job_states,
    sweep_progress,
    sweep_status,
)
from backend.settings import Settings
from db.status import ACTIVE
from db.tables import Sweep, utcnow

__all__ = ["router"]

router = APIRouter(prefix="/api/sweeps", tags=["sweeps"], responses=ERROR_RESPONSES)


class SweepCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    method: str = Field(min_length=1, max_length=64, description="Method name, as listed by GET /api/methods.")
    params: dict[str, Any] = Field(default_factory=dict, description="The fixed parameters (the seeds too).")
    vary: dict[str, list[Any]] = Field(description=f"Exactly one field and its values (1 to {MAX_VALUES}, distinct).")
    owner: str = Field("", max_length=64, pattern=r"^[^\x00-\x1f\x7f]*$", description="Open mode: a browser's id.")

    @field_validator("vary")
    @classmethod
    def _one_field(cls, vary: dict[str, list[Any]]) -> dict[str, list[Any]]:
        if len(vary) != 1:
            raise ValueError(f"vary must name exactly one field (it names {len(vary)})")
        (field, values), = vary.items()
        if not 1 <= len(values) <= MAX_VALUES:
            raise ValueError(f"vary › {field[:64]}: give 1 to {MAX_VALUES} values (got {len(values)})")
        keys = [json.dumps(v, sort_keys=True) for v in values]
        if len(set(keys)) != len(keys):
            raise ValueError(f"vary › {field[:64]}: the values must be distinct")
        return vary

    @model_validator(mode="after")
    def _no_control_characters(self) -> SweepCreate:
        """NUL and other control characters are refused in every string, as for a job (a 422)."""
        where = _control_character_at({"method": self.method, "params": self.params, "vary": self.vary}, "body")
        if where is not None:
            raise ValueError(f"{where.removeprefix('body.')}: control characters (such as NUL) are not allowed")
        return self


class ClaimRow(BaseModel):
    claim: str
    quantity: str
    criterion: str
    headline: bool
    target: float | None = None
    value: Any = Field(description="The swept field's value of this row.")
    job_id: str | None = Field(None, description="The run of this value (None while it waits for the quota).")
    status: str
    mean: float | None = None
    sd: float | None = None
    n: int = 0
    interval: list[float] | None = Field(None, description="95% interval of the mean over seeds.")
    holds: str | None = Field(None, description="held | partial | not_held | not_tested; None until the run succeeded.")


class SweepPublic(BaseModel):
    id: str
    method: str
    field: str
    values: list[Any]
    params: dict[str, Any]
    status: str = Field(description="queued | running | succeeded | failed | cancelled")
    progress: float
    message: str
    job_ids: list[str | None]
    rows: list[ClaimRow]
    created_at: datetime


def _load(session: Session, sweep_id: str, caller: Caller, settings: Settings) -> Sweep:
    sweep = session.get(Sweep, sweep_id) if 0 < len(sweep_id) <= 64 and sweep_id.isprintable() else None
    if sweep is None or not visible_to(caller, sweep.owner, settings):
        raise HTTPException(404, f"no sweep with id {sweep_id[:64]!r}")
    return sweep


def _public(session: Session, sweep: Sweep, service: JobService) -> SweepPublic:
    jobs = job_states(session, sweep.job_ids)
    progress, message = sweep_progress(sweep, jobs)
    created = sweep.created_at if sweep.created_at.tzinfo else sweep.created_at.replace(tzinfo=UTC)
    return SweepPublic(id=sweep.id, method=sweep.method, field=sweep.field, values=list(sweep.values),
                       params=dict(sweep.params), status=sweep_status(sweep, jobs), progress=progress, message=message,
                       job_ids=list(sweep.job_ids), rows=[ClaimRow(**r) for r in claim_rows(session, sweep, jobs, _run_module(service, sweep.method))],
                       created_at=created)


def _run_module(service: JobService, method: str) -> str:
    registered = service.registry.get(method)
    return registered.spec.run.__module__ if registered is not None else ""


@router.post("", status_code=202, response_model=SweepPublic, summary="Start a sweep: one run per value of one field")
def create_sweep(body: SweepCreate, request: Request, service: ServiceDep, caller: CallerDep,
                 settings: SettingsDep) -> SweepPublic:
    owner = caller.owner if settings.shared else body.owner
    (field, values), = body.vary.items()
    registered = service.registry.get(body.method)
    if registered is not None and field not in registered.spec.params_model.model_fields:
        raise HTTPException(422, f"vary › {field[:64]!r} is not a parameter of {body.method}")
    try:
        for index, value in enumerate(values):
            try:
                service.validate(body.method, {**body.params, field: value})
            except InvalidParams as exc:
                raise InvalidParams(f"{exc} (sweep value {index + 1}: {field} = {json.dumps(value)[:40]})") from None
        with request.app.state.sessions.begin() as session:
            admit_sweep(session, owner, caller.admin, settings, len(values))
            sweep = Sweep(method=body.method, owner=owner, field=field, values=values,
                          params=service.validate(body.method, body.params), job_ids=[None] * len(values),
                          cancelled=False, created_at=utcnow())
            session.add(sweep)
            session.flush()
            sweep_id = sweep.id
    except (UnknownMethod, InvalidParams) as exc:
        raise HTTPException(422, str(exc)) from None
    except QuotaExceeded as exc:
        raise HTTPException(429, exc.detail, headers={"Retry-After": str(exc.retry_after_s)}) from None
    advance(request.app.state.sessions, service, sweep_id, caller.admin, settings)
    with request.app.state.sessions() as session:
        return _public(session, _load(session, sweep_id, caller, settings), service)


@router.get("/{sweep_id}", response_model=SweepPublic, summary="A sweep's status, runs and per-claim rows")
def get_sweep(sweep_id: str, request: Request, service: ServiceDep, caller: CallerDep,
              settings: SettingsDep) -> SweepPublic:
    with request.app.state.sessions() as session:
        _load(session, sweep_id, caller, settings)
    advance(request.app.state.sessions, service, sweep_id, caller.admin, settings)
    with request.app.state.sessions() as session:
        return _public(session, _load(session, sweep_id, caller, settings), service)


@router.delete("/{sweep_id}", response_model=SweepPublic, summary="Cancel every run of a sweep")
def cancel_sweep(sweep_id: str, request: Request, service: ServiceDep, caller: CallerDep,
                 settings: SettingsDep) -> SweepPublic:
    with request.app.state.sessions.begin() as session:
        sweep = _load(session, sweep_id, caller, settings)
        sweep.cancelled = True
        job_ids = [i for i in sweep.job_ids if i]
    with request.app.state.sessions() as session:
        active = [i for i, (status, _) in job_states(session, job_ids).items() if status in ACTIVE]
    for job_id in active:
        service.cancel(job_id)
    with request.app.state.sessions() as session:
        return _public(session, _load(session, sweep_id, caller, settings), service)


@router.get("/{sweep_id}/rows.csv", response_class=Response, summary="The sweep's per-claim rows as CSV")
def sweep_csv(sweep_id: str, session: SessionDep, service: ServiceDep, caller: CallerDep,
              settings: SettingsDep) -> Response:
    public = _public(session, _load(session, sweep_id, caller, settings), service)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["claim", "quantity", "criterion", "target", public.field, "job_id", "status", "mean", "sd",
                     "seeds", "interval_low", "interval_high", "holds"])
    for row in public.rows:
        low, high = row.interval if row.interval else ("", "")
        writer.writerow([row.claim, row.quantity, row.criterion, "" if row.target is None else row.target,
                         json.dumps(row.value), row.job_id or "", row.status, "" if row.mean is None else row.mean,
                         "" if row.sd is None else row.sd, row.n, low, high, row.holds or ""])
    name = f"{public.method}-sweep-{public.id[:8]}.csv"
    return Response(buffer.getvalue(), media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
