"""Who is calling: the open (one local user) mode, or bearer tokens on the shared instance.

In `ACCESS_MODE=shared` every route that depends on `CallerDep` needs `Authorization: Bearer <token>`
(401 with a JSON detail otherwise); a caller sees only their own jobs unless they are an admin.
Token lookups are cached for a few seconds, so a poll does not pay a database read for its token;
a revoked token therefore stops working within `TOKEN_CACHE_S`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from backend.hosting.ratelimit import client_address, enforce_rate_limit
from backend.settings import Settings
from db.identities import IdentityRepository, hash_token

__all__ = ["Caller", "CallerDep", "OPEN_CALLER", "forget_tokens", "get_caller", "is_admin_token", "lookup_token",
           "visible_to"]

TOKEN_CACHE_S = 5.0
_bearer = HTTPBearer(auto_error=False, description="A token from POST /api/sessions or `backend.cli tokens create`.")


@dataclass(frozen=True)
class Caller:
    """The identity behind a request: `owner` is what its jobs store; admins see and cancel every job."""

    owner: str
    name: str
    admin: bool
    authenticated: bool
    address: str = ""


OPEN_CALLER = Caller(owner="", name="local", admin=True, authenticated=False)

_cache: dict[str, tuple[float, Caller | None]] = {}
_cache_lock = threading.Lock()


def forget_tokens() -> None:
    """Drop the token cache (after a revocation in this process, and in tests)."""
    with _cache_lock:
        _cache.clear()


def _cached(token: str) -> tuple[bool, Caller | None]:
    """(found, caller) from the token cache, without touching the database."""
    with _cache_lock:
        hit = _cache.get(hash_token(token))
    if hit is not None and hit[0] > time.monotonic():
        return True, hit[1]
    return False, None


def lookup_token(sessions: sessionmaker[Session], token: str) -> Caller | None:
    """The caller behind `token` (cached for TOKEN_CACHE_S; a blocking database read on a miss)."""
    found, caller = _cached(token)
    if found:
        return caller
    digest = hash_token(token)
    now = time.monotonic()
    with sessions() as session:
        identity = IdentityRepository(session).by_token(token)
        caller = None if identity is None else Caller(owner=identity.id, name=identity.name, admin=identity.admin,
                                                     authenticated=True)
    with _cache_lock:
        if len(_cache) > 50_000:
            _cache.clear()
        _cache[digest] = (now + TOKEN_CACHE_S, caller)
    return caller


async def _lookup(request: Request, token: str) -> Caller | None:
    """lookup_token off the event loop: a cache miss reads the database in the thread pool."""
    found, caller = _cached(token)
    if found:
        return caller
    return await run_in_threadpool(lookup_token, request.app.state.sessions, token)


async def is_admin_token(app: Any, authorization: bytes, may_read: Callable[[], bool] = lambda: True) -> bool:
    """Whether an `Authorization` header value carries a live admin token (RateLimitMiddleware lets
    those pass an exhausted address budget; any other header, junk included, counts against it).
    A token not in the cache is read from the database only when `may_read()` allows it (the
    middleware's own per-address budget of lookups), so junk tokens over the limit cost no read."""
    scheme, _, token = authorization.decode("latin-1").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 256:
        return False
    found, caller = _cached(token)
    if not found:
        if not may_read():
            return False
        caller = await run_in_threadpool(lookup_token, app.state.sessions, token)
    return caller is not None and caller.admin


async def get_caller(request: Request,
               credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> Caller:
    """The caller of this request; in shared mode a missing or unknown token is a 401 (the request
    was already counted against its address by RateLimitMiddleware)."""
    settings: Settings = request.app.state.settings
    address = client_address(request)
    if not settings.shared:
        return Caller(OPEN_CALLER.owner, OPEN_CALLER.name, OPEN_CALLER.admin, False, address)
    if credentials is None or credentials.scheme.lower() != "bearer" or not credentials.credentials:
        raise HTTPException(401, "this server needs a token: send 'Authorization: Bearer <token>' "
                                 "(POST /api/sessions gives an anonymous one)", headers={"WWW-Authenticate": "Bearer"})
    caller = await _lookup(request, credentials.credentials)
    if caller is None:
        raise HTTPException(401, "unknown, revoked or expired token", headers={"WWW-Authenticate": "Bearer"})
    caller = Caller(caller.owner, caller.name, caller.admin, True, address)
    if not caller.admin:
        enforce_rate_limit(request, f"identity:{caller.owner}")
    return caller


CallerDep = Annotated[Caller, Depends(get_caller)]


def visible_to(caller: Caller, owner: str, settings: Settings) -> bool:
    """Whether `caller` may see a job owned by `owner` (everyone in open mode)."""
    return not settings.shared or caller.admin or owner == caller.owner
