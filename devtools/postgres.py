"""A throwaway PostgreSQL cluster on loopback for the tests (Debian's `postgresql` package).

Started with `initdb` in a temp dir (trust authentication, loopback only, a free port) and stopped
with `pg_ctl stop`. When the binaries are missing, tests that need it skip with the reason; with
REQUIRE_POSTGRES=1 (set by .ci/run) they fail instead, so CI always runs them.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from devtools.devstack import free_port

__all__ = ["PostgresCluster", "pg_bin", "postgres_cluster"]


def pg_bin() -> Path | None:
    """The folder of Debian's PostgreSQL server binaries (initdb, pg_ctl), newest version first."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run as the `postgres` user when we are root."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


class PostgresCluster:
    def __init__(self, root: Path, port: int) -> None:
        self.root = root
        self.port = port

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A fresh, empty database; returns its SQLAlchemy URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def postgres_cluster(base: Path) -> Iterator[PostgresCluster]:
    """Start a cluster under `base` (made readable by the postgres user) and stop it afterwards."""
    binaries = pg_bin()
    if binaries is None:
        raise FileNotFoundError("PostgreSQL server binaries (initdb, pg_ctl) were not found")
    root = base / "pg"
    root.mkdir(parents=True)
    data, sockets = root / "data", root / "sockets"
    sockets.mkdir()
    if os.geteuid() == 0:
        for path in (base, root, sockets):
            os.chmod(path, 0o777)
        shutil.chown(root, "postgres")
        shutil.chown(sockets, "postgres")
    port = free_port()
    subprocess.run(_as_postgres([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                 "--no-sync", "-E", "UTF8"]), check=True, capture_output=True)
    options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run(_as_postgres([str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"),
                                 "-w", "start"]), check=True, capture_output=True)
    try:
        yield PostgresCluster(root, port)
    finally:
        subprocess.run(_as_postgres([str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
                       capture_output=True)
