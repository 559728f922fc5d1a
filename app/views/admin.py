"""Admin page of a shared instance (shown only to an admin token): queue, load per identity, failures."""

from __future__ import annotations

import streamlit as st

from app import client
from app.components import access, table
from app.components.history import verdict_of
from app.components.plain import plain


def main() -> None:
    st.title("Admin")
    if not access().get("admin"):
        st.error("This page needs an admin token (paste it in the sidebar).")
        return
    try:
        overview = client.admin_overview()
    except (client.BackendUnavailable, client.BackendError) as exc:
        st.error(f"The overview is not available: {exc}")
        return
    left, right = st.columns(2)
    left.metric("Jobs waiting in the queue", overview["queued"])
    right.metric("Jobs running", overview["running"])
    st.subheader("Load per identity (last 24 h)")
    table([{"Identity": o["name"], "Queued or running": o["active"], "Jobs in 24 h": o["last_day"]}
           for o in overview["owners"]])
    st.subheader("Running and queued jobs")
    active = overview["active_jobs"]
    if not active:
        st.caption("None.")
    for job in active:
        cells = st.columns([2, 4, 2, 1])
        cells[0].write(f"`{job['id'][:8]}` {job['method']}")
        cells[1].markdown(plain(job.get("summary") or ""))  # a stranger's input: shown literally
        cells[2].write(f"{job['status']} {job['progress']:.0%}")
        if cells[3].button("Cancel", key=f"admin-cancel-{job['id']}"):
            client.cancel(job["id"])
            st.rerun()
    st.subheader("Failures of the last day")
    table([{"Started (UTC)": str(j["created_at"])[:19].replace("T", " "), "Method": j["method"],
            "Verdict": verdict_of(j), "Error": (j.get("error") or "")[:120], "Run": j["id"][:8]}
           for j in overview["failures_last_day"]])


main()
