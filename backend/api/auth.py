"""Who is calling: the open (one local user) mode, or bearer tokens on the shared instance.

In `ACCESS_MODE=shared` every route that depends on `CallerDep` needs `Authorization: Bearer <token>`
(401 with a JSON detail otherwise); a caller sees only their own jobs unless they are an admin.
Token lookups are cached for a few seconds, so a poll does not pay a database read for its token;
a revoked token therefore stops working within `TOKEN_CACHE_S`.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from backend.hosting.ratelimit import client_address, enforce_rate_limit
from backend.settings import Settings
from db.identities import IdentityRepository, hash_token

__all__ = ["Caller", "CallerDep", "OPEN_CALLER", "forget_tokens", "get_caller", "visible_to"]

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


def _lookup(request: Request, token: str) -> Caller | None:
    digest = hash_token(token)
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(digest)
    if hit is not None and hit[0] > now:
        return hit[1]
    with request.app.state.sessions() as session:
        identity = IdentityRepository(session).by_token(token)
        caller = None if identity is None else Caller(owner=identity.id, name=identity.name, admin=identity.admin,
                                                     authenticated=True)
    with _cache_lock:
        if len(_cache) > 50_000:
            _cache.clear()
        _cache[digest] = (now + TOKEN_CACHE_S, caller)
    return caller


async def get_caller(request: Request,
               credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> Caller:
    """The caller of this request; in shared mode a missing or unknown token is a 401."""
    settings: Settings = request.app.state.settings
    address = client_address(request)
    if not settings.shared:
        return Caller(OPEN_CALLER.owner, OPEN_CALLER.name, OPEN_CALLER.admin, False, address)
    if credentials is None or credentials.scheme.lower() != "bearer" or not credentials.credentials:
        raise HTTPException(401, "this server needs a token: send 'Authorization: Bearer <token>' "
                                 "(POST /api/sessions gives an anonymous one)", headers={"WWW-Authenticate": "Bearer"})
    caller = _lookup(request, credentials.credentials)
    if caller is None:
        raise HTTPException(401, "unknown, revoked or expired token", headers={"WWW-Authenticate": "Bearer"})
    caller = Caller(caller.owner, caller.name, caller.admin, True, address)
    if not caller.admin:
        enforce_rate_limit(request, f"identity:{caller.owner}")
        enforce_rate_limit(request, f"address:{address}")
    return caller


CallerDep = Annotated[Caller, Depends(get_caller)]


def visible_to(caller: Caller, owner: str, settings: Settings) -> bool:
    """Whether `caller` may see a job owned by `owner` (everyone in open mode)."""
    return not settings.shared or caller.admin or owner == caller.owner
