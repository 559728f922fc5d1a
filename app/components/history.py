"""The list of earlier runs of a method; picking one reloads its result."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app import client

__all__ = ["history_panel"]

_ICON = {"succeeded": "✅", "failed": "❌", "cancelled": "⏹", "timed_out": "⏱", "running": "⏳", "queued": "🕒"}


def history_panel(method: str, state_key: str, owner: str) -> None:
    """Earlier runs of `method`; choosing a row makes it the page's current job."""
    with st.expander("History: earlier runs of this method", expanded=False):
        only_mine = st.toggle("Only my runs (this browser session)", value=False, key=f"hist-mine-{method}")
        try:
            rows = client.jobs(method, owner=owner if only_mine else None, limit=30)
        except (client.BackendUnavailable, client.BackendError) as exc:
            st.warning(f"History is not available: {exc}")
            return
        if not rows:
            st.caption("No runs yet.")
            return
        table = pd.DataFrame({
            "": [_ICON.get(r["status"], "") for r in rows],
            "Started": [str(r["created_at"])[:19].replace("T", " ") for r in rows],
            "Status": [r["status"] for r in rows],
            "Message": [(r.get("error") or r.get("message") or "")[:80] for r in rows],
            "Job id": [r["id"][:8] for r in rows],
        })
        event = st.dataframe(table, hide_index=True, width="stretch", on_select="rerun",
                             selection_mode="single-row", key=f"hist-table-{method}")
        selected = list(getattr(getattr(event, "selection", None), "rows", []) or [])
        if selected:
            chosen = rows[selected[0]]["id"]
            if st.session_state.get(state_key) != chosen:
                st.session_state[state_key] = chosen
                st.rerun()
