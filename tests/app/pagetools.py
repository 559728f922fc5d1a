"""Helpers shared by the page AppTests."""

from __future__ import annotations

import html
import re

from streamlit.testing.v1 import AppTest

__all__ = ["cards", "click_run", "page_text", "read_number"]


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


_SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def read_number(text: str) -> float:
    """A cell as the kit shows it ("47,559", "1.26 × 10⁻⁸", "-0.2") read back as a float."""
    mantissa, _, exponent = text.replace(",", "").partition(" × 10")
    return float(mantissa) * (10.0 ** int(exponent.translate(_SUPERSCRIPT)) if exponent else 1.0)


_CARD = re.compile(r"opacity:0\.75'>(.*?)</div>.*?overflow-wrap:anywhere'>(.*?)</div>", re.S)


def cards(at: AppTest) -> dict[str, str]:
    """The kit's metric cards (`metric_cards`) on the page: label -> value as shown."""
    found = (_CARD.search(md.value) for md in at.markdown)
    return {html.unescape(m.group(1)): html.unescape(m.group(2)) for m in found if m}
