"""The model server's own guard on request heads (shared mode): a time limit and a size limit.

`bounded_h11(timeout_s, max_bytes)` is uvicorn's h11 protocol with two additions:

- a **header timeout**: a connection must deliver a whole request head within `timeout_s` of being
  opened (or of sending the first byte of its next request); an idle or slow (slowloris) connection
  is closed then, so such clients cannot hold the server's connection slots;
- a **head cap**: a head longer than `max_bytes` is answered `431 Request Header Fields Too Large`
  and the connection closed, however the head arrives (h11's own limit only bounds a head that is
  still incomplete, so one that came in a single read was parsed whole);
- a **body timeout** (issue 45, N4): once the head is in, the whole body must arrive within
  `body_timeout_s` (a trickled `Content-Length` or chunked body is answered 408 and closed);
- a **per-address connection cap**: a peer outside `trusted` (the proxy and the front end, which
  carry many people) holds at most `per_address` connections; more are closed at once, so a few
  addresses cannot fill `LIMIT_CONCURRENCY` and make the server answer 503 to everyone.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["bounded_h11"]

_END = b"\r\n\r\n"


def _refusal(status: str, detail: str) -> bytes:
    body = json.dumps({"detail": detail}).encode()
    return (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n").encode() + body


class _BoundedH11(H11Protocol):
    timeout_s: float = 10.0
    max_bytes: int = 32 * 1024
    body_timeout_s: float = 10.0
    per_address: int = 0  # 0: no cap
    trusted: frozenset[str] = frozenset()
    open_by_address: dict[str, int]  # per class (per server), made by bounded_h11

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._reading_head = True
        self._head_bytes = 0
        self._tail = b""
        self._counted: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if self.per_address and address and address not in self.trusted and "*" not in self.trusted:
            if self.open_by_address.get(address, 0) >= self.per_address:
                transport.close()
                return
            self.open_by_address[address] = self.open_by_address.get(address, 0) + 1
            self._counted = address
        self._start_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        self._stop_body_timer()
        if self._counted is not None:
            left = self.open_by_address.get(self._counted, 1) - 1
            if left > 0:
                self.open_by_address[self._counted] = left
            else:
                self.open_by_address.pop(self._counted, None)
            self._counted = None
        super().connection_lost(exc)

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_timed_out(self) -> None:
        self._body_timer = None
        cycle = getattr(self, "cycle", None)
        if cycle is None or not cycle.more_body or self.transport.is_closing():
            return
        if not cycle.response_started:
            self.transport.write(_refusal("408 Request Timeout", f"the request body did not arrive within "
                                                                 f"{self.body_timeout_s:g} s"))
        self.transport.close()

    def _start_head(self) -> None:
        self._stop_timer()
        self._reading_head, self._head_bytes, self._tail = True, 0, b""
        self._head_timer = self.loop.call_later(self.timeout_s, self._head_timed_out)

    def _stop_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._reading_head and not self.transport.is_closing():
            if self._head_bytes:
                self.transport.write(_refusal("408 Request Timeout", f"the request head did not arrive within "
                                                                     f"{self.timeout_s:g} s"))
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._reading_head:
            if self._head_timer is None:  # the first byte of the next request on a kept-alive connection
                self._start_head()
            seen = self._tail + data
            end = seen.find(_END)
            self._head_bytes += len(data) if end < 0 else end + len(_END) - len(self._tail)
            self._tail = seen[-(len(_END) - 1):]
            if self._head_bytes > self.max_bytes:
                self._stop_timer()
                self._reading_head = False
                self.transport.write(_refusal("431 Request Header Fields Too Large",
                                              f"the request head is above the limit of {self.max_bytes} bytes"))
                self.transport.close()
                return
            if end >= 0:
                self._stop_timer()
                self._reading_head = False
                self._stop_body_timer()
                self._body_timer = self.loop.call_later(self.body_timeout_s, self._body_timed_out)
        super().data_received(data)
        cycle = getattr(self, "cycle", None)
        if self._body_timer is not None and (cycle is None or not cycle.more_body):
            self._stop_body_timer()  # the whole body is in (or there was none)

    def on_response_complete(self) -> None:
        # The next head is timed from its first byte; until then the keep-alive timeout applies.
        self._reading_head, self._head_bytes, self._tail = True, 0, b""
        cycle = getattr(self, "cycle", None)
        if cycle is None or not cycle.more_body:
            self._stop_body_timer()  # else an early answer (a 401, a 201 that ignores the body) leaves it running
        super().on_response_complete()


def bounded_h11(timeout_s: float, max_bytes: int, body_timeout_s: float = 10.0, per_address: int = 0,
                trusted: frozenset[str] = frozenset()) -> type[H11Protocol]:
    """The h11 protocol class for uvicorn's `http=` option, with these limits."""
    return type("BoundedH11", (_BoundedH11,), {"timeout_s": timeout_s, "max_bytes": max_bytes,
                                               "body_timeout_s": body_timeout_s, "per_address": per_address,
                                               "trusted": trusted, "open_by_address": {}})
