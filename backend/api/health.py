"""GET /healthz."""

from __future__ import annotations

from fastapi import APIRouter, Request
from sqlalchemy import text

from backend import __version__
from backend.api.deps import SessionDep, SettingsDep
from backend.api.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, summary="Liveness, database, executor and its resources")
def healthz(request: Request, session: SessionDep, settings: SettingsDep) -> Health:
    try:
        session.execute(text("SELECT 1"))
        database = True
    except Exception:  # noqa: BLE001 - reported as database: false
        database = False
    executor = request.app.state.executor
    return Health(ok=database, version=__version__, database=database, executor=executor.name,
                  workers=executor.workers, torch_device=request.app.state.torch_device,
                  methods=len(request.app.state.registry), instance=request.app.state.instance_id,
                  resources=executor.resources(), executor_detail=executor.describe())
