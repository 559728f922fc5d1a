"""Home page: what the site is, and every method it offers as a grid of cards grouped by section."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import streamlit as st

from app import client
from app.components import backend_banner, methods
from app.components.homecards import reproduction_line
from app.components.responsive import HOME_GRID

PAGES_DIR = Path(__file__).resolve().parent
COLUMNS = 4

INTRO = """
Each page of **Method Playground** is a fast, faithful demo of one method from an ICML 2026 paper: set
the parameters, press **Run**, follow the progress, and read the paper's claims checked over seeds, the
figures and the metrics. Everything can be downloaded (JSON, CSV, and the field's own formats). Runs are
jobs on a shared model server, each with a time and memory limit; your runs stay in each page's history.
"""


def first_sentence(text: str, limit: int = 80) -> str:
    """The summary's first sentence for a card, cut at a word (never mid-word) when it is long."""
    sentence = text.strip().split(". ")[0].rstrip(".")
    if len(sentence) > limit:
        sentence = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return sentence + ("" if sentence.endswith("…") else ".")


def _card(method: dict, run: dict[str, Any] | None, known: bool) -> None:
    with st.container(border=True):
        if (PAGES_DIR / f"{method['name']}.py").exists():
            # target=_self: the page opens in this tab (a plain markdown link opens a new one)
            st.markdown(f'<a href="/{method["name"]}" target="_self"><b>{method.get("nav_title") or method["title"]}</b></a>',
                        unsafe_allow_html=True)
        else:
            st.markdown(f"**{method.get('nav_title') or method['title']}**")
        st.caption(f"{method['paper']['title']} ({method['paper']['venue']})")
        st.markdown(first_sentence(method["summary"]))
        if known:
            st.caption(reproduction_line(run))


def method_cards(listing: list[dict], runs: dict[str, dict[str, Any]] | None = None) -> None:
    """One section after another, its methods in a grid of COLUMNS cards per row (2 on a narrow screen);
    `runs`: each method's latest reproduction (None: unknown, no status line)."""
    by_section: dict[str, list[dict]] = defaultdict(list)
    for method in listing:
        by_section[method["section"]].append(method)
    for index, (section, members) in enumerate(by_section.items()):
        st.subheader(section)
        with st.container(key=f"{HOME_GRID}-{index}"):
            for start in range(0, len(members), COLUMNS):
                for cell, method in zip(st.columns(COLUMNS), members[start:start + COLUMNS], strict=False):
                    with cell:
                        _card(method, (runs or {}).get(method["name"]), runs is not None)


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
    try:
        runs: dict[str, dict[str, Any]] | None = client.reproductions()
    except (client.BackendUnavailable, client.BackendError):
        runs = None  # the cards still show; only the status line is left out
    method_cards(listing, runs)


main()
