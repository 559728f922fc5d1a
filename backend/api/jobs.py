"""Jobs: submit, poll, cancel, history, artifacts, the export bundle and read-only share links.

In the shared mode a job is visible only to its owner (and admins): a job of another owner answers
404 on every route, exactly like a job that does not exist.
"""

from __future__ import annotations

import io
import json
import re
import statistics
import zipfile
from datetime import UTC
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from sqlalchemy.orm import Session, sessionmaker

from backend.api.auth import Caller, CallerDep, visible_to
from backend.api.deps import ServiceDep, SessionDep, SettingsDep
from backend.api.exportcache import export_cache
from backend.api.schemas import (
    ERROR_RESPONSES,
    JobCreate,
    JobCreated,
    JobListItem,
    JobPublic,
    JobsPublic,
    ShareCreated,
    VerdictKind,
    VerdictPublic,
)
from backend.hosting.quotas import QuotaExceeded, admit
from backend.jobs.reproduce import add_to_export as add_reproduce
from backend.jobs.service import InvalidParams, UnknownMethod
from backend.settings import Settings
from db.identities import ShareLinkRepository
from db.jobs import JobRepository
from db.status import ACTIVE, JobStatus
from db.tables import Job

router = APIRouter(prefix="/api/jobs", tags=["jobs"], responses=ERROR_RESPONSES)
shared_router = APIRouter(prefix="/api/shared", tags=["shared"], responses=ERROR_RESPONSES)

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
MAX_LIST = 100
_PRINTABLE_ID = re.compile(r"[!-~]{1,64}")  # ids are UUIDs; anything else (NUL included) is simply not found
_NO_CONTROL = r"^[^\x00-\x1f\x7f]*$"


def _verdict(job: Job) -> VerdictPublic | None:
    if not job.verdict:
        return None
    kind = job.verdict_kind or "answer"
    tone = job.verdict_tone if job.verdict_tone in ("success", "info", "warning", "error") else "info"
    return VerdictPublic(kind=kind, tone=tone, label=job.verdict if kind == "answer" else "",
                         held=job.verdict_held or 0, tested=job.verdict_tested or 0,
                         headline=job.verdict_headline or 0, seeds=job.verdict_seeds or 0,
                         beaten_by=list(job.verdict_beaten_by or []), metric=job.verdict_metric or "",
                         detail=job.verdict_detail or "")


def _public(job: Job, artifacts: list[str], full: bool, owner: bool = True) -> JobPublic:
    return JobPublic(
        id=job.id, method=job.method, status=job.status, progress=job.progress, message=job.message,
        owner=job.owner if owner else "", params=job.params, summary=job.summary or "", example=job.example,
        verdict=_verdict(job),
        created_at=job.created_at, started_at=job.started_at,
        finished_at=job.finished_at, error=job.error, artifacts=artifacts,
        result=job.result if full else None, metrics=job.metrics if full else None,
        tables=(job.tables or []) if full else None, figures=job.figures if full else None,
    )


def _list_item(job: Job) -> JobListItem:
    return JobListItem(id=job.id, method=job.method, status=job.status, progress=job.progress, message=job.message,
                       owner=job.owner, summary=job.summary or "", example=job.example, verdict=_verdict(job),
                       created_at=job.created_at,
                       started_at=job.started_at, finished_at=job.finished_at, error=job.error)


def _load(session: Session, job_id: str, caller: Caller, settings: Settings) -> Job:
    job = JobRepository(session).get(job_id) if _PRINTABLE_ID.fullmatch(job_id) else None
    if job is None or not visible_to(caller, job.owner, settings):
        raise HTTPException(404, f"no job with id {job_id[:64]!r}")
    return job


@router.post("", status_code=202, response_model=JobCreated, summary="Submit a job")
def create_job(body: JobCreate, service: ServiceDep, caller: CallerDep, settings: SettingsDep) -> JobCreated:
    owner = caller.owner if settings.shared else body.owner
    try:
        job_id = service.submit(body.method, body.params, owner, example=body.example,
                                admit=lambda session: admit(session, owner, caller.admin, settings))
    except (UnknownMethod, InvalidParams) as exc:
        raise HTTPException(422, str(exc)) from None
    except QuotaExceeded as exc:
        raise HTTPException(429, exc.detail, headers={"Retry-After": str(exc.retry_after_s)}) from None
    return JobCreated(id=job_id, status=JobStatus.QUEUED)


@router.get("", response_model=JobsPublic, summary="Earlier jobs, newest first (without params and results)")
def list_jobs(
    session: SessionDep,
    caller: CallerDep,
    settings: SettingsDep,
    method: str | None = Query(None, max_length=64, pattern=_NO_CONTROL),
    owner: str | None = Query(None, max_length=64, pattern=_NO_CONTROL,
                              description="Open mode: a browser's id; shared mode: admins only."),
    limit: int = Query(20, ge=1, le=MAX_LIST),
    offset: int = Query(0, ge=0, le=1_000_000),
    verdict: str | None = Query(None, max_length=64, pattern=_NO_CONTROL,
                                description="Only runs with this answer (a core demo's word, e.g. Refuted)."),
    kind: Annotated[VerdictKind | None, Query(description="Only runs whose verdict is of this kind.")] = None,
    example: str | None = Query(None, max_length=200, pattern=_NO_CONTROL,
                                description="Only runs started from this example unchanged."),
) -> JobsPublic:
    if settings.shared and not caller.admin:
        owner = caller.owner
    rows, count = JobRepository(session).list_jobs(method=method, owner=owner, limit=limit, verdict=verdict,
                                                   offset=offset, kind=kind, example=example)
    return JobsPublic(data=[_list_item(job) for job in rows], count=count)


def _read_job(sessions: sessionmaker[Session], job_id: str, full: bool, caller: Caller, settings: Settings) -> JobPublic:
    with sessions() as session:
        job = _load(session, job_id, caller, settings)
        repository = JobRepository(session)
        names = repository.artifact_names(job_id) if full else []
        public = _public(job, sorted(names), full=full)
        if job.status == JobStatus.QUEUED:
            public.queue_position = repository.queue_position(job_id)
            recent = repository.recent_seconds()
            if recent and public.queue_position is not None:
                median = statistics.median(recent)
                public.queue_wait_s = round(median * (public.queue_position + 1) / max(settings.max_workers, 1), 1)
        return public


@router.get("/{job_id}", response_model=JobPublic, summary="Status, progress and (when done) the result")
def get_job(job_id: str, request: Request, caller: CallerDep, view: Literal["full", "status"] = "full") -> JobPublic:
    """`view=status` (what pages poll) reads the small columns only, the full view the result and
    figures too; both in the thread pool, never on the event loop: a database that makes a read
    wait (a pool, a lock) then delays that request only, not every connection of the server."""
    return _read_job(request.app.state.sessions, job_id, view == "full", caller, request.app.state.settings)


@router.delete("/{job_id}", response_model=JobCreated, summary="Cancel a queued or running job")
def cancel_job(job_id: str, service: ServiceDep, session: SessionDep, caller: CallerDep,
               settings: SettingsDep) -> JobCreated:
    _load(session, job_id, caller, settings)
    session.close()
    status = service.cancel(job_id)
    if status is None:
        raise HTTPException(404, f"no job with id {job_id[:64]!r}")
    return JobCreated(id=job_id, status=status)


@router.delete("/{job_id}/record", status_code=204, response_class=Response,
               summary="Delete a finished run: its result, artifacts and share links (cancel a running one first)")
def delete_run(job_id: str, session: SessionDep, caller: CallerDep, settings: SettingsDep) -> Response:
    job = _load(session, job_id, caller, settings)
    if job.status in ACTIVE:
        raise HTTPException(409, f"the run {job_id[:8]} is still {job.status}; cancel it first")
    JobRepository(session).delete_finished(job.id)
    session.commit()
    return Response(status_code=204)


def _artifact_response(session: Session, job: Job, name: str) -> Response:
    artifact = JobRepository(session).artifact(job.id, name)
    if artifact is None:
        raise HTTPException(404, f"job {job.id} has no artifact {name[:128]!r}")
    filename = f"{job.method}-{job.id[:8]}-{_SAFE_NAME.sub('_', artifact.name)}"
    return Response(artifact.content, media_type=artifact.media_type,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _export_response(session: Session, job: Job) -> Response:
    def build() -> bytes:
        artifacts = JobRepository(session).artifacts(job.id)
        return build_export(job, [(a.name, a.content) for a in artifacts])

    # A finished run never changes: its archive is built once per process (a share link is no CPU tap).
    content = (export_cache.get_or_build((job.id, str(job.finished_at)), build) if job.status not in ACTIVE
               else build())
    filename = f"{job.method}-{job.id[:8]}.zip"
    return Response(content, media_type="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.get("/{job_id}/artifacts/{name}", summary="Download one artifact", response_class=Response)
def get_artifact(job_id: str, name: str, session: SessionDep, caller: CallerDep, settings: SettingsDep) -> Response:
    return _artifact_response(session, _load(session, job_id, caller, settings), name)


@router.get("/{job_id}/export.zip", summary="Params, result, every artifact and every figure in one zip",
            response_class=Response)
def export_zip(job_id: str, session: SessionDep, caller: CallerDep, settings: SettingsDep) -> Response:
    return _export_response(session, _load(session, job_id, caller, settings))


@router.post("/{job_id}/share", response_model=ShareCreated, status_code=201,
             summary="A read-only link to this job's result (GET /api/shared/{link})")
def share_job(job_id: str, session: SessionDep, caller: CallerDep, settings: SettingsDep) -> ShareCreated:
    job = _load(session, job_id, caller, settings)
    link = ShareLinkRepository(session).create(job.id)
    session.commit()
    return ShareCreated(link=link, url=f"{settings.public_url.rstrip('/')}/{job.method}?share={link}")


def _shared_job(session: Session, link: str) -> Job:
    job_id = ShareLinkRepository(session).job_id(link)
    job = JobRepository(session).get(job_id) if job_id else None
    if job is None:
        raise HTTPException(404, "no such share link (it may have been revoked)")
    return job


@shared_router.get("/{link}", response_model=JobPublic, summary="A shared job's result, read-only, no token needed")
def get_shared(link: str, session: SessionDep) -> JobPublic:
    job = _shared_job(session, link)
    return _public(job, sorted(JobRepository(session).artifact_names(job.id)), full=True, owner=False)


@shared_router.get("/{link}/artifacts/{name}", summary="One artifact of a shared job", response_class=Response)
def get_shared_artifact(link: str, name: str, session: SessionDep) -> Response:
    return _artifact_response(session, _shared_job(session, link), name)


@shared_router.get("/{link}/export.zip", summary="The export bundle of a shared job", response_class=Response)
def get_shared_export(link: str, session: SessionDep) -> Response:
    return _export_response(session, _shared_job(session, link))


@shared_router.delete("/{link}", status_code=204, summary="Revoke a share link (its job's owner or an admin)",
                      response_class=Response)
def revoke_shared(link: str, session: SessionDep, caller: CallerDep, settings: SettingsDep) -> Response:
    job = _shared_job(session, link)
    if not visible_to(caller, job.owner, settings):
        raise HTTPException(404, "no such share link (it may have been revoked)")
    ShareLinkRepository(session).revoke(link)
    session.commit()
    return Response(status_code=204)


def build_export(job: Job, artifacts: list[tuple[str, bytes]]) -> bytes:
    """params.json, job.json (status, verdict, metrics), result.json, artifacts/*, figures/*.json and
    figures/*.html (each page loads figures/plotly.min.js, shipped once in the zip, so it opens offline)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("params.json", json.dumps({"method": job.method, "params": job.params}, indent=2))
        created = job.created_at if job.created_at.tzinfo else job.created_at.replace(tzinfo=UTC)
        bundle.writestr("job.json", json.dumps({
            "id": job.id, "method": job.method, "status": job.status, "error": job.error, "summary": job.summary,
            "verdict": verdict.model_dump() if (verdict := _verdict(job)) is not None else None,
            "created_at": created.isoformat(), "finished_at": job.finished_at, "metrics": job.metrics,
        }, indent=2, default=str))
        if job.result is not None:
            bundle.writestr("result.json", json.dumps(job.result, indent=2))
            add_reproduce(bundle, job.method, dict(job.params), job.id, sorted(job.figures or {}))
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
