"""The banner shown when the model server is down."""

from __future__ import annotations

import streamlit as st

from app import client

__all__ = ["backend_banner"]


def backend_banner(reason: str) -> None:
    st.error(
        f"**The model server is not reachable.** {reason}\n\n"
        f"Start it with `make run` (or set `BACKEND_URL`; now `{client.backend_url()}`), then reload this page.",
        icon="🔌",
    )
