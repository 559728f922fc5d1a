"""ORM tables: jobs and their artifacts, identities, share links, sweeps, and the submissions ledger."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from db.status import JobStatus

__all__ = ["Artifact", "Base", "Identity", "Job", "ShareLink", "Sweep", "submissions", "utcnow"]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Job(Base):
    """One run of one method: its parameters, state, progress, result and error."""

    __tablename__ = "jobs"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=lambda: str(uuid.uuid4()))
    method: Mapped[str] = mapped_column(String(64), index=True)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True, default=JobStatus.QUEUED.value)
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    message: Mapped[str] = mapped_column(Text, default="")
    owner: Mapped[str] = mapped_column(String(64), default="", index=True)
    cancel_requested: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Large columns load only when read, so status polls and history lists stay cheap.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, deferred=True)
    metrics: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, deferred=True)
    figures: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, deferred=True)
    # The method's result tables as data (`MethodResult.tables()`: title, columns, rows), drawn by the kit.
    tables: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True, deferred=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    # What the history table shows: a short summary of the inputs and the method's one-word verdict.
    summary: Mapped[str] = mapped_column(String(200), default="")
    # The label of the example the run was started from (None: the visitor's own inputs); Home reads the
    # latest "Reproduce the paper" run of each method from it.
    example: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # The verdict as data (models/common/verdict.py): `verdict` is an answer's word or the kind itself, so a
    # succeeded run always has one; the page words the sentence from the counts.
    verdict: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    verdict_kind: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    verdict_tone: Mapped[str | None] = mapped_column(String(16), nullable=True)
    verdict_held: Mapped[int | None] = mapped_column(Integer, nullable=True)
    verdict_tested: Mapped[int | None] = mapped_column(Integer, nullable=True)
    verdict_headline: Mapped[int | None] = mapped_column(Integer, nullable=True)
    verdict_seeds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    verdict_beaten_by: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    verdict_metric: Mapped[str | None] = mapped_column(String(200), nullable=True)
    verdict_detail: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The lease: the server instance that holds the job (queued in its executor or running) and when
    # it last said so; recovery marks only jobs whose heartbeat is older than the lease.
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    artifacts: Mapped[list[Artifact]] = relationship(
        back_populates="job", cascade="all, delete-orphan", passive_deletes=True, lazy="raise"
    )

    __table_args__ = (Index("ix_jobs_method_created", "method", "created_at"),
                      Index("ix_jobs_method_example", "method", "example"))


class Artifact(Base):
    """A downloadable file of a finished job."""

    __tablename__ = "artifacts"

    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"), primary_key=True)
    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    media_type: Mapped[str] = mapped_column(String(128))
    content: Mapped[bytes] = mapped_column(LargeBinary)

    job: Mapped[Job] = relationship(back_populates="artifacts")


class Identity(Base):
    """Who submits jobs on a shared instance: an anonymous browser session or a registered user.

    Only a SHA-256 hash of the bearer token is stored; the token itself is shown once, at creation.
    """

    __tablename__ = "identities"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=lambda: str(uuid.uuid4()))
    name: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # "anonymous" | "user"
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    admin: Mapped[bool] = mapped_column(Boolean, default=False)
    client_address: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ShareLink(Base):
    """A read-only link to one job's result, made by its owner; revoking deletes nothing else."""

    __tablename__ = "share_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Sweep(Base):
    """One parameter sweep: a job per value of one field (`job_ids[i]` runs `values[i]`; None: not yet
    submitted, waiting under its owner's concurrency quota)."""

    __tablename__ = "sweeps"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=lambda: str(uuid.uuid4()))
    method: Mapped[str] = mapped_column(String(64))
    owner: Mapped[str] = mapped_column(String(64), default="", index=True)
    field: Mapped[str] = mapped_column(String(64))
    values: Mapped[list[Any]] = mapped_column(JSON)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    job_ids: Mapped[list[str | None]] = mapped_column(JSON)
    cancelled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# One row per accepted submission (migration 0006_submissions); never deleted with its job.
submissions = Table(
    "submissions", Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("owner", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_submissions_owner_created", "owner", "created_at"),
    Index("ix_submissions_created_at", "created_at"),
)
