"""GET /healthz: liveness, the database, the disk, the executor and its resources.

It names no host and no process: `instance` is an opaque tag of this server's lease id."""

from __future__ import annotations

import hashlib
import shutil

from fastapi import APIRouter, Request
from sqlalchemy import text

from backend import __version__
from backend.api.deps import SessionDep, SettingsDep
from backend.api.schemas import Health
from backend.jobs.store import disk_watch
from backend.settings import Settings

router = APIRouter(tags=["health"])


def _disk_ok(settings: Settings) -> bool:
    """Enough free space in the data folder (SQLite, job scratch), and no recent disk-full refusal."""
    try:
        free_mb = shutil.disk_usage(settings.data_dir).free / 2**20
    except OSError:
        free_mb = float("inf")  # no data folder (yet): nothing to report
    return free_mb >= settings.min_free_disk_mb and not disk_watch.full()


@router.get("/healthz", response_model=Health, summary="Liveness, database, disk, executor and its resources")
def healthz(request: Request, session: SessionDep, settings: SettingsDep) -> Health:
    try:
        session.execute(text("SELECT 1"))
        database = True
    except Exception:  # noqa: BLE001 - reported as database: false
        database = False
    disk_ok = _disk_ok(settings)
    store = getattr(request.app.state, "store", None)
    pending = len(store.pending()) if store is not None else 0
    executor = request.app.state.executor
    tag = hashlib.sha256(str(request.app.state.instance_id).encode()).hexdigest()[:12]
    return Health(ok=database and disk_ok and not pending, version=__version__, database=database,
                  disk_ok=disk_ok, pending_results=pending, executor=executor.name,
                  workers=executor.workers, torch_device=request.app.state.torch_device,
                  methods=len(request.app.state.registry), instance=tag,
                  resources=executor.resources(), executor_detail=executor.describe())
