"""Narrow screens: the style every page gets from `app/main.py` (issue 47, item 5).

- Below NARROW_PX the sidebar starts collapsed (Streamlit itself collapses it only below 768 px), once per
  browser tab, so a visitor who opens it again keeps it open.
- Home's card grid (`st.container(key=f"{HOME_GRID}-{i}")`, one per section) drops from 4 columns to 2 below NARROW_PX.
- Words are never broken mid-word; a markdown table wider than its column (the claims table) scrolls
  inside its own frame instead of being cut at the window's edge.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["HOME_GRID", "NARROW_PX", "SIDEBAR_SCRIPT", "STYLE", "responsive_style"]

NARROW_PX = 1000
HOME_GRID = "home-grid"

STYLE = f"""<style>
[data-testid="stMarkdownContainer"] table {{ display: block; max-width: 100%; overflow-x: auto; }}
[data-testid="stMarkdownContainer"], [data-testid="stCaptionContainer"], [data-testid="stHeading"] {{
  overflow-wrap: normal; word-break: normal; hyphens: manual; }}
[data-testid="stMarkdownContainer"] th, [data-testid="stMarkdownContainer"] td {{ min-width: 4.5em; }}
@media (max-width: {NARROW_PX}px) {{
  [class*="st-key-{HOME_GRID}"] [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; row-gap: 1rem; }}
  [class*="st-key-{HOME_GRID}"] [data-testid="stColumn"] {{
    flex: 1 1 calc(50% - 1rem) !important; width: calc(50% - 1rem) !important;
    min-width: calc(50% - 1rem) !important; }}
  [class*="st-key-{HOME_GRID}"] [data-testid="stColumn"]:not(:has([data-testid="stVerticalBlockBorderWrapper"],
    [data-testid="stMarkdownContainer"])) {{ display: none; }}
}}
</style>"""

# Clicks Streamlit's own collapse button, so its state (and its expand button) stay consistent.
SIDEBAR_SCRIPT = f"""<script>
(function () {{
  if (window.innerWidth > {NARROW_PX} || sessionStorage.getItem("mp-sidebar-narrow")) {{ return; }}
  sessionStorage.setItem("mp-sidebar-narrow", "1");
  let tries = 0;
  const timer = setInterval(function () {{
    tries += 1;
    const bar = document.querySelector('[data-testid="stSidebar"]');
    const open = bar && bar.getBoundingClientRect().right > 50;
    const button = open && bar.querySelector('[data-testid="stSidebarCollapseButton"] button');
    if (button) {{ button.click(); clearInterval(timer); }} else if (tries > 50) {{ clearInterval(timer); }}
  }}, 100);
}})();
</script>"""


def responsive_style() -> None:
    """Adds the narrow-screen style and the sidebar script to the page being run (neither takes space)."""
    st.html(STYLE)
    st.html(SIDEBAR_SCRIPT, unsafe_allow_javascript=True)
