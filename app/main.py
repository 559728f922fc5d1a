"""Streamlit entry point: builds the navigation from GET /api/methods and runs the chosen page."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import streamlit as st

from app import client
from app.components.identity import access, ensure_token, token_sidebar
from app.components.responsive import responsive_style
from app.components.schema import methods

PAGES_DIR = Path(__file__).resolve().parent / "views"  # not "pages": Streamlit would serve that folder itself
SHOWN_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a requested path is echoed only when it is this plain


def requested_page() -> str:
    """The URL path the browser asked for ("" for the root). Streamlit resolves an unknown path to the
    default page without a word, so the entry reads the request's page name before it does."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        return str(ctx.pages_manager.intended_page_name or "") if ctx is not None else ""
    except Exception:  # noqa: BLE001 - a Streamlit without this internal: no not-found page, as before
        return ""


def not_found(asked: str, home: st.Page) -> None:
    """What an unknown URL shows: that there is no such page, and the way home."""
    st.title("No such page")
    name = f"`/{asked}`" if SHOWN_NAME.fullmatch(asked) else "at this address"
    st.markdown(f"Method Playground has no page {name}. The methods are listed on Home and in the sidebar.")
    st.page_link(home, label="Go to Home", icon="🏠")


def _is_unknown(asked: str, pages: dict[str, list[st.Page]]) -> bool:
    """Whether `asked` names no page; a method page whose server is unreachable is not unknown (it shows
    the server's banner)."""
    if not asked:
        return False
    known = {page.url_path for section in pages.values() for page in section}
    return asked not in known and not (SHOWN_NAME.fullmatch(asked) and (PAGES_DIR / f"{asked}.py").exists())


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
    responsive_style()
    asked = requested_page()
    chosen = st.navigation(pages)
    if _is_unknown(asked, pages):
        not_found(asked, pages["Method Playground"][0])
    else:
        chosen.run()


if __name__ == "__main__":
    run()
