"""Engine and session factory; SQLite gets WAL, a busy timeout and foreign keys on every connection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["begin_exclusive", "make_engine", "make_session_factory", "upgrade_to_head"]

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
ADMISSION_LOCK_KEY = 310031  # pg_advisory_xact_lock key of job admission (quotas + insert)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _ensure_sqlite_folder(url: str) -> None:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)


def make_engine(url: str, pool_size: int = 20, pool_timeout_s: float = 10.0) -> Engine:
    """Create an engine for `url`; for SQLite, make the folder and set the pragmas.

    `pool_size` connections at most (opened as needed, no overflow): the server passes its thread
    count plus its background threads, so a request thread never waits for a connection; a wait
    past `pool_timeout_s` raises sqlalchemy's TimeoutError, which the API answers with 503."""
    _ensure_sqlite_folder(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5}, pool_size=pool_size,
                               max_overflow=0, pool_timeout=pool_timeout_s)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=pool_size, max_overflow=0, pool_timeout=pool_timeout_s)


def begin_exclusive(session: Session) -> None:
    """Make the session's (new) transaction the only writer until it commits: `BEGIN IMMEDIATE` on
    SQLite (other writers wait on the busy timeout), a transaction-scoped advisory lock on
    PostgreSQL (other admissions wait; claims, progress and reads do not). Call it first."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(text("BEGIN IMMEDIATE"))
    else:
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADMISSION_LOCK_KEY})


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


def upgrade_to_head(url: str) -> None:
    """Apply the Alembic migrations to `url` (run at start-up and by `make run`)."""
    from alembic import command
    from alembic.config import Config

    _ensure_sqlite_folder(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(config, "head")
