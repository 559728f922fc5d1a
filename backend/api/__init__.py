"""HTTP API: one router per resource."""

from fastapi import APIRouter, Depends

from backend.api import admin, health, home, jobs, methods, reproduce, sessions, sweeps
from backend.api.deps import clean_path

__all__ = ["api_router"]

# every route: a control character in a path parameter is a 404 before any handler or store sees it
api_router = APIRouter(dependencies=[Depends(clean_path)])
api_router.include_router(methods.router)
api_router.include_router(jobs.router)
api_router.include_router(reproduce.router)
api_router.include_router(jobs.shared_router)
api_router.include_router(sessions.router)
api_router.include_router(sweeps.router)
api_router.include_router(admin.router)
api_router.include_router(health.router)
api_router.include_router(home.router)
