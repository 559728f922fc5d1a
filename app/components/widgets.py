"""The page kit: widgets built from a method's params schema, the example picker, tables and marks.

A page names the fields it shows; label, help text, default and bounds come from the method's
pydantic `Params` (served as JSON schema by `GET /api/methods/{name}`), so a page writes only what is
special about it. Every widget keeps its value in `st.session_state[param_key(method, field)]`,
which is how an example or an earlier run's inputs are loaded into the controls.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from app import client

__all__ = ["KitInputError", "apply_params", "bound_problem", "keep_controls", "restore_controls", "draw_example_picker", "example_picker", "examples", "field_schema", "format_number", "mark", "method_info",
           "methods", "param_key", "param_widget", "pending_input_errors", "clear_input_errors", "report_input_error", "readable", "resource", "table",
           "edit_table"]

CUSTOM = "(set the controls yourself)"
_LOADERS = "_kit_loaders"
_ERRORS = "_kit_errors"
_PENDING = "_kit_pending_loads"
_SAVED = "_kit_saved"


class KitInputError(ValueError):
    """A control holds a value that cannot be turned into a parameter (shown next to the control)."""


@st.cache_data(ttl=60, show_spinner=False)
def methods() -> list[dict[str, Any]]:
    """Every method the model server offers (cached for a minute: navigation reruns often)."""
    return client.methods()


@st.cache_data(ttl=60, show_spinner=False)
def method_info(name: str) -> dict[str, Any]:
    """One method's paper, summary, about text and params schema."""
    return client.method(name)


@st.cache_data(ttl=300, show_spinner=False)
def examples(name: str) -> dict[str, dict[str, Any]]:
    """The method's named example inputs (empty when the model server is down)."""
    try:
        return client.examples(name)
    except (client.BackendUnavailable, client.BackendError):
        return {}


@st.cache_data(ttl=300, show_spinner=False)
def resource(name: str, key: str) -> Any:
    """Named data the method's page needs (e.g. the molecule list), from the model server."""
    return client.resource(name, key)


def param_key(method: str, field: str) -> str:
    """The session-state key of a parameter's widget."""
    return f"{method}.{field}"


def field_schema(method: str, field: str) -> dict[str, Any]:
    """The JSON schema of one parameter, with `$ref` and `Optional[...]` resolved; a dotted path
    (`"distribution.eta"`) names a field of a nested parameter model."""
    schema = method_info(method)["params_schema"]
    prop: dict[str, Any] = schema
    for part in field.split("."):
        child = dict(prop.get("properties", {}).get(part) or {})
        if not child:
            raise KeyError(f"{method} has no parameter {field!r}")
        prop = _resolve(child, schema)
    return prop


def _resolve(prop: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in prop:
        target = root.get("$defs", {}).get(prop["$ref"].split("/")[-1], {})
        prop = {**target, **{k: v for k, v in prop.items() if k != "$ref"}}
    if "anyOf" in prop:
        options = [option for option in prop["anyOf"] if option.get("type") != "null"]
        nullable = len(options) < len(prop["anyOf"])
        merged = {k: v for k, v in prop.items() if k != "anyOf"}
        if len(options) == 1:
            merged = {**_resolve(dict(options[0]), root), **merged}
        merged["nullable"] = nullable
        prop = merged
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        prop["items"] = _resolve(dict(prop["items"]), root)
    return prop


def _kind(prop: dict[str, Any], widget: str | None) -> str:
    """Which widget a schema gets: select, multiselect, checkbox, slider, number, list, lines or text."""
    if widget:
        return widget
    items = prop.get("items") or {}
    if "enum" in prop:
        return "select"
    if prop.get("type") == "boolean":
        return "checkbox"
    if prop.get("type") in ("integer", "number"):
        bounded = _bound(prop, "min") is not None and _bound(prop, "max") is not None
        if bounded and (prop["type"] == "number" or (_bound(prop, "max") or 0) - (_bound(prop, "min") or 0) <= 1000):
            return "slider"
        return "number"
    if prop.get("type") == "array":
        if "enum" in items:
            return "multiselect"
        if items.get("type") in ("integer", "number"):
            return "list"
        return "lines"
    return "text"


def _bound(prop: dict[str, Any], side: str) -> float | None:
    if side == "min":
        value = prop.get("minimum", prop.get("exclusiveMinimum"))
    else:
        value = prop.get("maximum", prop.get("exclusiveMaximum"))
    return None if value is None else float(value)


def _to_state(kind: str, value: Any) -> Any:
    """A parameter value as its widget holds it (lists of numbers as "a, b, c", strings one per line)."""
    if kind == "list":
        return ", ".join(_number_text(v) for v in (value or []))
    if kind == "lines":
        return "\n".join(str(v) for v in (value or []))
    if kind == "text":
        return "" if value is None else str(value)
    return value


def _number_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value)) if not isinstance(value, bool) else str(value)
    return str(value)


def _parse_numbers(text: str, integer: bool, label: str) -> list[float] | list[int]:
    """"1, 2.5, 1e-3" -> [1, 2.5, 0.001]; a clear message names the control and the bad entry."""
    entries = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    values: list[Any] = []
    for position, entry in enumerate(entries, start=1):
        if len(entry) > 40:
            raise KitInputError(f"{label}: entry {position} is too long")
        try:
            number = float(entry)
        except ValueError:
            raise KitInputError(f"{label}: entry {position} ({entry!r}) is not a number") from None
        if not math.isfinite(number):
            raise KitInputError(f"{label}: entry {position} is not a finite number")
        if integer:
            if not number.is_integer():
                raise KitInputError(f"{label}: entry {position} ({entry}) must be a whole number")
            values.append(int(number))
        else:
            values.append(number)
    return values


def _step(prop: dict[str, Any], low: float, high: float) -> float:
    if prop.get("multipleOf"):
        return float(prop["multipleOf"])
    span = max(high - low, 1e-12)
    return float(10 ** math.floor(math.log10(span / 100)))


def param_widget(
    method: str,
    field: str,
    *,
    label: str | None = None,
    help: str | None = None,
    widget: str | None = None,
    options: Sequence[Any] | None = None,
    format_func: Callable[[Any], Any] | None = None,
    step: float | None = None,
    disabled: bool = False,
) -> Any:
    """A widget for one parameter; returns the parameter's value (as the params model expects it).

    Label, help, default and bounds come from the params schema; `widget` forces one of "slider",
    "number", "select", "multiselect", "select_slider", "text", "checkbox", "list" (comma-separated
    numbers) or "lines" (one string per line). A value that cannot be parsed is reported under the
    control and keeps the page from submitting (see `pending_input_errors`).
    """
    prop = field_schema(method, field)
    kind = _kind(prop, widget)
    key = param_key(method, field)
    text = label or prop.get("title") or field.replace("_", " ").capitalize()
    if prop.get("unit") and label is None:
        text = f"{text} ({prop['unit']})"
    help_text = help if help is not None else prop.get("description")
    choice_labels: Mapping[Any, str] = prop.get("choices") or (prop.get("items") or {}).get("choices") or {}
    if format_func is None and choice_labels:
        format_func = lambda value: choice_labels.get(str(value), str(value))  # noqa: E731
    if key not in st.session_state:
        st.session_state[key] = _to_state(kind, prop.get("default"))
    st.session_state.setdefault("_kit_kinds", {})[key] = kind
    fmt = format_func if format_func is not None else str
    if kind in ("select", "select_slider"):
        choices = list(options if options is not None else prop.get("enum", []))
        draw = st.selectbox if kind == "select" else st.select_slider
        return draw(text, choices, key=key, help=help_text, format_func=fmt, disabled=disabled)
    if kind == "multiselect":
        choices = list(options if options is not None else (prop.get("items") or {}).get("enum", []))
        return st.multiselect(text, choices, key=key, help=help_text, format_func=fmt, disabled=disabled)
    if kind == "checkbox":
        return st.checkbox(text, key=key, help=help_text, disabled=disabled)
    if kind in ("slider", "number"):
        integer = prop.get("type") == "integer"
        low, high = _bound(prop, "min"), _bound(prop, "max")
        cast: Callable[[float], Any] = int if integer else float
        bounds = {"min_value": None if low is None else cast(low), "max_value": None if high is None else cast(high)}
        if kind == "slider" and low is not None and high is not None:
            chosen_step = cast(step) if step is not None else (1 if integer else _step(prop, low, high))
            return st.slider(text, step=chosen_step, key=key, help=help_text, disabled=disabled, **bounds)
        kwargs: dict[str, Any] = {"step": cast(step) if step is not None else (1 if integer else None)}
        if not integer:
            kwargs["format"] = "%g"
        # No min/max on the widget: Streamlit would silently keep the previous value of an
        # out-of-range entry. The kit checks the schema's bounds and refuses the run instead.
        value = st.number_input(text, key=key, help=help_text, disabled=disabled,
                                **{k: v for k, v in kwargs.items() if v is not None})
        problem = bound_problem(prop, value, text)
        if problem:
            report_input_error(problem)
        return value
    if kind == "list":
        raw = st.text_input(text, key=key, help=(help_text or "") + " (comma-separated numbers)", disabled=disabled)
        try:
            return _parse_numbers(raw, (prop.get("items") or {}).get("type") == "integer", text)
        except KitInputError as exc:
            report_input_error(str(exc))
            return raw
    if kind == "lines":
        raw = st.text_area(text, key=key, help=(help_text or "") + " (one per line)", disabled=disabled,
                           height=max(68, 28 * min(6, _line_count(key) + 1)))
        return [line.strip() for line in raw.splitlines() if line.strip()]
    raw_text = st.text_input(text, key=key, help=help_text, max_chars=prop.get("maxLength"), disabled=disabled)
    return None if (prop.get("nullable") and not raw_text.strip()) else raw_text


def bound_problem(prop: Mapping[str, Any], value: Any, label: str) -> str:
    """The message for a number outside the schema's bounds ("" when it is inside)."""
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    if not math.isfinite(float(value)):
        return f"{label}: {value} is not a finite number"
    low, high = prop.get("minimum"), prop.get("maximum")
    if low is not None and value < low:
        return f"{label}: {value:g} is below the minimum of {low:g}"
    if high is not None and value > high:
        return f"{label}: {value:g} is above the maximum of {high:g}"
    if prop.get("exclusiveMinimum") is not None and value <= prop["exclusiveMinimum"]:
        return f"{label}: {value:g} is below the minimum: it must be above {prop['exclusiveMinimum']:g}"
    if prop.get("exclusiveMaximum") is not None and value >= prop["exclusiveMaximum"]:
        return f"{label}: {value:g} is above the maximum: it must be below {prop['exclusiveMaximum']:g}"
    return ""


def keep_controls(method: str) -> None:
    """Remember the page's control values outside the widgets (Streamlit drops a widget's state when
    its page is not drawn), so leaving the page during a run and coming back keeps them."""
    prefix = f"{method}."
    drawn = st.session_state.get("_kit_kinds", {})  # the kit's own widgets: safe to set through state
    saved = {k: st.session_state[k] for k in drawn if k.startswith(prefix) and k in st.session_state}
    st.session_state.setdefault(_SAVED, {}).setdefault(method, {}).update(saved)


def restore_controls(method: str, shown_params: Mapping[str, Any] | None = None) -> None:
    """Put back the control values `keep_controls` saved, for widgets not drawn since (the page was left).

    The page's own controls (nested tables, pickers) are rebuilt from the params of the run it shows,
    through its loader; the kit's widgets then get the values they had when the page was left."""
    saved = st.session_state.get(_SAVED, {}).get(method, {})
    missing = {key: value for key, value in saved.items() if key not in st.session_state}
    if not missing:
        return
    if shown_params is not None:
        apply_params(method, shown_params)
    for key, value in missing.items():
        st.session_state[key] = value


def _line_count(key: str) -> int:
    value = st.session_state.get(key)
    return len(str(value).splitlines()) if value else 1


def report_input_error(message: str) -> None:
    """Show `message` under the control it concerns and keep the page from submitting this run."""
    st.error(message, icon="⚠️")
    st.session_state.setdefault(_ERRORS, []).append(message)


def pending_input_errors() -> list[str]:
    """Messages of controls whose values could not be parsed in this run (cleared by `method_page`)."""
    return list(st.session_state.get(_ERRORS, []))


def clear_input_errors() -> None:
    """Forget the previous run's input errors (at the top of every page run)."""
    st.session_state[_ERRORS] = []


def apply_params(method: str, params: Mapping[str, Any]) -> None:
    """Load `params` (an example or an earlier run's inputs) into the page's controls.

    Fields the page draws with `param_widget` are set directly (missing ones go back to their
    defaults); the page's own loader (registered by `example_picker(on_load=...)`) handles the rest.
    """
    schema = method_info(method)["params_schema"]
    kinds: dict[str, str] = st.session_state.get("_kit_kinds", {})
    for field, prop in schema.get("properties", {}).items():
        key = param_key(method, field)
        resolved = _resolve(dict(prop), schema)
        kind = kinds.get(key) or _kind(resolved, None)
        if resolved.get("type") == "object" and field not in params:
            continue
        value = params.get(field, resolved.get("default"))
        st.session_state[key] = _to_state(kind, value)
    loader = st.session_state.get(_LOADERS, {}).get(method)
    if loader is not None:
        loader(dict(params))
    else:  # the page registers its loader later in this run (a permalink opened in a fresh session)
        st.session_state.setdefault(_PENDING, {})[method] = dict(params)


def example_picker(method: str, *, on_load: Callable[[dict[str, Any]], None] | None = None) -> str | None:
    """Declare the page's example picker; returns the name of the chosen example (None: custom).

    `method_page` draws the "Example" selectbox above the controls (a callback cannot live inside a
    form); choosing an example loads it into every `param_widget` of the page, and `on_load(params)`
    fills the controls the page draws itself (nested parameters, tables). `on_load` is also used
    when an earlier run's inputs are restored (`?job=<id>`, a history row).
    """
    st.session_state.setdefault(_LOADERS, {})[method] = on_load
    pending = st.session_state.get(_PENDING, {}).pop(method, None)
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


def format_number(value: Any, digits: int = 4) -> str:
    """A number for people: `digits` significant digits, no exponent at ordinary sizes, '—' when missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if value == 0:
        return "0"
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e6:
        decimals = max(0, digits - 1 - math.floor(math.log10(magnitude)))
        text = f"{value:.{decimals}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return f"{value:.{digits - 1}e}"


def mark(ok: bool | None) -> str:
    """✅ for a check that holds, ❌ for one that fails, — when it does not apply."""
    if ok is None:
        return "—"
    return "✅" if ok else "❌"


def edit_table(frame: pd.DataFrame, **kwargs: Any) -> pd.DataFrame:
    """An editable input table (`st.data_editor`) whose empty cells show empty, not "None": in an input
    table an empty cell means "not set" (an optional field), which the page turns into a missing param."""
    return st.data_editor(frame, placeholder="", **kwargs)
