"""Request dependencies: one database session per request, the service and the registry."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from backend.jobs.service import JobService
from backend.registry import Registry
from backend.settings import Settings

__all__ = ["RegistryDep", "ServiceDep", "SessionDep", "SettingsDep"]


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
