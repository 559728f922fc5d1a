"""Metrics table, figures and downloads of a finished job."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from app import client
from app.components.axes import readable_axes
from app.components.jobview import JobView, VerdictView
from app.components.numbers import format_number, interval, words
from app.components.plain import plain
from app.components.tables import table
from app.components.verdict import verdict_sentence

__all__ = ["claims_table", "downloads_panel", "metric_cards", "show_figures", "show_metrics", "verdict_banner"]

_BANNERS = {"success": st.success, "error": st.error, "warning": st.warning, "info": st.info}


_HOLDS = {"held": "✅ held", "partial": "🟡 partial", "not_held": "❌ not held", "not_tested": "— not tested"}


def verdict_banner(job: JobView) -> None:
    """The method's verdict in its colour: a refutation is not a green success.

    The verdict is computed by the model server from the claims (one rule for every method); with a
    claims table below, the banner names how many claims hold instead of repeating their numbers.
    """
    verdict = job.verdict or VerdictView(label="Done")
    draw = _BANNERS.get(verdict.tone, st.info)
    claims = (job.result or {}).get("claims") or []
    if claims:
        detail = " (claims table below)"
    else:
        detail = f": {plain(verdict.detail)}" if verdict.detail else ""
    draw(f"**{plain(verdict_sentence(verdict))}**{detail}")  # shown literally (an id's _ is no italics)


def _cell_text(text: str) -> str:
    """Text for one cell of a markdown table: no line breaks, and no markup of its own; a pipe (|x|, an
    absolute value) is escaped as GFM tables allow, so it shows as itself and cannot split the cell."""
    plain = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    for char in ("*", "_", "`", "[", "]", "<", ">", "#"):
        plain = plain.replace(char, "\\" + char)
    return plain


def _ours(c: dict[str, Any]) -> str:
    """Mean over seeds with its 95% interval and the test that made it."""
    test = c.get("test") or {}
    bounds = test.get("interval")
    text = c["ours"]["text"]
    if bounds:
        text += f"; 95% interval {interval(*bounds)}"
    if test.get("p_value") is not None:
        text += f"; sign test p = {format_number(test['p_value'])}"
    if test.get("kind"):
        text += f" ({test['kind']})"
    return text


def _null(c: dict[str, Any]) -> str:
    null = c.get("null")
    if not null:
        return "—"
    verdict = "passes too: the claim is vacuous" if null.get("passes") else "does not pass"
    return f"{null['name']}: {format_number(null.get('value'))} ({verdict})"


def _criterion(c: dict[str, Any]) -> str:
    criterion = f"{c['quantity']} {c['criterion']}"
    if c.get("why"):
        criterion += f". Why this bar: {c['why']}"
    refused = sum(1 for o in c.get("seeds", []) if o.get("holds") is not None and not o.get("floor_ok", True))
    if refused:  # the value may meet the criterion, yet the run was degenerate: say why it does not count
        criterion += f"; sanity floor not met on {refused} seed{'s' if refused > 1 else ''}: {c.get('floor')}"
    return criterion


def _claims_markdown(claims: list[dict[str, Any]]) -> str:
    rows = ["| Holds | Claim | Paper | Ours (mean over seeds, 95% interval) | Trivial reference | Quantity and criterion |",
            "|---|---|---|---|---|---|"]
    for c in claims:
        holds = _HOLDS.get(c["holds"], c["holds"])
        cells = [_cell_text(text) for text in (holds, c["statement"], c["paper"], _ours(c), _null(c), _criterion(c))]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def claims_table(job: JobView) -> None:
    """The paper's claims: what the paper says, what we measured over seeds with its interval, the trivial
    reference, and whether it holds; checks (true by construction, or our own stress tests) apart."""
    claims = (job.result or {}).get("claims") or []
    if not claims:
        return
    headline = [c for c in claims if c.get("headline", True) and c["holds"] != "not_tested"]
    untested = [c for c in claims if c.get("headline", True) and c["holds"] == "not_tested"]
    checks = [c for c in claims if not c.get("headline", True)]
    st.subheader("The paper's claims, checked here")
    if headline:
        st.markdown(_claims_markdown(headline))
    if untested:
        st.caption("Not tested by these settings (not counted): " + "; ".join(c["statement"] for c in untested))
    for c in headline:
        if c["holds"] != "held" and c.get("detail"):
            st.caption(f"{c['id']}: {c['detail']}")
    if checks:
        st.markdown("**Checks** (sanity checks of our code and our own stress tests: not counted in the verdict)")
        st.markdown(_claims_markdown(checks))
    grids = (job.result or {}).get("grids") or []
    if grids:
        st.markdown("**Tuning grids** (each tuned value was chosen by its tuning score; an optimum on a grid's edge may "
                    "lie beyond the grid)")
        table([{"Tuned": g["tuned"], "Parameter": g["param"],
                "Grid": ", ".join(format_number(v) for v in g["values"]), "Chosen": format_number(g["best"]),
                "On the edge": "⚠️ yes: the optimum may lie beyond" if g["at_edge"] else "no"}
               for g in grids], key=f"claims-grids-{job.id}")
    with st.expander("Per seed"):
        table([{"Claim": c["id"], "Seed": o["seed"],
                "Value": format_number(o["value"]), "Holds": "—" if o["holds"] is None else ("✅" if o["holds"] else "❌"),
                "Units": format_number(o.get("units")),  # a count, or — (one type per column)
                "Sanity floor": (c.get("floor") or "—") if o["floor_ok"] else f"❌ not {c.get('floor')}",
                "Note": o.get("note") or ""}
               for c in claims for o in c["seeds"]], key=f"claims-seeds-{job.id}")


def _format(value: object) -> str:
    """A metric's value for a person: numbers by the shared rules, identifiers ("not_available") in words."""
    if isinstance(value, float) or value is None:
        return format_number(value)
    return words(value) if isinstance(value, str) else str(value)


_CARD = ("<div style='min-width:0'><div style='font-size:0.875rem;opacity:0.75'>{label}</div>"
         "<div style='font-size:1.6rem;line-height:1.25;overflow-wrap:anywhere'>{value}</div></div>")


def metric_cards(cards: Sequence[tuple[str, object]], helps: dict[str, str] | None = None) -> None:
    """Labelled values in a row of cards that wrap instead of being cut ("[0.2288, 0.22…" in st.metric).

    A float is written by the shared rules (`numbers.number`, 4 digits); text as it is, escaped."""
    cells = st.columns(len(cards)) if cards else []
    for cell, (label, value) in zip(cells, cards, strict=True):
        text = format_number(value) if isinstance(value, float) or value is None else str(value)
        with cell:
            st.markdown(_CARD.format(label=html.escape(label), value=html.escape(text)), unsafe_allow_html=True,
                        help=(helps or {}).get(label))


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
                st.plotly_chart(readable_axes(job.figures[name]), width="stretch", key=f"fig-{job.id}-{name}")


_FILES = "_kit_files"


def _kept(job: JobView, name: str, fetch: Callable[[], bytes]) -> bytes:
    """A finished job's file, fetched once per session (only the shown job's files are kept)."""
    files: dict[str, Any] = st.session_state.setdefault(_FILES, {})
    if files.get("job") != job.id:
        files.clear()
        files["job"] = job.id
    if name not in files:
        files[name] = fetch()
    return bytes(files[name])


def _artifact(job: JobView, name: str) -> bytes:
    if job.share_link:
        return _kept(job, name, lambda: client.shared_artifact_bytes(job.share_link, name))
    return _kept(job, name, lambda: client.artifact_bytes(job.id, name))


def _export(job: JobView) -> bytes:
    if job.share_link:
        return _kept(job, "export.zip", lambda: client.shared_export_zip(job.share_link))
    return _kept(job, "export.zip", lambda: client.export_zip(job.id))


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
