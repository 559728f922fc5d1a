"""`GET /api/jobs/{id}/reproduce.py`: the run's reproduce script alone (also inside its export.zip)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from backend.api.auth import CallerDep
from backend.api.deps import SessionDep, SettingsDep
from backend.api.jobs import _load
from backend.api.schemas import ERROR_RESPONSES
from backend.jobs.reproduce import script_for

__all__ = ["router"]

router = APIRouter(prefix="/api/jobs", tags=["jobs"], responses=ERROR_RESPONSES)


@router.get("/{job_id}/reproduce.py", response_class=Response,
            summary="A script that re-runs this run through the library and checks it against its result.json")
def reproduce_script(job_id: str, session: SessionDep, caller: CallerDep, settings: SettingsDep) -> Response:
    job = _load(session, job_id, caller, settings)
    filename = f"{job.method}-{job.id[:8]}-reproduce.py"
    return Response(script_for(job.method, dict(job.params), job.id), media_type="text/x-python",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
