"""The example picker: named inputs loaded into the controls (and a page's own loader for the rest)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from app.components.controls import LOADERS, PENDING, apply_params
from app.components.schema import examples

__all__ = ["CUSTOM", "draw_example_picker", "example_picker"]

CUSTOM = "(set the controls yourself)"


def example_picker(method: str, *, on_load: Callable[[dict[str, Any]], None] | None = None) -> str | None:
    """Declare the page's example picker; returns the name of the chosen example (None: custom).

    `method_page` draws the "Example" selectbox above the controls (a callback cannot live inside a
    form); choosing an example loads it into every `param_widget` of the page, and `on_load(params)`
    fills the controls the page draws itself (nested parameters, tables). `on_load` is also used
    when an earlier run's inputs are restored (`?job=<id>`, a history row).
    """
    st.session_state.setdefault(LOADERS, {})[method] = on_load
    pending = st.session_state.get(PENDING, {}).pop(method, None)
    if pending is not None and on_load is not None:
        on_load(pending)
    picked = st.session_state.get(f"{method}._example")
    return None if picked in (None, CUSTOM) else str(picked)


def draw_example_picker(method: str) -> None:
    """The "Example" selectbox (drawn by `method_page` above the controls when the method has examples)."""
    named = examples(method)
    if not named:
        return
    key = f"{method}._example"

    def load() -> None:
        chosen = named.get(st.session_state.get(key, ""))
        if chosen is not None:
            apply_params(method, chosen)

    st.selectbox("Example", [CUSTOM, *named], key=key, on_change=load,
                 help="Fills the controls below with a named input; edit them freely.")
