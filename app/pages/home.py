"""Home page: what the site is and every method it offers, with citations."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import streamlit as st

from app import client
from app.components import backend_banner, methods

PAGES_DIR = Path(__file__).resolve().parent

INTRO = """
Each page of **Method Playground** is a faithful, fast demo of one method from an ICML 2026 paper.
Set the parameters, press **Run**, watch the progress, read the figures and the metrics, and download
everything (JSON always, plus CSV, Lean, meshes… where natural). Runs are jobs on a shared model
server: each job has a time and memory limit, and your earlier runs stay in the page's history.
"""


def method_cards(listing: list[dict]) -> None:
    by_section: dict[str, list[dict]] = defaultdict(list)
    for method in listing:
        by_section[method["section"]].append(method)
    for section, members in by_section.items():
        st.header(section)
        for method in members:
            with st.container(border=True):
                st.subheader(method["title"])
                st.caption(method["paper"]["citation"])
                st.markdown(method["summary"])
                if (PAGES_DIR / f"{method['name']}.py").exists():
                    # target=_self: the page opens in this tab (a plain markdown link opens a new one)
                    st.markdown(f'<a href="/{method["name"]}" target="_self">▶ Open the {method["title"]} page</a>',
                                unsafe_allow_html=True)


def main() -> None:
    st.title("Method Playground")
    st.markdown(INTRO)
    try:
        health = client.health()
        listing = methods()
    except client.BackendUnavailable as exc:
        backend_banner(str(exc))
        return
    except client.BackendError as exc:
        st.error(f"The model server answered with an error: {exc.detail}")
        return
    if not listing:
        st.info("The model server offers no methods yet.")
        return
    st.caption(f"{len(listing)} methods · model server v{health['version']} · {health['workers']} worker(s) · "
               f"torch device: {health['torch_device']}")
    method_cards(listing)


main()
