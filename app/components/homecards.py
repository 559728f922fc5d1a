"""Home's cards: the line that says how the method's latest "Reproduce the paper" run went."""

from __future__ import annotations

from datetime import datetime
from typing import Any

__all__ = ["TONE_DOT", "reproduction_line"]

TONE_DOT = {"success": "🟢", "warning": "🟠", "error": "🔴", "info": "🔵"}


def _date(stamp: str | None) -> str:
    try:
        return datetime.fromisoformat(str(stamp)).strftime("%-d %b %Y")
    except ValueError:
        return ""


def reproduction_line(run: dict[str, Any] | None) -> str:
    """The card's status: claims held of those tested in the latest "Reproduce the paper" run, its date
    and whose run it was; or "not yet run"."""
    if run is None:
        return "○ Reproduce: not yet run"  # a text glyph: an emoji line is taller
    tested, held = int(run.get("tested") or 0), int(run.get("held") or 0)
    if tested == 0:
        counts = "no claim could be tested"
    else:
        counts = f"{held} of {tested} tested claim{'s' if tested != 1 else ''} held"
    whose = "the site's reference run" if run.get("source") == "reference" else "your run"
    when = _date(run.get("finished_at"))
    return f"{TONE_DOT.get(str(run.get('tone')), '🔵')} Reproduce: {counts} · {whose}" + (f", {when}" if when else "")
