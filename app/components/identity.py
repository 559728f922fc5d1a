"""Who "my runs" belong to: a random id the browser keeps in a cookie, so it survives a reload."""

from __future__ import annotations

import re
import uuid

import streamlit as st

__all__ = ["owner_id"]

COOKIE = "mp_owner"
_VALID = re.compile(r"^[0-9a-f]{16,32}$")


def owner_id() -> str:
    """This browser's owner id: read from its cookie, or made now and stored in one (a year)."""
    if "owner" in st.session_state:
        return str(st.session_state["owner"])
    try:
        cookie = st.context.cookies.get(COOKIE, "")
    except Exception:  # noqa: BLE001 - no browser context (AppTest, bare mode)
        cookie = ""
    if isinstance(cookie, str) and _VALID.match(cookie):
        st.session_state["owner"] = cookie
    else:
        st.session_state["owner"] = uuid.uuid4().hex[:16]
        # The id is random hex (checked above), so it is safe inside the script.
        st.html(f"<script>document.cookie = '{COOKIE}={st.session_state['owner']}; max-age=31536000; path=/; "
                "SameSite=Lax';</script>", unsafe_allow_javascript=True)
    return str(st.session_state["owner"])
