"""Metrics table, figures and downloads of a finished job."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from app import client
from app.components.jobview import JobView
from app.components.widgets import table

__all__ = ["downloads_panel", "show_figures", "show_metrics", "verdict_banner"]

_BANNERS = {"success": st.success, "error": st.error, "warning": st.warning, "info": st.info}


def verdict_banner(job: JobView) -> None:
    """The method's verdict in its colour: a refutation is not a green success."""
    verdict = job.verdict or {"label": "Done", "tone": "info", "detail": ""}
    draw = _BANNERS.get(str(verdict.get("tone")), st.info)
    detail = f": {verdict['detail']}" if verdict.get("detail") else ""
    draw(f"**{verdict['label']}**{detail}")


def _format(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def show_metrics(job: JobView, title: str = "Metrics") -> None:
    """The job's metrics as a two-column table."""
    if not job.metrics:
        return
    st.subheader(title)
    table([{"Metric": name, "Value": _format(value)} for name, value in job.metrics.items()])


def show_figures(job: JobView, names: Sequence[str] | None = None, columns: int = 1) -> None:
    """The named figures (all when None), in order, `columns` per row."""
    chosen = [name for name in (names if names is not None else list(job.figures)) if name in job.figures]
    for start in range(0, len(chosen), columns):
        cells = st.columns(columns) if columns > 1 else [st.container()]
        for cell, name in zip(cells, chosen[start:start + columns], strict=False):
            with cell:
                st.plotly_chart(job.figures[name], width="stretch", key=f"fig-{job.id}-{name}")


def _artifact(job: JobView, name: str) -> bytes:
    if job.share_link:
        return client.shared_artifact_bytes(job.share_link, name)
    return client.artifact_bytes(job.id, name)


def _export(job: JobView) -> bytes:
    return client.shared_export_zip(job.share_link) if job.share_link else client.export_zip(job.id)


_MIME = {".json": "application/json", ".csv": "text/csv", ".lean": "text/plain", ".zip": "application/zip",
         ".obj": "text/plain", ".glb": "model/gltf-binary", ".txt": "text/plain", ".html": "text/html"}


def downloads_panel(job: JobView) -> None:
    """A download button for every artifact and for export.zip."""
    st.subheader("Downloads")
    names = list(job.artifacts) + ["export.zip"]
    cells = st.columns(min(len(names), 4))
    for index, name in enumerate(names):
        suffix = name[name.rfind("."):] if "." in name else ""
        with cells[index % len(cells)]:
            data = _export(job) if name == "export.zip" else _artifact(job, name)
            st.download_button(f"⬇ {name}", data=data, file_name=f"{job.file_prefix}.zip" if name == "export.zip" else f"{job.file_prefix}-{name}", mime=_MIME.get(suffix, "application/octet-stream"),
                               key=f"dl-{job.id}-{name}", width="stretch")
