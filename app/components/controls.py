"""The page's controls, built from the method's params schema: label, help, default and bounds come from
the pydantic `Params`, so a page writes only what is special about it; values that cannot be parsed or lie
outside the bounds are reported under the control and keep the page from submitting."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from app.components.schema import (
    control_kind,
    examples,
    field_schema,
    method_info,
    param_key,
    resolve_ref,
    schema_bound,
    to_state,
)

__all__ = ["KitInputError", "LOADERS", "PENDING", "apply_params", "bound_problem", "clear_input_errors", "keep_controls", "param_widget", "pending_input_errors", "report_input_error", "restore_controls", "unchanged_example", "field_columns"]

LOADERS = "_kit_loaders"  # method -> the page's own loader of params (examples.py registers it)
PENDING = "_kit_pending_loads"  # params waiting for a loader registered later in the run
_ERRORS = "_kit_errors"
_SAVED = "_kit_saved"


class KitInputError(ValueError):
    """A control holds a value that cannot be turned into a parameter (shown next to the control)."""


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
    kind = control_kind(prop, widget)
    key = param_key(method, field)
    text = label or prop.get("title") or field.replace("_", " ").capitalize()
    if prop.get("unit") and label is None:
        text = f"{text} ({prop['unit']})"
    help_text = help if help is not None else prop.get("description")
    choice_labels: Mapping[Any, str] = prop.get("choices") or (prop.get("items") or {}).get("choices") or {}
    if format_func is None and choice_labels:
        format_func = lambda value: choice_labels.get(str(value), str(value))  # noqa: E731
    if key not in st.session_state:
        st.session_state[key] = to_state(kind, prop.get("default"))
    st.session_state.setdefault("_kit_kinds", {})[key] = kind
    fmt = format_func if format_func is not None else str
    if kind in ("select", "select_slider", "multiselect", "checkbox"):
        return _choice_control(kind, prop, text, key, help_text, options, fmt, disabled)
    if kind in ("slider", "number"):
        return _number_control(kind, prop, text, key, help_text, step, disabled)
    return _text_control(kind, prop, text, key, help_text, disabled)


def _choice_control(kind: str, prop: dict[str, Any], text: str, key: str, help_text: str | None,
                    options: Sequence[Any] | None, fmt: Callable[[Any], Any], disabled: bool) -> Any:
    if kind in ("select", "select_slider"):
        choices = list(options if options is not None else prop.get("enum", []))
        draw = st.selectbox if kind == "select" else st.select_slider
        return draw(text, choices, key=key, help=help_text, format_func=fmt, disabled=disabled)
    if kind == "multiselect":
        choices = list(options if options is not None else (prop.get("items") or {}).get("enum", []))
        return st.multiselect(text, choices, key=key, help=help_text, format_func=fmt, disabled=disabled)
    return st.checkbox(text, key=key, help=help_text, disabled=disabled)


def _number_control(kind: str, prop: dict[str, Any], text: str, key: str, help_text: str | None,
                    step: float | None, disabled: bool) -> Any:
    integer = prop.get("type") == "integer"
    low, high = schema_bound(prop, "min"), schema_bound(prop, "max")
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


def _text_control(kind: str, prop: dict[str, Any], text: str, key: str, help_text: str | None, disabled: bool) -> Any:
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
        resolved = resolve_ref(dict(prop), schema)
        kind = kinds.get(key) or control_kind(resolved, None)
        if resolved.get("type") == "object" and field not in params:
            continue
        value = params.get(field, resolved.get("default"))
        st.session_state[key] = to_state(kind, value)
    loader = st.session_state.get(LOADERS, {}).get(method)
    if loader is not None:
        loader(dict(params))
    else:  # the page registers its loader later in this run (a permalink opened in a fresh session)
        st.session_state.setdefault(PENDING, {})[method] = dict(params)


def unchanged_example(method: str, params: Mapping[str, Any]) -> str | None:
    """The label of the example picked above the controls when `params` are exactly its inputs (every
    field; a missing one reads as its default); None once any control differs or no example is picked.
    The run is then stored as started from that example (Home's "Reproduce the paper" status reads it)."""
    picked = st.session_state.get(f"{method}._example")  # the picker's key (examples.py)
    chosen = examples(method).get(picked) if isinstance(picked, str) else None
    if chosen is None:
        return None
    fields = (method_info(method).get("params_schema") or {}).get("properties") or {}

    def value(source: Mapping[str, Any], key: str) -> Any:
        return source[key] if key in source else (fields.get(key) or {}).get("default")

    same = all(value(params, key) == value(chosen, key) for key in {*fields, *params, *chosen})
    return picked if same else None


def field_columns(method: str, fields: Sequence[Sequence[str]], *, widgets: Mapping[str, str] | None = None,
                  steps: Mapping[str, float] | None = None, caption: str = "") -> dict[str, Any]:
    """The page's controls, one `st.columns` column per group of field names; returns the params dict.

    Each field is a `param_widget` (label, unit, help and bounds from the schema); `widgets` forces a
    widget per field (a seed is a number box unless said otherwise), `steps` a slider's step. `caption`
    is shown below the columns."""
    forced = {"seed": "number", **(widgets or {})}
    values: dict[str, Any] = {}
    for column, names in zip(st.columns(len(fields)), fields, strict=True):
        with column:
            for field in names:
                values[field] = param_widget(method, field, widget=forced.get(field) or None, step=(steps or {}).get(field))
    if caption:
        st.caption(caption)
    return values
