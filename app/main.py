"""Streamlit entry point: builds the navigation from GET /api/methods and runs the chosen page."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import streamlit as st

from app import client
from app.components.identity import access, ensure_token, token_sidebar
from app.components.schema import methods

PAGES_DIR = Path(__file__).resolve().parent / "pages"


def navigation_pages() -> dict[str, list[st.Page]]:
    """Home first, then one section per method section, each method whose page file exists."""
    sections: dict[str, list[st.Page]] = defaultdict(list)
    sections["Method Playground"].append(st.Page(str(PAGES_DIR / "home.py"), title="Home", icon="🏠", default=True))
    try:
        listing = methods()
    except (client.BackendUnavailable, client.BackendError):
        listing = []
    for method in listing:
        page_file = PAGES_DIR / f"{method['name']}.py"
        if page_file.exists() and method["name"] != "admin":
            sections[method["section"]].append(st.Page(str(page_file), title=method.get("nav_title") or method["title"], url_path=method["name"]))
    return dict(sections)


def run() -> None:
    st.set_page_config(page_title="Method Playground", page_icon="🧪", layout="wide")
    ensure_token()
    token_sidebar()
    pages = navigation_pages()
    if access().get("access_mode") == "shared" and access().get("admin"):
        pages.setdefault("Method Playground", []).append(
            st.Page(str(PAGES_DIR / "admin.py"), title="Admin", icon="🛠️", url_path="admin"))
    st.navigation(pages).run()


if __name__ == "__main__":
    run()
