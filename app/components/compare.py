"""Compare runs: two or more runs of a method (picked from the history, or `?compare=<id>,<id>`) with their
params side by side (differences marked), their claims side by side, their metrics, and their figures
overlaid where they share axes."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from app import client
from app.components.jobview import JobView
from app.components.plain import plain
from app.components.status import JobStatus
from app.components.tables import format_number

__all__ = ["claims_side_by_side", "compare_panel", "overlay", "side_by_side", "wanted_ids"]

MAX_RUNS = 4
DIFFERS = "≠"
_DASHES = ("solid", "dot", "dash", "dashdot")  # the line style of each run in an overlaid figure


def _text(value: Any) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format_number(value)
    return "—" if value is None else json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else str(value)


def side_by_side(rows: list[dict[str, Any]], labels: list[str], what: str) -> pd.DataFrame:
    """One row per key of any run's `rows[i]`, `≠` (second column, visible beside long values) where the runs'
    values differ, then a column per run."""
    keys = list(dict.fromkeys(key for row in rows for key in row))
    table: dict[str, list[str]] = {what: keys, "differs": [
        DIFFERS if len({json.dumps(r.get(k), sort_keys=True) for r in rows}) > 1 else "" for k in keys]}
    for label, row in zip(labels, rows, strict=True):
        table[label] = [_text(row.get(key)) for key in keys]
    return pd.DataFrame(table)


def claims_side_by_side(jobs: list[JobView], labels: list[str]) -> pd.DataFrame:
    """Per claim, each run's verdict on it and its measured value."""
    rows = []
    for job in jobs:
        rows.append({c["id"]: f"{str(c.get('holds', '')).replace('_', ' ')} · {(c.get('ours') or {}).get('text', '')}"
                     for c in job.result.get("claims") or []})
    frame = side_by_side(rows, labels, "claim")
    return frame


def overlay(figures: dict[str, go.Figure]) -> go.Figure | None:
    """The runs' figures of one name drawn in one, when they share their axis titles (None otherwise)."""
    def axes(figure: go.Figure) -> tuple[str, str]:
        return (str(figure.layout.xaxis.title.text or ""), str(figure.layout.yaxis.title.text or ""))

    first = next(iter(figures.values()))
    if len({axes(f) for f in figures.values()}) != 1 or any(len(f.layout.annotations or ()) > 20 for f in figures.values()):
        return None
    if any(getattr(f.layout, "xaxis2", None) is not None and f.layout.xaxis2.domain is not None for f in figures.values()):
        return None  # subplots: the traces cannot be overlaid without losing their panel
    merged = go.Figure(layout=first.layout)
    for index, (label, figure) in enumerate(figures.items()):
        for trace in figure.data:
            copy = trace.to_plotly_json()
            if copy.get("name"):  # unnamed traces (bands, markers) stay out of the legend, as they were
                copy["name"] = f"{label} · {copy['name']}"
            copy["legendgroup"] = label
            if copy.get("type", "scatter") in ("scatter", "scattergl") and index:
                copy["line"] = {**(copy.get("line") or {}), "dash": _DASHES[index % len(_DASHES)]}
            merged.add_trace(go.Figure({"data": [copy]}).data[0])
    styles = ", ".join(f"{_DASHES[i % len(_DASHES)]} {label}" for i, label in enumerate(figures))
    merged.update_layout(title=f"{first.layout.title.text or ''}<br><sup>runs overlaid: {styles}</sup>")
    return merged


def wanted_ids(query: str | None) -> list[str]:
    """`?compare=a,b` -> ['a', 'b'] (printable ids, at most MAX_RUNS)."""
    if not query:
        return []
    return [p for p in (part.strip() for part in str(query).split(",")) if p and p.isprintable() and len(p) <= 64][:MAX_RUNS]


def _picker(name: str) -> list[str]:
    try:
        rows = [r for r in client.jobs(name, limit=50) if r.get("status") == JobStatus.SUCCEEDED]
    except (client.BackendUnavailable, client.BackendError) as exc:
        st.warning(f"History is not available: {exc}")
        return []
    labels = {r["id"]: f"{r['id'][:8]} · {str(r['created_at'])[:16].replace('T', ' ')} · {r.get('summary') or ''}"[:120]
              for r in rows}
    key, seen_key = f"compare-pick-{name}", f"compare-url-{name}"
    asked = wanted_ids(st.query_params.get("compare"))
    if asked and st.session_state.get(seen_key) != asked:  # a URL's comparison is picked once per new URL
        st.session_state[key] = [i for i in asked if i in labels]
        st.session_state[seen_key] = asked
    picked = list(st.multiselect(f"Runs to compare (2 to {MAX_RUNS})", list(labels), format_func=lambda i: labels[i],
                                 max_selections=MAX_RUNS, key=key))
    st.session_state[seen_key] = picked
    return picked


def compare_panel(name: str) -> None:
    """The "Compare runs" expander (open when the URL asks for a comparison)."""
    asked = wanted_ids(st.query_params.get("compare"))
    with st.expander("Compare runs", expanded=bool(asked)):
        ids = _picker(name)
        if len(ids) < 2:
            st.query_params.pop("compare", None)
            st.caption("Pick two or more finished runs (or open the page with `?compare=<id>,<id>`).")
            return
        st.query_params["compare"] = ",".join(ids)
        try:
            jobs = [JobView.from_api(client.job(i)) for i in ids]
        except (client.BackendUnavailable, client.BackendError) as exc:
            st.warning(f"A run is not available: {exc}")
            return
        labels = [job.id[:8] for job in jobs]
        st.markdown(f"**Parameters** ({DIFFERS} marks a difference)")
        st.dataframe(side_by_side([job.params for job in jobs], labels, "parameter"), hide_index=True)
        st.markdown("**Claims** (verdict · ours)")
        st.dataframe(claims_side_by_side(jobs, labels), hide_index=True)
        st.markdown("**Metrics**")
        st.dataframe(side_by_side([job.metrics for job in jobs], labels, "metric"), hide_index=True)
        shared = [f for f in jobs[0].figure_json if all(f in job.figure_json for job in jobs[1:])]
        for figure_name in shared:
            merged = overlay({label: job.figures[figure_name] for label, job in zip(labels, jobs, strict=True)})
            if merged is not None:
                st.plotly_chart(merged, key=f"compare-{figure_name}-{'-'.join(labels)}")
            else:
                st.caption(f"{plain(figure_name)}: the runs' axes differ; side by side:")
                for column, label, job in zip(st.columns(len(jobs)), labels, jobs, strict=True):
                    with column:
                        st.plotly_chart(job.figures[figure_name], key=f"compare-{figure_name}-{label}")
