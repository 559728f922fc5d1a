"""The instance's reference runs: every method's "Reproduce the paper" example, run as the instance itself.

    python -m backend.reference_runs [METHOD ...] [--wait]

An admin command. It stores one queued job per "Reproduce the paper" example (all methods, or the named
ones) owned by the instance's reference identity (an identity of kind "reference" with no usable token:
nobody can sign in as it), marked with the example's label; the running model servers' dispatchers run
them like any job (no quota applies). Home shows each method's latest reproduction from these runs or
from the viewer's own, never from another visitor's (`latest_reproductions`).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.jobs.service import InvalidParams, JobService
from backend.registry import Registry, discover
from backend.settings import get_settings
from db.identities import IdentityRepository
from db.jobs import JobRepository
from db.session import make_engine, make_session_factory, upgrade_to_head
from db.status import ACTIVE, JobStatus
from db.tables import Identity, Job

__all__ = ["REFERENCE_KIND", "REPRODUCE", "latest_reproductions", "main", "reference_owner",
           "submit_reference_runs"]

REFERENCE_KIND = "reference"
REFERENCE_NAME = "instance reference runs"
REPRODUCE = "Reproduce the paper"


def reference_owner(session: Session, create: bool = False) -> str | None:
    """The id of the instance's reference identity (made on first use when `create`)."""
    found = session.scalar(select(Identity.id).where(Identity.kind == REFERENCE_KIND).order_by(Identity.created_at))
    if found is None and create:
        identity, _token = IdentityRepository(session).create(REFERENCE_NAME, REFERENCE_KIND)
        identity.revoked_at = identity.created_at  # its token is never shown and never works
        session.flush()
        return identity.id
    return found


def latest_reproductions(session: Session, methods: Sequence[str], owners: Sequence[str] | None,
                         reference: str | None = None) -> dict[str, dict[str, Any]]:
    """Per method, its latest succeeded run of a "Reproduce the paper" example among `owners` (None: every
    owner, the open mode). `source` is "reference" for a run owned by `reference`, else "yours"."""
    found: dict[str, dict[str, Any]] = {}
    for method in methods:
        query = (select(Job.id, Job.owner, Job.example, Job.finished_at, Job.verdict_kind, Job.verdict_tone,
                        Job.verdict_held, Job.verdict_tested, Job.verdict_headline, Job.verdict_seeds)
                 .where(Job.method == method, Job.status == JobStatus.SUCCEEDED.value,
                        Job.example.like(f"{REPRODUCE}%"))
                 .order_by(Job.finished_at.desc()).limit(1))
        if owners is not None:
            if not owners:
                continue
            query = query.where(Job.owner.in_(list(owners)))
        row = session.execute(query).first()
        if row is None:
            continue
        finished: datetime | None = row.finished_at
        found[method] = dict(
            job_id=row.id, example=row.example, kind=row.verdict_kind or "", tone=row.verdict_tone or "info",
            held=row.verdict_held or 0, tested=row.verdict_tested or 0, headline=row.verdict_headline or 0,
            seeds=row.verdict_seeds or 0, finished_at=finished.isoformat() if finished else None,
            source="reference" if reference is not None and row.owner == reference else "yours")
    return found


def submit_reference_runs(registry: Registry, session: Session, names: Sequence[str] = ()) -> list[tuple[str, str, str]]:
    """Store a queued job owned by the reference identity per "Reproduce the paper" example of `names`
    (every method when empty); returns (method, example, job id) rows. An unknown name raises KeyError."""
    service = JobService(registry, executor=None, sessions=None, wake=lambda: None)  # type: ignore[arg-type]
    owner = reference_owner(session, create=True)
    assert owner is not None
    chosen = list(names) or registry.names()
    rows: list[tuple[str, str, str]] = []
    for name in chosen:
        method = registry.get(name)
        if method is None:
            raise KeyError(name)
        examples = dict(method.spec.examples()) if method.spec.examples else {}
        for label, params in examples.items():
            if not label.startswith(REPRODUCE):
                continue
            try:
                clean = service.validate(name, params)
            except InvalidParams as exc:
                raise ValueError(f"{name}: the example {label!r} is refused: {exc}") from None
            job = JobRepository(session).create(name, clean, owner, summary=f"reference run: {label}")
            job.example = label[:200]
            rows.append((name, label, job.id))
    session.flush()
    return rows


def _wait(session_factory: object, job_ids: list[str], poll_s: float = 2.0) -> None:
    pending = set(job_ids)
    while pending:
        time.sleep(poll_s)
        with session_factory() as session:  # type: ignore[operator]
            for job_id in sorted(pending):
                job = JobRepository(session).get(job_id)
                if job is None or job.status not in ACTIVE:
                    state = "deleted" if job is None else job.status
                    counts = f" ({job.verdict_held} of {job.verdict_tested} tested claims hold)" if (
                        job is not None and job.verdict_tested) else ""
                    print(f"{job_id}\t{state}{counts}", flush=True)
                    pending.discard(job_id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m backend.reference_runs", description=__doc__.split("\n\n")[0])
    parser.add_argument("methods", nargs="*", help="methods to run (default: every method)")
    parser.add_argument("--wait", action="store_true", help="wait until every run ends and print its outcome")
    args = parser.parse_args(argv)
    settings = get_settings()
    url = settings.resolved_database_url
    upgrade_to_head(url)
    engine = make_engine(url)
    try:
        registry = discover(settings.extra_method_modules())
        factory = make_session_factory(engine)
        try:
            with factory.begin() as session:
                rows = submit_reference_runs(registry, session, args.methods)
        except KeyError as exc:
            print(f"error: unknown method {exc.args[0]!r}; available: {', '.join(registry.names())}", file=sys.stderr)
            return 2
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        for method, label, job_id in rows:
            print(f"{job_id}\t{method}\t{label}\tqueued", flush=True)
        if not rows:
            print("no \"Reproduce the paper\" example among these methods", file=sys.stderr)
        if args.wait:
            _wait(factory, [job_id for _m, _l, job_id in rows])
    finally:
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
