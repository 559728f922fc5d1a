"""The FastAPI app factory: `uvicorn backend.main:app` or `create_app(settings)` in tests."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import timedelta
from typing import Any

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session, sessionmaker
from starlette.middleware.trustedhost import TrustedHostMiddleware

from backend import __version__
from backend.api import api_router
from backend.api.auth import is_admin_token
from backend.hosting.bodylimit import BodyLimit
from backend.hosting.ratelimit import RateLimiter, RateLimitMiddleware
from backend.jobs.runtime import start_jobs
from backend.jobs.store import DATABASE_ERRORS, disk_watch, is_disk_full
from backend.registry import discover
from backend.settings import Settings, get_settings
from db.jobs import JobRepository
from db.session import make_engine, make_session_factory, upgrade_to_head
from db.tables import utcnow
from models.common import torch_device

__all__ = ["app", "create_app"]

log = logging.getLogger("backend")
MAX_BODY_BYTES = 2 * 2**20


def create_app(settings: Settings | None = None) -> FastAPI:
    """The model server: its lifespan (database, registry, executor, dispatcher), error answers, routes and
    the middleware that bounds every request."""
    settings = settings or get_settings()
    app = FastAPI(title="Method Playground model server", version=__version__, lifespan=_lifespan(settings),
                  description="Runs the methods of Method Playground as jobs. See /docs.")
    _add_error_handlers(app)
    app.include_router(api_router)
    # Outermost last: hosts are checked first, then the body size, then the per-address rate.
    app.add_middleware(RateLimitMiddleware, is_admin=is_admin_token)
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)
    if "*" not in settings.allowed_host_list():
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.allowed_host_list())
    app.state.settings = settings
    app.state.rate_limiter = RateLimiter(settings.rate_limit_per_minute) if settings.shared else None
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def _lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Start up: migrate, size the thread pool and the connection pool, drop expired jobs, discover the
    methods and start the jobs machinery; shut down in reverse."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = settings.resolved_database_url
        upgrade_to_head(url)
        # Every API thread (and every job supervisor) gets a connection without waiting for one.
        to_thread.current_default_thread_limiter().total_tokens = settings.api_threads
        engine = make_engine(url, pool_size=settings.db_pool_size, pool_timeout_s=settings.db_pool_timeout_s)
        app.state.engine = engine
        sessions = make_session_factory(engine)
        _delete_expired_jobs(sessions, settings)
        registry = discover(settings.extra_method_modules())
        preload = [method.module for method in registry.ordered()] if settings.preload_methods else []
        app.state.torch_device = torch_device()
        # Recovery (expired leases only), the executor named by EXECUTOR, the dispatcher and the lease heartbeat.
        jobs = start_jobs(settings, sessions, registry, preload, gpu_available=app.state.torch_device == "cuda")
        executor = jobs.executor
        app.state.settings = settings
        app.state.sessions = sessions
        app.state.registry = registry
        app.state.executor = executor
        app.state.instance_id = jobs.instance_id
        app.state.dispatcher = jobs.dispatcher
        app.state.store = jobs.store
        app.state.service = jobs.service
        try:
            yield
        finally:
            jobs.shutdown()
            engine.dispose()

    return lifespan


def _delete_expired_jobs(sessions: sessionmaker[Session], settings: Settings) -> None:
    """Finished jobs older than JOB_RETENTION_DAYS are deleted at start-up (0 keeps them all)."""
    with sessions.begin() as session:
        removed = 0
        if settings.job_retention_days > 0:
            cutoff = utcnow() - timedelta(days=settings.job_retention_days)
            removed = JobRepository(session).delete_finished_before(cutoff)
    if removed:
        log.info("deleted %d job(s) older than %g days", removed, settings.job_retention_days)


def _add_error_handlers(app: FastAPI) -> None:
    """Every error is `{"detail": "<sentence>"}`: readable 422s, 503 with Retry-After for a busy or full
    database, and a logged 500 with no traceback for anything else."""

    @app.exception_handler(RequestValidationError)
    async def readable_422(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [f"{'.'.join(str(p) for p in err['loc'])}: {str(err['msg']).replace('Value error, ', '')}" for err in exc.errors()]
        return JSONResponse({"detail": "; ".join(parts) or "invalid request"}, 422)

    async def database_busy(_request: Request, exc: Exception) -> JSONResponse:
        """A locked, unreachable or full database, or no free pooled connection, is a temporary
        condition: 503 with Retry-After, not 500."""
        log.warning("database unavailable: %s", getattr(exc, "orig", None) or exc)
        disk_watch.saw(exc)
        if is_disk_full(exc):
            return JSONResponse({"detail": "the server's disk is full; try again in a few minutes"}, 503,
                                headers={"Retry-After": "60"})
        return JSONResponse({"detail": "the database is busy; try again in a few seconds"}, 503,
                            headers={"Retry-After": "2"})

    for error in DATABASE_ERRORS:
        app.add_exception_handler(error, database_busy)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return JSONResponse({"detail": "internal server error"}, 500)


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI schema, agreeing with the answers: every error is `{"detail": "<sentence>"}` (FastAPI's
    default 422 schema is a list of objects; our validation handler answers one readable string)."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    error_ref = {"$ref": "#/components/schemas/ErrorPublic"}
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    components.setdefault("ErrorPublic", {"title": "ErrorPublic", "type": "object", "required": ["detail"],
                                          "properties": {"detail": {"title": "Detail", "type": "string"}}})
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            responses = operation.get("responses", {})
            for code in ("400", "409", "422", "413", "429", "503"):
                responses[code] = {"description": responses.get(code, {}).get("description", "Error"),
                                   "content": {"application/json": {"schema": error_ref}}}
    app.openapi_schema = schema
    return schema


app = create_app()
