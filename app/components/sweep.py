"""The "Sweep" panel: pick one numeric field and its values, run one job per value (over the params' seeds),
watch progress, and see each headline claim's quantity against the swept value with its target line."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from app import client
from app.components.banner import backend_banner
from app.components.identity import owner_id
from app.components.plain import plain

__all__ = ["MAX_VALUES", "claim_figures", "default_values", "numeric_fields", "parse_values", "sweep_panel"]

MAX_VALUES = 12
POLL_SECONDS = 1.0
_ENDED = {"succeeded", "failed", "cancelled"}
_HOLDS_COLOUR = {"held": "#2e7d32", "partial": "#ef6c00", "not_held": "#c62828", "not_tested": "#757575"}


def numeric_fields(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The params a sweep can vary: integer and number fields (the base seed excluded)."""
    fields = {}
    for name, spec in (schema.get("properties") or {}).items():
        kind = spec.get("type") or next((s.get("type") for s in spec.get("anyOf", []) if s.get("type") != "null"), None)
        if kind in ("integer", "number") and name != "seed":
            fields[name] = {**spec, "type": kind}
    return fields


def default_values(spec: dict[str, Any], current: Any) -> list[float | int]:
    """Four values around the current one (x0.5, x1, x2, x4) inside the field's bounds."""
    low = spec.get("minimum", spec.get("exclusiveMinimum", float("-inf")))
    high = spec.get("maximum", spec.get("exclusiveMaximum", float("inf")))
    base = current if isinstance(current, int | float) and current else spec.get("default") or 1
    out: list[float | int] = []
    for factor in (0.5, 1, 2, 4):
        value = base * factor
        value = int(round(value)) if spec["type"] == "integer" else round(float(value), 6)
        if low <= value <= high and value not in out:
            out.append(value)
    return out


def parse_values(text: str, kind: str) -> list[float | int]:
    """'1, 2.5, 4' -> numbers of the field's type; ValueError with a readable reason."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if not 1 <= len(parts) <= MAX_VALUES:
        raise ValueError(f"give 1 to {MAX_VALUES} values separated by commas (got {len(parts)})")
    try:
        values = [int(p) if kind == "integer" else float(p) for p in parts]
    except ValueError:
        raise ValueError(f"every value must be {'a whole number' if kind == 'integer' else 'a number'}") from None
    if len(set(values)) != len(values):
        raise ValueError("the values must be distinct")
    return values


def claim_figures(sweep: dict[str, Any]) -> dict[str, go.Figure]:
    """Per headline claim: its mean (95% interval as error bars) against the swept value, and its target."""
    figures: dict[str, go.Figure] = {}
    for claim in dict.fromkeys(r["claim"] for r in sweep["rows"] if r["headline"]):
        rows = [r for r in sweep["rows"] if r["claim"] == claim and r["mean"] is not None]
        if not rows:
            continue
        upper = [(r["interval"][1] - r["mean"]) if r["interval"] else 0.0 for r in rows]
        lower = [(r["mean"] - r["interval"][0]) if r["interval"] else 0.0 for r in rows]
        figure = go.Figure(go.Scatter(
            x=[r["value"] for r in rows], y=[r["mean"] for r in rows], mode="lines+markers", name="ours (mean)",
            error_y={"type": "data", "array": upper, "arrayminus": lower, "visible": True},
            marker={"size": 10, "color": [_HOLDS_COLOUR.get(r["holds"] or "", "#757575") for r in rows]},
            text=[str(r["holds"]).replace("_", " ") for r in rows], hovertemplate="%{x}: %{y:.4g} (%{text})"))
        target = rows[0].get("target")
        if target is not None:
            figure.add_hline(y=target, line_dash="dash", line_color="#555", annotation_text=f"target {target:g}")
        values = [r["value"] for r in rows]
        log_x = all(v > 0 for v in values) and max(values) / min(values) >= 20
        quantity = str(rows[0]["quantity"])
        short = quantity if len(quantity) <= 40 else quantity[:39].rsplit(" ", 1)[0] + " …"
        figure.update_layout(title=f"{claim}: {rows[0]['criterion']}<br><sup>{quantity}</sup>", xaxis_title=sweep["field"],
                             yaxis_title=short, xaxis_type="log" if log_x else "linear", height=360,
                             margin={"t": 70, "b": 40})
        figures[claim] = figure
    return figures


def _show(sweep: dict[str, Any]) -> None:
    counts = {s: sum(1 for j in sweep["job_ids"] if j) for s in ("submitted",)}
    st.caption(f"Sweep `{sweep['id'][:8]}` of {sweep['field']} over {len(sweep['values'])} values: "
               f"{sweep['status']} · {plain(sweep['message'])} · {counts['submitted']} runs submitted")
    for claim, figure in claim_figures(sweep).items():
        st.plotly_chart(figure, key=f"sweep-{sweep['id']}-{claim}")
    if sweep["status"] in _ENDED:
        csv_text = client.sweep_csv(sweep["id"])
        st.download_button("Download the sweep (CSV)", csv_text, file_name=f"{sweep['method']}-sweep-{sweep['id'][:8]}.csv",
                           mime="text/csv", key=f"sweep-csv-{sweep['id']}")


@st.fragment(run_every=POLL_SECONDS)
def _live(sweep_id: str) -> None:
    try:
        sweep = client.sweep(sweep_id)
    except (client.BackendUnavailable, client.BackendError) as exc:
        st.warning(f"The sweep is not available: {exc}")
        return
    if sweep["status"] in _ENDED:
        st.rerun(scope="app")
        return
    st.progress(min(max(float(sweep["progress"]), 0.0), 1.0), text=f"Sweep `{sweep_id[:8]}`: {plain(sweep['message'])}")
    if st.button("Cancel the sweep", key=f"sweep-cancel-{sweep_id}"):
        client.sweep_cancel(sweep_id)
        st.toast("Cancelling every run of the sweep")
    _show(sweep)


def sweep_panel(name: str, schema: dict[str, Any], params: dict[str, Any]) -> None:
    """The Sweep expander of a page: the other params are the controls' current values."""
    fields = numeric_fields(schema)
    key = f"sweep:{name}"
    with st.expander("Sweep: one parameter over several values", expanded=bool(st.session_state.get(key))):
        if not fields:
            st.caption("This method has no numeric parameter to sweep.")
            return
        field = st.selectbox("Field to vary", list(fields), key=f"sweep-field-{name}",
                             format_func=lambda f: fields[f].get("title") or f)
        spec = fields[field]
        st.caption(plain(spec.get("description", "")))
        text = st.text_input(f"Values (comma-separated, at most {MAX_VALUES})", key=f"sweep-values-{name}-{field}",
                             value=", ".join(str(v) for v in default_values(spec, params.get(field))))
        if st.button("Run the sweep", key=f"sweep-run-{name}"):
            try:
                values = parse_values(text, spec["type"])
                body = {"method": name, "params": {k: v for k, v in params.items() if k != field},
                        "vary": {field: values}, "owner": owner_id()}
                st.session_state[key] = client.sweep_create(body)
            except ValueError as exc:
                st.error(f"Not run: {exc}")
            except client.BackendError as exc:
                st.error(f"Not run: {plain(exc.detail)}")
            except client.BackendUnavailable as exc:
                backend_banner(str(exc))
        sweep_id = st.session_state.get(key)
        if not sweep_id:
            return
        try:
            sweep = client.sweep(sweep_id)
        except client.BackendError:
            st.session_state.pop(key, None)
            return
        if sweep["status"] in _ENDED:
            _show(sweep)
        else:
            _live(sweep_id)
