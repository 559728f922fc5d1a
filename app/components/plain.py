"""`plain(text)`: a stranger's text (a job's summary, error or name) made safe for Streamlit markdown.

Streamlit renders markdown in st.write, st.info, st.error, st.caption...: a summary holding
`![x](http://...)` would make every viewer's browser fetch that image, `[verify](http://...)` would
show a link. Every markdown and directive character is backslash-escaped (CommonMark escapes any
ASCII punctuation), and bare addresses (`http://`, `www.`) get an invisible word joiner so the
renderer does not turn them into links; the text reads the same. `code(text)` is the same text in a
code span (a fence longer than any run of backticks in it, so the text cannot close the span).

Every page and kit call that shows text from params, a result or another user goes through one of
the two (tests/e2e/test_hostile_names.py opens such runs in Chromium and counts requests to other hosts).
"""

from __future__ import annotations

import re

__all__ = ["code", "plain"]

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&])")
_JOINER = "\u2060"


def plain(text: object) -> str:
    """`text` shown literally by st.markdown and friends: no image, link, HTML, LaTeX or colour."""
    escaped = _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))
    escaped = escaped.replace("\\:", "\\:" + _JOINER)  # http\:<joiner>// is no autolink
    return escaped.replace("www\\.", "www" + _JOINER + "\\.")


def code(text: object) -> str:
    """`text` as one markdown code span that it cannot close: literal, no link, image or HTML."""
    flat = " ".join(str(text).split())
    longest = run = 0
    for char in flat:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    return f"{fence} {flat} {fence}"
