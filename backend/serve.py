"""`python -m backend.serve`: migrate the store, then run the model server with uvicorn.

One place for how the server is started (Makefile, Docker, the browser tests): in the shared mode
the HTTP parser is h11 with a request head capped at 32 KB (431 beyond it) that must arrive within
HEADER_TIMEOUT_S, and its body within BODY_TIMEOUT_S (idle, slowloris and slow-body connections are
closed by the server itself, backend/hosting/heads.py), one client address holds at most
CONNECTIONS_PER_ADDRESS connections, and every mode bounds concurrent connections and idle keep-alive time;
a reverse proxy with timeouts still goes in front of a public instance (docker-compose.hosted.yml).
"""

from __future__ import annotations

import argparse
from typing import Any

import uvicorn

from backend.hosting.heads import bounded_h11
from backend.settings import Settings, get_settings
from db.session import upgrade_to_head

__all__ = ["main", "uvicorn_options"]

MAX_REQUEST_HEAD_BYTES = 32 * 1024


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for `uvicorn.run` that make the server safe for its access mode."""
    options: dict[str, Any] = {"limit_concurrency": settings.limit_concurrency, "timeout_keep_alive": 5,
                               "backlog": 2048, "proxy_headers": True,
                               "forwarded_allow_ips": settings.forwarded_allow_ips}
    if settings.shared:
        trusted = frozenset(ip.strip() for ip in settings.forwarded_allow_ips.split(",") if ip.strip())
        options.update(http=bounded_h11(settings.header_timeout_s, MAX_REQUEST_HEAD_BYTES, settings.body_timeout_s,
                                        settings.connections_per_address, trusted),
                       h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES)
    return options


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m backend.serve", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    settings = get_settings()
    upgrade_to_head(settings.resolved_database_url)
    uvicorn.run("backend.main:app", host=args.host, port=args.port, log_level=args.log_level,
                **uvicorn_options(settings))


if __name__ == "__main__":
    main()
