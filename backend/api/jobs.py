"""Jobs: submit, poll, cancel, history, artifacts and the export bundle."""

from __future__ import annotations

import io
import json
import re
import zipfile
from typing import Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from backend.api.deps import ServiceDep, SessionDep
from backend.api.schemas import JobCreate, JobCreated, JobPublic, JobsPublic, VerdictPublic
from backend.jobs.service import InvalidParams, UnknownMethod
from db.jobs import JobRepository
from db.tables import Job

router = APIRouter(prefix="/api/jobs", tags=["jobs"])

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def _public(job: Job, artifacts: list[str], full: bool) -> JobPublic:
    return JobPublic(
        id=job.id, method=job.method, status=job.status, progress=job.progress, message=job.message,
        owner=job.owner, params=job.params, summary=job.summary or "",
        verdict=(VerdictPublic(label=job.verdict, tone=job.verdict_tone or "info", detail=job.verdict_detail or "")
                 if job.verdict else None),
        created_at=job.created_at, started_at=job.started_at,
        finished_at=job.finished_at, error=job.error, artifacts=artifacts,
        result=job.result if full else None, metrics=job.metrics if full else None,
        figures=job.figures if full else None,
    )


def _load(session: Session, job_id: str) -> Job:
    job = JobRepository(session).get(job_id)
    if job is None:
        raise HTTPException(404, f"no job with id {job_id!r}")
    return job


@router.post("", status_code=202, response_model=JobCreated, summary="Submit a job")
def create_job(body: JobCreate, service: ServiceDep) -> JobCreated:
    try:
        job_id = service.submit(body.method, body.params, body.owner)
    except (UnknownMethod, InvalidParams) as exc:
        raise HTTPException(422, str(exc)) from None
    return JobCreated(id=job_id, status="queued")


@router.get("", response_model=JobsPublic, summary="Earlier jobs, newest first")
def list_jobs(
    session: SessionDep,
    method: str | None = Query(None, max_length=64),
    owner: str | None = Query(None, max_length=64),
    limit: int = Query(20, ge=1, le=200),
    verdict: str | None = Query(None, max_length=64, description="Only runs with this verdict (e.g. Refuted)."),
) -> JobsPublic:
    rows, count = JobRepository(session).list_jobs(method=method, owner=owner, limit=limit, verdict=verdict)
    return JobsPublic(data=[_public(job, [], full=False) for job in rows], count=count)


def _read_job(sessions: sessionmaker[Session], job_id: str, full: bool) -> JobPublic:
    with sessions() as session:
        job = _load(session, job_id)
        names = JobRepository(session).artifact_names(job_id) if full else []
        return _public(job, sorted(names), full=full)


@router.get("/{job_id}", response_model=JobPublic, summary="Status, progress and (when done) the result")
async def get_job(job_id: str, request: Request, view: Literal["full", "status"] = "full") -> JobPublic:
    """`view=status` (what pages poll) is one indexed read of small columns: it runs on the event
    loop, sparing two thread hops per poll; SQLite in WAL mode never blocks a reader on a writer.
    The full view reads the large result and figure columns in the thread pool."""
    sessions = request.app.state.sessions
    if view == "status":
        return _read_job(sessions, job_id, full=False)
    return await run_in_threadpool(_read_job, sessions, job_id, True)


@router.delete("/{job_id}", response_model=JobCreated, summary="Cancel a queued or running job")
def cancel_job(job_id: str, service: ServiceDep) -> JobCreated:
    status = service.cancel(job_id)
    if status is None:
        raise HTTPException(404, f"no job with id {job_id!r}")
    return JobCreated(id=job_id, status=status)


@router.get("/{job_id}/artifacts/{name}", summary="Download one artifact", response_class=Response)
def get_artifact(job_id: str, name: str, session: SessionDep) -> Response:
    job = _load(session, job_id)
    artifact = JobRepository(session).artifact(job_id, name)
    if artifact is None:
        raise HTTPException(404, f"job {job_id} has no artifact {name!r}")
    filename = f"{job.method}-{job.id[:8]}-{_SAFE_NAME.sub('_', artifact.name)}"
    return Response(artifact.content, media_type=artifact.media_type,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.get("/{job_id}/export.zip", summary="Params, result, every artifact and every figure in one zip",
            response_class=Response)
def export_zip(job_id: str, session: SessionDep) -> Response:
    job = _load(session, job_id)
    artifacts = JobRepository(session).artifacts(job_id)
    content = build_export(job, [(a.name, a.content) for a in artifacts])
    filename = f"{job.method}-{job.id[:8]}.zip"
    return Response(content, media_type="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def build_export(job: Job, artifacts: list[tuple[str, bytes]]) -> bytes:
    """params.json, job.json (status, verdict, metrics), result.json, artifacts/*, figures/*.json and
    figures/*.html (each page loads figures/plotly.min.js, shipped once in the zip, so it opens offline)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("params.json", json.dumps({"method": job.method, "params": job.params}, indent=2))
        bundle.writestr("job.json", json.dumps({
            "id": job.id, "method": job.method, "status": job.status, "error": job.error, "summary": job.summary,
            "verdict": {"label": job.verdict, "tone": job.verdict_tone, "detail": job.verdict_detail} if job.verdict else None,
            "created_at": job.created_at.isoformat(), "finished_at": job.finished_at, "metrics": job.metrics,
        }, indent=2, default=str))
        if job.result is not None:
            bundle.writestr("result.json", json.dumps(job.result, indent=2))
        for name, content in artifacts:
            bundle.writestr(f"artifacts/{_SAFE_NAME.sub('_', name)}", content)
        figures = job.figures or {}
        for name, spec in figures.items():
            safe = _SAFE_NAME.sub("_", name)
            bundle.writestr(f"figures/{safe}.json", json.dumps(spec))
            bundle.writestr(f"figures/{safe}.html", _figure_html(spec))
        if figures:
            bundle.writestr("figures/plotly.min.js", _plotly_js())
    return buffer.getvalue()


def _figure_html(spec: dict[str, object]) -> str:
    import plotly.io as pio

    return str(pio.to_html(pio.from_json(json.dumps(spec), skip_invalid=True), include_plotlyjs="directory",
                           full_html=True))


def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return str(get_plotlyjs())
