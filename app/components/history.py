"""The list of earlier runs of a method, newest first; choosing one shows that run (by its id)."""

from __future__ import annotations

from collections.abc import Callable
from textwrap import shorten
from typing import Any

import pandas as pd
import streamlit as st

from app import client
from app.components.jobview import VerdictView
from app.components.status import JobStatus
from app.components.verdict import KIND_NAMES, verdict_sentence

__all__ = ["history_panel", "picked_id", "verdict_of"]

_TONE_ICON = {"success": "🟢", "error": "🔴", "warning": "🟠", "info": "🔵"}
_ALL = "(all verdicts)"
_STATUS_TEXT = {JobStatus.FAILED: "🔴 Failed", JobStatus.TIMED_OUT: "🔴 Timed out", JobStatus.CANCELLED: "⚪ Cancelled",
                JobStatus.RUNNING: "⏳ Running", JobStatus.QUEUED: "🕒 Queued"}


def verdict_of(row: dict[str, Any]) -> str:
    """What a run answered: the method's verdict when it succeeded, else its status, with a colour dot."""
    verdict = row.get("verdict")
    if row.get("status") == JobStatus.SUCCEEDED and verdict:
        view = VerdictView.from_api(verdict) or VerdictView()
        return f"{_TONE_ICON.get(view.tone, '')} {verdict_sentence(view)}".strip()
    return _STATUS_TEXT.get(str(row.get("status", "")), str(row.get("status")))


def picked_id(drawn_ids: list[str], selected_rows: list[int]) -> str | None:
    """The id of the run in the selected row of the table as it was drawn (None: no valid selection)."""
    if not selected_rows or not 0 <= selected_rows[0] < len(drawn_ids):
        return None
    return drawn_ids[selected_rows[0]]


def history_panel(method: str, *, on_select: Callable[[str], None], owner: str) -> None:
    """Earlier runs of `method` with their inputs and verdicts; a chosen row calls `on_select(job id)`.

    The selection is resolved against the ids of the rows as they were drawn (kept in session
    state), never against a fresh listing, so new runs pushing rows down cannot change which run a
    click meant; the table's key changes after each choice, which clears the stale selection.
    """
    with st.expander("History: earlier runs of this method", expanded=False):
        left, right = st.columns([1, 1])
        with left:
            only_mine = st.toggle("Only my runs (this browser)", value=False, key=f"hist-mine-{method}",
                                  help="On a shared instance you only ever see your own runs.")
        try:
            rows = client.jobs(method, owner=owner if only_mine else None, limit=50)
        except (client.BackendUnavailable, client.BackendError) as exc:
            st.warning(f"History is not available: {exc}")
            return
        kinds = [kind for kind in KIND_NAMES if any((row.get("verdict") or {}).get("kind") == kind for row in rows)]
        with right:
            wanted = st.selectbox("Verdict", [_ALL, *kinds], key=f"hist-verdict-{method}",
                                  format_func=lambda kind: KIND_NAMES.get(kind, kind))
        if wanted != _ALL:
            rows = [row for row in rows if (row.get("verdict") or {}).get("kind") == wanted]
        if not rows:
            st.caption("No runs yet." if wanted == _ALL else "No runs with this verdict.")
            return
        generation = int(st.session_state.get(f"hist-gen-{method}", 0))
        table_key = f"hist-table-{method}-{generation}"
        ids_key = f"hist-ids-{method}"
        st.session_state[ids_key] = [row["id"] for row in rows]
        current = st.session_state.get(f"job:{method}")

        def chosen() -> None:
            job_id = picked_id(st.session_state.get(ids_key, []), st.session_state[table_key].selection.rows)
            if job_id is not None:
                st.session_state[f"hist-gen-{method}"] = generation + 1
                on_select(job_id)

        frame = pd.DataFrame({
            "": ["▶" if row["id"] == current else "" for row in rows],
            "Started (UTC)": [str(row["created_at"])[:19].replace("T", " ") for row in rows],
            "Input": [row.get("summary") or "" for row in rows],
            "Verdict": [verdict_of(row) for row in rows],
            "Detail": [shorten((row.get("verdict") or {}).get("detail") or row.get("error") or "", 90, placeholder=" …") for row in rows],
            "Run": [row["id"][:8] for row in rows],
        })
        st.dataframe(frame, hide_index=True, width="stretch", on_select=chosen, selection_mode="single-row",
                     key=table_key)
        st.caption("Click a row to open that run; its inputs are loaded into the controls above.")
