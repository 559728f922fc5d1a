"""`GET /api/home/reproductions`: each method's latest "Reproduce the paper" run, for the Home cards.

Open mode: the latest such run of anyone (one local user). Shared mode: the latest among the instance's
reference runs (`python -m backend.reference_runs`) and the caller's own runs, never another visitor's.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from backend.api.auth import CallerDep
from backend.api.deps import RegistryDep, SessionDep, SettingsDep
from backend.api.schemas import ERROR_RESPONSES
from backend.reference_runs import latest_reproductions, reference_owner

__all__ = ["ReproductionPublic", "ReproductionsPublic", "router"]

router = APIRouter(prefix="/api/home", tags=["home"], responses=ERROR_RESPONSES)


class ReproductionPublic(BaseModel):
    """A method's latest succeeded "Reproduce the paper" run, by its verdict's counts."""

    job_id: str  # empty for a reference run in shared mode (not the caller's to open)
    example: str
    kind: str
    tone: str
    held: int
    tested: int
    headline: int
    seeds: int
    finished_at: str | None
    source: Literal["yours", "reference"]


class ReproductionsPublic(BaseModel):
    data: dict[str, ReproductionPublic]


@router.get("/reproductions", response_model=ReproductionsPublic,
            summary="Per method, its latest 'Reproduce the paper' run (the instance's reference runs or yours)")
def reproductions(session: SessionDep, caller: CallerDep, settings: SettingsDep,
                  registry: RegistryDep) -> ReproductionsPublic:
    reference = reference_owner(session)
    owners = [owner for owner in (reference, caller.owner) if owner] if settings.shared else None
    found = latest_reproductions(session, registry.names(), owners, reference)
    data = {}
    for method, entry in found.items():
        if settings.shared and entry["source"] != "yours":
            entry["job_id"] = ""
        data[method] = ReproductionPublic(**entry)
    return ReproductionsPublic(data=data)
