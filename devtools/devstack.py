"""Start the whole stack as `make run` does (backend + Streamlit on free ports) and find Chromium.

One home for this start-up code: the browser tests (`tests/e2e`) and `scripts/take_screenshots.py`
both use it. Nothing here runs in production.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

__all__ = ["BROWSER_FLAGS", "ROOT", "Stack", "chromium_path", "free_port", "nginx_path", "running_nginx",
           "running_stack", "wait_for_app", "wait_http"]

ROOT = Path(__file__).resolve().parents[1]
NGINX_CONF = ROOT / "docker" / "nginx.conf"
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def free_port() -> int:
    """A TCP port on loopback that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def chromium_path() -> str | None:
    """Debian's Chromium (CHROMIUM, /usr/bin/chromium, or on PATH); None when absent."""
    candidate = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    return candidate if Path(candidate).exists() else shutil.which("chromium")


def wait_http(url: str, process: subprocess.Popen[bytes] | None = None, timeout_s: float = 180) -> None:
    """Wait until `url` answers 200; raise RuntimeError when the process exits or the time is up."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer in {timeout_s:g} s")


@dataclass(frozen=True)
class Stack:
    backend: str
    frontend: str
    logs: Path


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def _environment(data_dir: Path, env: Mapping[str, str] | None, **extra: str) -> dict[str, str]:
    return {**os.environ, "DATA_DIR": str(data_dir), "OMP_NUM_THREADS": "1", **extra, **(env or {})}


@contextmanager
def running_backend(data_dir: Path, env: Mapping[str, str] | None = None, name: str = "backend",
                    root: Path = ROOT) -> Iterator[str]:
    """`python -m backend.serve` of the tree at `root` on a free loopback port (log in `data_dir/NAME.log`);
    yields its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    full_env = _environment(data_dir, env)
    with open(data_dir / f"{name}.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "backend.serve", "--host", "127.0.0.1", "--port", str(port),
                                    "--log-level", "warning"], cwd=root, env=full_env, stdout=log, stderr=log)
        try:
            wait_http(url + "/healthz", process)
            yield url
        finally:
            _stop(process)


@contextmanager
def running_stack(data_dir: Path, env: Mapping[str, str] | None = None) -> Iterator[Stack]:
    """The backend (embedded executor) and `streamlit run app/main.py` on free ports, logs in `data_dir`."""
    frontend_port = free_port()
    with running_backend(data_dir, env) as backend_url:
        full_env = _environment(data_dir, env, BACKEND_URL=backend_url)
        with open(data_dir / "frontend.log", "wb") as log:
            frontend = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "app/main.py", "--server.port", str(frontend_port),
                 "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
                cwd=ROOT, env=full_env, stdout=log, stderr=log)
            try:
                wait_http(f"http://127.0.0.1:{frontend_port}/_stcore/health", frontend)
                yield Stack(backend=backend_url, frontend=f"http://127.0.0.1:{frontend_port}", logs=data_dir)
            finally:
                _stop(frontend)


def nginx_path() -> str | None:
    """Debian's nginx (`apt-get install nginx-light`; `.ci/run` installs it), or None."""
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


@contextmanager
def running_nginx(folder: Path, backend: str, frontend: str, edits: Mapping[str, str] | None = None) -> Iterator[str]:
    """Debian's nginx with `docker/nginx.conf` as shipped, its upstreams and listen port pointed at loopback
    (and any `edits`: shipped text -> replacement, each required to be in the file); yields its URL."""
    nginx = nginx_path()
    assert nginx is not None, "nginx is not installed"
    folder.chmod(0o777)  # nginx workers run as nobody when the master is root
    port = free_port()
    site = NGINX_CONF.read_text()
    replacements = {"http://backend:8000": backend, "http://frontend:8501": frontend,
                    "listen 80;": f"listen 127.0.0.1:{port};", **(edits or {})}
    for shipped, local in replacements.items():
        assert shipped in site, f"{shipped!r} is no longer in {NGINX_CONF}"
        site = site.replace(shipped, local)
    (folder / "site.conf").write_text(site)
    temp = "".join(f"{kind}_temp_path {folder}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                       "scgi"))
    (folder / "nginx.conf").write_text(
        f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\ndaemon off;\nworker_processes 1;\n"
        f"events {{ worker_connections 256; }}\nhttp {{\naccess_log off;\n{temp}include {folder}/site.conf;\n}}\n")
    checked = subprocess.run([nginx, "-t", "-c", str(folder / "nginx.conf")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([nginx, "-c", str(folder / "nginx.conf")], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_http(url + "/api/methods", process, timeout_s=30)
        yield url
    finally:
        process.terminate()  # the master stops its workers
        process.wait(10)


def wait_for_app(page: Any, timeout_ms: int = 120_000) -> None:
    """Wait until Streamlit is connected, has finished running, and shows no skeleton."""
    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=timeout_ms)
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=timeout_ms)
    page.wait_for_selector("[data-testid='stSkeleton']", state="detached", timeout=timeout_ms)
