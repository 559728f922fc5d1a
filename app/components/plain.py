"""`plain(text)`: a stranger's text (a job's summary, error or name) made safe for Streamlit markdown.

Streamlit renders markdown in st.write, st.info, st.error, st.caption...: a summary holding
`![x](http://...)` would make every viewer's browser fetch that image, `[verify](http://...)` would
show a link. Every markdown and directive character is backslash-escaped (CommonMark escapes any
ASCII punctuation), and bare addresses (`http://`, `www.`) get an invisible word joiner so the
renderer does not turn them into links; the text reads the same.
"""

from __future__ import annotations

import re

__all__ = ["plain"]

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&])")
_JOINER = "\u2060"


def plain(text: object) -> str:
    """`text` shown literally by st.markdown and friends: no image, link, HTML, LaTeX or colour."""
    escaped = _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))
    escaped = escaped.replace("\\:", "\\:" + _JOINER)  # http\:<joiner>// is no autolink
    return escaped.replace("www\\.", "www" + _JOINER + "\\.")
