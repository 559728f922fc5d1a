"""Tables and numbers as people read them: significant digits, dashes for missing values, marks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from app.components.numbers import format_number

__all__ = ["edit_table", "format_number", "mark", "readable", "show_tables", "table", "table_rows"]


def readable(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame as people read it: floats to significant digits, missing values as dashes (no None, nan
    or 17-digit floats); integer and text columns as they are."""
    out = frame.copy()
    for column in out.columns:
        values = out[column]
        if values.dtype.kind in "iub":
            continue
        if values.dtype.kind == "f" or values.isna().any() or values.map(lambda v: isinstance(v, float)).any():
            out[column] = values.map(_cell).astype(object)
    return out


def _cell(value: Any) -> Any:
    if isinstance(value, (str, int, list, tuple, dict)):
        return value
    if value is None or isinstance(value, float) or pd.isna(value):
        return format_number(None if value is None or pd.isna(value) else float(value))
    return value


def table(rows: pd.DataFrame | Sequence[Mapping[str, Any]], *, key: str | None = None, height: int | None = None,
          column_config: Mapping[str, Any] | None = None, caption: str | None = None) -> pd.DataFrame:
    """A read-only table (the one place pages call `st.dataframe` for results); returns the frame."""
    frame = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows))
    frame = readable(frame)
    kwargs: dict[str, Any] = {"hide_index": True, "width": "stretch"}
    if height is not None:
        kwargs["height"] = height
    if column_config is not None:
        kwargs["column_config"] = dict(column_config)
    if key is not None:
        kwargs["key"] = key
    st.dataframe(frame, placeholder="—", **kwargs)  # a missing value is a dash, never "None"
    if caption:
        st.caption(caption)
    return frame


def mark(ok: bool | None) -> str:
    """✅ for a check that holds, ❌ for one that fails, — when it does not apply."""
    if ok is None:
        return "—"
    return "✅" if ok else "❌"


def edit_table(frame: pd.DataFrame, **kwargs: Any) -> pd.DataFrame:
    """An editable input table (`st.data_editor`) whose empty cells show empty, not "None": in an input
    table an empty cell means "not set" (an optional field), which the page turns into a missing param."""
    return st.data_editor(frame, placeholder="", **kwargs)


def _table_cell(column: Mapping[str, Any], value: Any) -> Any:
    """One cell of a result table as its column declares it (models/common/contract.py `Column`); an
    integer stays an integer (a count or a seed reads as itself and sorts as a number)."""
    fmt, digits = column.get("fmt", "number"), int(column.get("digits") or 4)
    if fmt == "number" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, list):
        return ", ".join(str(_table_cell(column, item)) for item in value)
    if fmt == "mark":  # a word ("dropped") says why a check does not apply
        return value if isinstance(value, str) else mark(None if value is None else bool(value))
    if fmt == "text":
        return "—" if value is None else str(value)
    return format_number(value, digits)


def table_rows(declared: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A declared table's rows as people read them: one header per column (label with its unit), every
    cell formatted by its column."""
    columns = declared.get("columns") or []
    headers = [f"{c['label']} ({c['unit']})" if c.get("unit") else str(c["label"]) for c in columns]
    return [{header: _table_cell(column, row.get(column["key"])) for header, column in zip(headers, columns, strict=True)}
            for row in declared.get("rows") or []]


def show_tables(job: Any, titles: Sequence[str] | None = None, *, headings: bool = True) -> None:
    """The result tables the method declared (`MethodResult.tables()`), in `titles`' order (all when None),
    each under its title with its caption; a title the run did not produce is skipped."""
    declared = {str(t.get("title")): t for t in getattr(job, "tables", None) or []}
    for title in (titles if titles is not None else list(declared)):
        chosen = declared.get(title)
        if chosen is None:
            continue
        if headings:
            st.subheader(title)
        table(table_rows(chosen), key=f"table-{getattr(job, 'id', '')}-{title}", caption=chosen.get("caption") or None)
