"""The kit draws a declared result table: a header per column with its unit, every cell by its column."""

from __future__ import annotations

from app.components.tables import format_number, table_rows
from models.common.contract import Column, Table


def test_cells_are_formatted_by_their_column() -> None:
    declared = Table(title="T", rows=[
        {"name": "a", "share": 12.3456, "count": 7, "ok": True, "values": [0.123456, None], "gap": float("nan")},
        {"name": None, "share": None, "count": None, "ok": None, "values": [], "gap": 2e-7},
        {"ok": "dropped"},
    ], columns=[Column(key="name", label="name", fmt="text"), Column(key="share", label="share", unit="%", digits=3),
                Column(key="count", label="count"), Column(key="ok", label="holds", fmt="mark"),
                Column(key="values", label="values", digits=2), Column(key="gap", label="gap")])
    rows = table_rows(declared.model_dump(mode="json"))
    assert list(rows[0]) == ["name", "share (%)", "count", "holds", "values", "gap"]
    dash = format_number(None)
    assert rows[0] == {"name": "a", "share (%)": format_number(12.3456, 3), "count": 7, "holds": "✅",
                       "values": f"{format_number(0.123456, 2)}, {dash}", "gap": dash}
    assert rows[1] == {"name": "—", "share (%)": dash, "count": dash, "holds": "—", "values": "",
                       "gap": format_number(2e-7)}
    assert rows[2]["holds"] == "dropped" and rows[2]["share (%)"] == "—", "a missing cell is a dash"
