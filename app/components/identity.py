"""Who "my runs" belong to, and the token of a shared instance.

Open mode (a laptop): a random id kept in a browser cookie, so "my runs" survives a reload.
Shared mode: the token of this browser session (`POST /api/sessions`, once) lives in
`st.session_state` only; a person may paste a registered token in the sidebar to see their runs
across sessions.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import streamlit as st

from app import client

__all__ = ["access", "ensure_token", "owner_id", "token_sidebar"]

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


def access() -> dict[str, Any]:
    """`{"access_mode", "name", "admin"}` for this session (cached per session, refreshed on token change)."""
    cached = st.session_state.get("_access")
    if cached is None or cached.get("_token") != st.session_state.get("api_token"):
        try:
            cached = {**client.me(), "_token": st.session_state.get("api_token")}
        except (client.BackendUnavailable, client.BackendError):
            return {"access_mode": "open", "name": "", "admin": False}
        st.session_state["_access"] = cached
    return dict(cached)


def ensure_token() -> None:
    """In the shared mode, get an anonymous token once per browser session."""
    if st.session_state.get("api_token") or access().get("access_mode") != "shared":
        return
    try:
        st.session_state["api_token"] = client.new_session()
    except client.BackendError as exc:
        st.error(f"The server did not open a session: {exc.detail}")


def token_sidebar() -> None:
    """Sidebar: who you are on a shared instance, and a field to paste a registered token."""
    info = access()
    if info.get("access_mode") != "shared":
        return
    with st.sidebar:
        st.caption(f"Signed in as **{info.get('name') or 'anonymous'}**" + (" (admin)" if info.get("admin") else ""))
        pasted = st.text_input("Your token (to see your runs across sessions)", type="password", key="_token_field")
        if pasted and pasted != st.session_state.get("api_token"):
            previous = st.session_state.get("api_token")
            st.session_state["api_token"] = pasted.strip()
            if not access().get("name"):
                st.session_state["api_token"] = previous
                st.error("That token is not valid (unknown, revoked or expired).")
            else:
                st.rerun()
