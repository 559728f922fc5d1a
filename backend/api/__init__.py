"""HTTP API: one router per resource."""

from fastapi import APIRouter

from backend.api import admin, health, jobs, methods, reproduce, sessions, sweeps

__all__ = ["api_router"]

api_router = APIRouter()
api_router.include_router(methods.router)
api_router.include_router(jobs.router)
api_router.include_router(reproduce.router)
api_router.include_router(jobs.shared_router)
api_router.include_router(sessions.router)
api_router.include_router(sweeps.router)
api_router.include_router(admin.router)
api_router.include_router(health.router)
