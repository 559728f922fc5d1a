"""Request dependencies: one database session per request, the service and the registry, and the
guard every router puts on its path parameters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from sqlalchemy.orm import Session

from backend.jobs.service import JobService
from backend.registry import Registry
from backend.settings import Settings

__all__ = ["RegistryDep", "ServiceDep", "SessionDep", "SettingsDep", "clean_path"]


def clean_path(request: Request) -> None:
    """404 for a path parameter holding a control character (NUL, ESC, DEL...): nothing by that name
    exists, and the store never sees it (PostgreSQL refuses NUL in text with an error)."""
    for value in request.path_params.values():
        if any(ord(char) < 32 or ord(char) == 127 for char in str(value)):
            raise HTTPException(404, "not found (the path holds a control character)")


def get_session(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as session:
        yield session


def get_service(request: Request) -> JobService:
    return request.app.state.service  # type: ignore[no-any-return]


def get_registry(request: Request) -> Registry:
    return request.app.state.registry  # type: ignore[no-any-return]


def get_settings(request: Request) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]


SessionDep = Annotated[Session, Depends(get_session)]
ServiceDep = Annotated[JobService, Depends(get_service)]
RegistryDep = Annotated[Registry, Depends(get_registry)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
