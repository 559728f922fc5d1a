"""Helpers shared by the page AppTests."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

__all__ = ["click_run", "page_text"]


def page_text(at: AppTest) -> str:
    """All the prose a page shows: markdown, captions and the success/info/warning/error boxes."""
    parts: list[str] = []
    for elements in (at.markdown, at.caption, at.success, at.info, at.warning, at.error):
        parts.extend(str(element.value) for element in elements)
    return " ".join(parts)


def click_run(at: AppTest) -> AppTest:
    """Press the page's Run button and rerun the script."""
    next(button for button in at.button if button.label == "Run").click()
    return at.run()
