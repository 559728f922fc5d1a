"""One Settings object, read from environment variables (documented in the README)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "get_settings"]

REPO_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Configuration of the model server and its executor.

    The variables other layers read are not here, since those layers may not import the backend:
    the front end reads BACKEND_URL (app/client.py); the methods read LLM_BASE_URL, LLM_MODEL,
    LLM_API_KEY, LEAN_PROJECT and LEAN_CMD when they run (all documented in the README)."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore", case_sensitive=False)

    data_dir: Path = Field(REPO_ROOT / "var", description="Where the SQLite file and job scratch live.")
    database_url: str = Field("", description="SQLAlchemy URL; empty means sqlite:///DATA_DIR/playground.db.")
    executor: Literal["embedded", "ray", "inline"] = Field(
        "embedded", description="embedded: one process per job on this machine; ray: one task per job on the Ray "
        "cluster at RAY_ADDRESS; inline: in-process (tests only)."
    )
    ray_address: str = Field("", description="host:port of a running Ray head (EXECUTOR=ray); never started implicitly.")
    start_method: Literal["forkserver", "spawn"] = Field(
        "forkserver", description="How job processes start: forked from a preloaded, CUDA-free server, or spawned."
    )
    max_workers: int = Field(2, ge=1, le=64, description="Jobs that run at once.")
    job_timeout_s: float = Field(300.0, gt=0, le=24 * 3600, description="Wall-clock limit of one job.")
    job_memory_mb: int = Field(4096, ge=16, le=1024 * 1024,
                               description="Resident memory one job may add (process tree, measured); past it the job stops.")
    job_address_space_mb: int = Field(0, ge=0, le=1024 * 1024,
                                      description="Optional RLIMIT_AS backstop for CPU jobs (0 = off; never for GPU jobs).")
    job_lease_s: float = Field(30.0, ge=1, le=3600,
                               description="A job whose server stopped renewing its heartbeat this long ends as interrupted.")
    dispatch_poll_s: float = Field(0.5, ge=0.05, le=60,
                                   description="How often a server looks for queued jobs that other servers on the same "
                                               "database accepted (its own submissions wake it at once).")
    db_retry_s: float = Field(60.0, ge=0, le=3600,
                              description="How long a job's final write retries on a locked or unreachable database.")
    job_threads: int = Field(1, ge=1, le=256, description="CPU threads (BLAS, OpenMP, torch) one job may use.")
    cancel_grace_s: float = Field(3.0, ge=0, le=60, description="Time a cancelled job has to stop before it is killed.")
    progress_interval_s: float = Field(0.2, ge=0, le=10, description="Minimum time between progress writes of one job.")
    warm_workers: int = Field(1, ge=0, le=8, description="Spare job processes started ahead of time (hides start-up).")
    preload_methods: bool = Field(True, description="Import the method packages in warm job processes ahead of time.")
    extra_methods: str = Field("", description="Comma-separated extra modules exposing SPEC (used by tests).")
    job_retention_days: float = Field(
        30, ge=0, le=36500, description="Finished jobs older than this are deleted at start-up (0 keeps all)."
    )
    max_result_mb: int = Field(64, ge=1, le=1024, description="Largest result + artifacts a job may store.")
    # The shared hosted instance (README "Hosting"); the defaults keep `make run` a one-user laptop app.
    access_mode: Literal["open", "shared"] = Field(
        "open", description="open: one local user, no tokens; shared: every request but the public ones needs a token.")
    session_ttl_hours: float = Field(24.0, gt=0, le=24 * 365, description="Lifetime of an anonymous session token.")
    sessions_per_hour: int = Field(30, ge=1, le=100_000, description="Anonymous sessions one client address may open per hour.")
    quota_concurrent_jobs: int = Field(2, ge=1, le=10_000, description="Queued or running jobs one identity may have.")
    quota_jobs_per_hour: int = Field(60, ge=1, le=1_000_000, description="Jobs one identity may submit per hour.")
    max_queued_jobs: int = Field(200, ge=1, le=1_000_000, description="Jobs waiting in the queue, all identities together.")
    rate_limit_per_minute: int = Field(600, ge=1, le=1_000_000,
                                       description="Requests per minute per identity and per client address.")
    allowed_hosts: str = Field("127.0.0.1,localhost,::1,testserver",
                               description="Comma-separated Host names the server answers (DNS-rebinding guard); * for any.")
    limit_concurrency: int = Field(1000, ge=10, le=100_000,
                                   description="Connections and tasks the server handles at once; more get 503.")
    forwarded_allow_ips: str = Field("127.0.0.1", description="Peers (proxy, front end) whose X-Forwarded-For "
                                     "names the real client address used by the rate limits; * behind a private network.")
    api_threads: int = Field(40, ge=4, le=1000, description="Threads that serve blocking API requests; the database "
                             "pool holds this many connections plus one per job worker and a few for the background threads.")
    db_pool_timeout_s: float = Field(10.0, gt=0, le=300, description="Longest wait for a pooled database connection; "
                                     "past it the request is answered 503 with Retry-After.")
    check_budget_ms: float = Field(100.0, ge=0, le=10_000, description="API CPU time a method's submit-time check "
                                   "may use; a longer check is left to the job (which runs it again in any case).")
    header_timeout_s: float = Field(10.0, gt=0, le=600, description="Time a client has to send a whole request head "
                                    "(shared mode); idle and slow connections are closed after it.")
    body_timeout_s: float = Field(10.0, gt=0, le=600, description="Time a client has to send a whole request body "
                                  "once its head is in (shared mode); a slower body is answered 408 and closed.")
    connections_per_address: int = Field(50, ge=0, le=100_000, description="Connections one client address (other "
                                         "than FORWARDED_ALLOW_IPS) may hold open (shared mode); 0: no cap.")
    quota_jobs_per_address: int = Field(6, ge=1, le=100_000, description="Queued or running jobs of all the anonymous "
                                        "sessions opened from one client address.")
    min_free_disk_mb: float = Field(64.0, ge=0, le=1_000_000, description="/healthz reports ok: false when the data "
                                    "folder has less free space than this (or the database refused a write as full).")
    public_url: str = Field("", description="The front end's public URL, used in share links (empty: relative links).")

    @field_validator("data_dir")
    @classmethod
    def _absolute(cls, value: Path) -> Path:
        return value.expanduser().resolve()

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'playground.db'}"

    @property
    def shared(self) -> bool:
        return self.access_mode == "shared"

    @property
    def db_pool_size(self) -> int:
        """API threads + one per job worker (supervisors) + the dispatcher, lease keeper and spares."""
        return self.api_threads + self.max_workers + 6

    def allowed_host_list(self) -> list[str]:
        return [host.strip() for host in self.allowed_hosts.split(",") if host.strip()]

    def extra_method_modules(self) -> list[str]:
        return [name.strip() for name in self.extra_methods.split(",") if name.strip()]


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (tests build their own Settings instead)."""
    return Settings()
