"""Identities and share links of the shared instance: tokens are random, shown once, stored hashed."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import and_, func, select, update
from sqlalchemy.orm import Session

from db.status import ACTIVE
from db.tables import Identity, Job, ShareLink, utcnow

__all__ = ["IdentityRepository", "ShareLinkRepository", "hash_token", "new_token"]


def new_token() -> str:
    """A fresh bearer token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored in place of a token (a random 256-bit token needs no salt)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    from datetime import UTC

    return moment.replace(tzinfo=UTC)


class IdentityRepository:
    """Create, find, list and revoke identities inside one session (the caller commits)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def create(self, name: str, kind: str, admin: bool = False, client_address: str = "",
               ttl: timedelta | None = None) -> tuple[Identity, str]:
        """A new identity and its token (the only time the token exists in clear)."""
        token = new_token()
        identity = Identity(name=name[:64], kind=kind, admin=admin, token_hash=hash_token(token),
                            client_address=client_address[:64],
                            expires_at=None if ttl is None else utcnow() + ttl)
        self.session.add(identity)
        self.session.flush()
        return identity, token

    def by_token(self, token: str) -> Identity | None:
        """The live identity whose token this is (not revoked, not expired), else None."""
        if not token or len(token) > 256:
            return None
        digest = hash_token(token)
        identity = self.session.scalar(select(Identity).where(Identity.token_hash == digest))
        if identity is None or not hmac.compare_digest(identity.token_hash, digest):
            return None
        if identity.revoked_at is not None:
            return None
        expires = _aware(identity.expires_at)
        if expires is not None and expires <= utcnow():
            return None
        return identity

    def users(self) -> Sequence[Identity]:
        return self.session.scalars(select(Identity).where(Identity.kind == "user").order_by(Identity.created_at)).all()

    def by_name(self, name: str) -> Identity | None:
        return self.session.scalar(select(Identity).where(Identity.kind == "user", Identity.name == name,
                                                          Identity.revoked_at.is_(None)))

    def revoke(self, name: str) -> int:
        """Revoke every live user token named `name`, with what they left running: their queued jobs
        are cancelled, their running jobs flagged (the server running one stops it at its next look at
        the flag) and every share link of their runs revoked. Returns how many tokens."""
        live = and_(Identity.kind == "user", Identity.name == name, Identity.revoked_at.is_(None))
        owners = list(self.session.scalars(select(Identity.id).where(live)).all())
        if not owners:
            return 0
        now = utcnow()
        self.session.execute(update(Identity).where(Identity.id.in_(owners)).values(revoked_at=now))
        from db.jobs import JobRepository  # db.jobs imports nothing of this module; kept local all the same

        jobs = JobRepository(self.session)
        active = [status.value for status in ACTIVE]
        for job_id in self.session.scalars(select(Job.id).where(Job.owner.in_(owners), Job.status.in_(active))).all():
            jobs.request_cancel(job_id)
        self.session.execute(update(ShareLink).where(
            ShareLink.job_id.in_(select(Job.id).where(Job.owner.in_(owners))), ShareLink.revoked_at.is_(None))
            .values(revoked_at=now))
        return len(owners)

    def sessions_from(self, client_address: str, since: datetime) -> tuple[int, datetime | None]:
        """Anonymous sessions created from one client address since `since`, and when the oldest of them was."""
        row = self.session.execute(select(func.count(), func.min(Identity.created_at)).where(
            Identity.kind == "anonymous", Identity.client_address == client_address, Identity.created_at >= since)).one()
        return int(row[0] or 0), _aware(row[1])

    def names(self, ids: Sequence[str]) -> dict[str, str]:
        rows = self.session.execute(select(Identity.id, Identity.name).where(Identity.id.in_(list(ids)))).all()
        return {row[0]: row[1] for row in rows}


class ShareLinkRepository:
    """Read-only links to one job's result."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def create(self, job_id: str) -> str:
        token = new_token()
        self.session.add(ShareLink(token_hash=hash_token(token), job_id=job_id))
        self.session.flush()
        return token

    def job_id(self, token: str) -> str | None:
        """The job a live link points to, else None."""
        if not token or len(token) > 256:
            return None
        link = self.session.get(ShareLink, hash_token(token))
        return None if link is None or link.revoked_at is not None else link.job_id

    def revoke(self, token: str) -> bool:
        link = self.session.get(ShareLink, hash_token(token)) if token and len(token) <= 256 else None
        if link is None or link.revoked_at is not None:
            return False
        link.revoked_at = utcnow()
        return True
