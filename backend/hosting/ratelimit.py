"""Request rate limits per identity and per client address (the `limits` library, moving window).

Only the shared mode limits requests: a laptop in the open mode polls freely. Every request but an
admin's is counted per client address by `RateLimitMiddleware`, before any route runs: requests
without a token, with a junk `Authorization` header, and those answered 401 alike. Requests with a
valid token are also counted per identity in `get_caller`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import HTTPException, Request
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["RateLimitMiddleware", "RateLimiter", "client_address", "enforce_rate_limit"]


class RateLimiter:
    """`hit(key)` -> seconds to wait (0 when the request may pass), `per_minute` requests per key."""

    def __init__(self, per_minute: int) -> None:
        self.item = RateLimitItemPerMinute(per_minute)
        self.strategy = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, key: str) -> int:
        if self.strategy.hit(self.item, key):
            return 0
        reset_at, _remaining = self.strategy.get_window_stats(self.item, key)
        return max(1, math.ceil(reset_at - time.time()))


def client_address(request: Request) -> str:
    client = request.client
    return client.host if client is not None else "unknown"


def _too_many(wait_s: int) -> HTTPException:
    return HTTPException(429, f"too many requests: the limit is per minute; retry in {wait_s} s",
                         headers={"Retry-After": str(wait_s)})


def enforce_rate_limit(request: Request, key: str) -> None:
    """Raise 429 with Retry-After when `key` is over the shared instance's request rate."""
    limiter: RateLimiter | None = getattr(request.app.state, "rate_limiter", None)
    if limiter is None:
        return
    wait = limiter.hit(key)
    if wait:
        raise _too_many(wait)


class RateLimitMiddleware:
    """Limits every request per client address (shared mode only). Admins pass an exhausted budget
    (unless their own address has also spent its lookup budget on unknown tokens): only a
    request over its address's budget that carries an `Authorization` header pays for the token
    lookup (`is_admin(app, header, may_read)`, cached), and uncached lookups over the budget have a
    budget of their own per address (`token-lookup:`), so junk tokens cannot buy database reads."""

    def __init__(self, app: ASGIApp, is_admin: Callable[[Any, bytes, Callable[[], bool]], Awaitable[bool]]) -> None:
        self.app = app
        self.is_admin = is_admin

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            limiter: RateLimiter | None = getattr(scope["app"].state, "rate_limiter", None)
            if limiter is not None:
                client = scope.get("client")
                address = client[0] if client else "unknown"
                wait = limiter.hit(f"address:{address}")
                authorization = next((value for name, value in scope["headers"] if name == b"authorization"), b"")
                if wait and not (authorization and await self.is_admin(
                        scope["app"], authorization, lambda: not limiter.hit(f"token-lookup:{address}"))):
                    response = JSONResponse({"detail": f"too many requests: retry in {wait} s"}, 429,
                                            headers={"Retry-After": str(wait)})
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)
