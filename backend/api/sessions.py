"""Identities seen from the API: anonymous sessions for browsers, and who the caller is."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials

from backend.api.auth import _bearer, _lookup
from backend.api.deps import SessionDep, SettingsDep
from backend.api.schemas import ERROR_RESPONSES, MePublic, SessionCreated
from backend.hosting.ratelimit import client_address
from db.identities import IdentityRepository
from db.session import begin_exclusive
from db.tables import utcnow

router = APIRouter(prefix="/api", tags=["sessions"], responses=ERROR_RESPONSES)


@router.post("/sessions", response_model=SessionCreated, status_code=201,
             summary="An anonymous token for one browser session (rate limited per client address)")
def create_session(request: Request, session: SessionDep, settings: SettingsDep) -> SessionCreated:
    address = client_address(request)
    hour_ago = utcnow() - timedelta(hours=1)
    begin_exclusive(session)  # count and insert under one writer: parallel requests cannot pass the limit together
    repo = IdentityRepository(session)
    opened, oldest = repo.sessions_from(address, hour_ago)
    if opened >= settings.sessions_per_hour:
        # The moving window frees its oldest session an hour after it was opened.
        wait = 60 if oldest is None else max(1, math.ceil((oldest - hour_ago).total_seconds()))
        session.rollback()
        raise HTTPException(429, f"too many new sessions from your address (the limit is {settings.sessions_per_hour} "
                                 f"per hour); reuse your token or try again in {wait} s",
                            headers={"Retry-After": str(wait)})
    identity, token = repo.create("anonymous", "anonymous", client_address=address,
                                  ttl=timedelta(hours=settings.session_ttl_hours))
    session.commit()
    assert identity.expires_at is not None
    return SessionCreated(token=token, expires_at=identity.expires_at)


@router.get("/me", response_model=MePublic, summary="The access mode, and who the token (if any) belongs to")
async def me(request: Request, settings: SettingsDep,
             credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> MePublic:
    if not settings.shared:
        return MePublic(name="local", admin=True, access_mode=settings.access_mode)
    caller = await _lookup(request, credentials.credentials) if credentials is not None else None
    if caller is None:
        return MePublic(name="", admin=False, access_mode=settings.access_mode)
    return MePublic(name=caller.name, admin=caller.admin, access_mode=settings.access_mode)
