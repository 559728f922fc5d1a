"""Where the data shipped with the project lives (static/), for methods only: pages never read it."""

from __future__ import annotations

from pathlib import Path

__all__ = ["REPO_ROOT", "STATIC_DIR", "about_markdown", "static_path"]

REPO_ROOT = Path(__file__).resolve().parents[2]
STATIC_DIR = REPO_ROOT / "static"


def static_path(*parts: str) -> Path:
    """The path of a shipped data file, e.g. `static_path("scenes", "bedroom.json")`."""
    return STATIC_DIR.joinpath(*parts)


def about_markdown(package_file: str) -> str:
    """The About text of a method package: the `about.md` beside its `__init__.py` (markdown, LaTeX allowed)."""
    return (Path(package_file).resolve().parent / "about.md").read_text(encoding="utf-8")
