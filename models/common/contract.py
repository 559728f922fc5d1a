"""MethodSpec, Progress, MethodResult and the errors that make up the method contract."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, final

from pydantic import BaseModel, Field

from models.common.claims import ClaimResult, Standing
from models.common.grids import GridReport
from models.common.progress import Cancelled, Progress, no_progress
from models.common.verdict import Answer, Verdict, claims_verdict

if TYPE_CHECKING:  # plotly is imported lazily by figures.py modules
    import plotly.graph_objects as go

__all__ = [
    "Answer",
    "Artifact",
    "Cancelled",
    "Cell",
    "Column",
    "MethodInputError",
    "MethodResult",
    "MethodSpec",
    "Paper",
    "Progress",
    "Requirements",
    "Table",
    "Verdict",
    "no_progress",
]


class MethodInputError(ValueError):
    """Input that validates but cannot be processed; the message is shown to the user as is."""


@dataclass(frozen=True)
class Artifact:
    """A downloadable file produced by a run: a media type and its bytes."""

    media_type: str
    content: bytes

    @classmethod
    def json(cls, payload: Any) -> Artifact:
        return cls("application/json", json.dumps(payload, indent=2, sort_keys=False).encode())

    @classmethod
    def text(cls, body: str, media_type: str = "text/plain") -> Artifact:
        return cls(media_type, body.encode())

    @classmethod
    def csv(cls, body: str) -> Artifact:
        return cls("text/csv", body.encode())


Cell = float | int | str | bool | None | list[float | int | str | None]


class Column(BaseModel):
    """One column of a result table: the row key it reads, its label and unit, and how its cells read.

    `fmt`: "number" (`digits` significant digits, a dash when missing), "text" (as is), "mark" (a check:
    True, False or None). A list cell reads as its items, each formatted, joined by commas."""

    key: str
    label: str
    unit: str = ""
    fmt: Literal["number", "text", "mark"] = "number"
    digits: int = Field(4, ge=1, le=12)

    def header(self) -> str:
        return f"{self.label} ({self.unit})" if self.unit else self.label


class Table(BaseModel):
    """A result table as data: a title (its name on the page), typed columns, rows keyed by column key."""

    title: str
    columns: list[Column]
    rows: list[dict[str, Cell]]
    caption: str = ""


class MethodResult(BaseModel):
    """Base class of every method's typed result.

    Subclasses hold the numbers a user reads and the data behind the figures. They fill `claims`
    (see `models.common.claims`: the paper's claims measured over seeds) and optionally `standing`
    (every competitor on the headline metric); the verdict is derived from those by one rule and is
    never overridden. A core demo whose page answers a question ("Proved", "Refuted") overrides
    `answer()`. They override `metrics()` (label with unit -> value, shown as the metrics table),
    `tables()` (the result tables a page shows, as data: the package's own labels, never the page's) and
    `artifacts()` (file name -> Artifact); `result.json` is always offered, so `artifacts()` adds only
    the other files.
    """

    claims: list[ClaimResult] = Field(default_factory=list, description="The paper's claims, measured over seeds.")
    standing: Standing | None = Field(default=None, description="Every competitor on the headline metric.")
    grids: list[GridReport] = Field(default_factory=list, description="Tuning grids: values, best, whether at an edge.")

    def metrics(self) -> dict[str, float | int | str]:
        return {}

    def tables(self) -> list[Table]:
        """The result tables a page shows (titles unique); the kit formats every cell."""
        return []

    def answer(self) -> Answer | None:
        """A core demo's answer to the user's question ("Proved", "Refuted", "ok"); None for claim pages."""
        return None

    @final
    def verdict(self) -> Verdict:
        """The verdict derived from the claims (and the answer, where there is one): never overridden."""
        return claims_verdict(self.claims, self.standing, self.answer())

    def artifacts(self) -> dict[str, Artifact]:
        return {}

    def all_artifacts(self) -> dict[str, Artifact]:
        """`result.json` followed by the method's own artifacts."""
        files = {"result.json": Artifact.json(self.model_dump(mode="json"))}
        files.update(self.artifacts())
        return files


@dataclass(frozen=True)
class Paper:
    """The paper a method page demonstrates."""

    title: str
    authors: str
    venue: str = "ICML 2026"
    year: int = 2026
    url: str = ""
    code_url: str = ""

    def citation(self) -> str:
        return f"{self.authors}. {self.title}. {self.venue}."


@dataclass(frozen=True)
class Requirements:
    """What one job of a method needs: CPU cores, GPUs (0 = none; > 0 runs only where one exists), memory."""

    cpus: float = 1.0
    gpus: float = 0.0
    memory_mb: int = 0  # 0 = the server's JOB_MEMORY_MB


P = TypeVar("P", bound=BaseModel)
R = TypeVar("R", bound=MethodResult)


@dataclass(frozen=True)
class MethodSpec(Generic[P, R]):
    """Everything the registry, job service, CLI and page need to know about one method."""

    name: str
    title: str
    paper: Paper
    summary: str
    params_model: type[P]
    result_model: type[R]
    run: Callable[[P, Progress], R]
    figures: Callable[[R], Mapping[str, go.Figure]]
    section: str = "Core demos"
    nav_title: str = ""  # short name for the navigation sidebar (defaults to `title`)
    about: str = ""  # markdown: the algorithm in a few steps, shown in the page's "About" expander
    examples: Callable[[], Mapping[str, dict[str, Any]]] | None = None
    order: int = 100  # position inside its section
    tags: tuple[str, ...] = field(default_factory=tuple)
    # Named data a page needs (e.g. the molecule list), served by GET /api/methods/{name}/resources/{key}:
    # the front end never reads static/ itself.
    page_resources: Callable[[], Mapping[str, Any]] | None = None
    # A short, human summary of one run's inputs for the history table ("x^3 >= 0", "T = 2^20, 5 seeds").
    input_summary: Callable[[P], str] | None = None
    # A cheap, bounded check run when a job is submitted (raise MethodInputError): input it rejects is
    # answered at once with a 422 and never stored as a job.
    check: Callable[[P], None] | None = None
    requirements: Requirements = field(default_factory=Requirements)
    # A tiny input (about a second of work) for the contract test of every method; None: the defaults.
    smoke_params: Mapping[str, Any] | None = None
