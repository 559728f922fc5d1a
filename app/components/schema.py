"""What a page reads of a method through the API: its schema, examples and resources, and how a field of
the params schema maps to a control kind. Every widget keeps its value in
`st.session_state[param_key(method, field)]`, which is how an example or an earlier run is loaded."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app import client

__all__ = ["control_kind", "examples", "field_schema", "method_info", "methods", "param_key", "resolve_ref", "resource", "schema_bound", "to_state"]


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
        prop = resolve_ref(child, schema)
    return prop


def resolve_ref(prop: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in prop:
        target = root.get("$defs", {}).get(prop["$ref"].split("/")[-1], {})
        prop = {**target, **{k: v for k, v in prop.items() if k != "$ref"}}
    if "anyOf" in prop:
        options = [option for option in prop["anyOf"] if option.get("type") != "null"]
        nullable = len(options) < len(prop["anyOf"])
        merged = {k: v for k, v in prop.items() if k != "anyOf"}
        if len(options) == 1:
            merged = {**resolve_ref(dict(options[0]), root), **merged}
        merged["nullable"] = nullable
        prop = merged
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        prop["items"] = resolve_ref(dict(prop["items"]), root)
    return prop


def control_kind(prop: dict[str, Any], widget: str | None) -> str:
    """Which widget a schema gets: select, multiselect, checkbox, slider, number, list, lines or text."""
    if widget:
        return widget
    items = prop.get("items") or {}
    if "enum" in prop:
        return "select"
    if prop.get("type") == "boolean":
        return "checkbox"
    if prop.get("type") in ("integer", "number"):
        bounded = schema_bound(prop, "min") is not None and schema_bound(prop, "max") is not None
        if bounded and (prop["type"] == "number" or (schema_bound(prop, "max") or 0) - (schema_bound(prop, "min") or 0) <= 1000):
            return "slider"
        return "number"
    if prop.get("type") == "array":
        if "enum" in items:
            return "multiselect"
        if items.get("type") in ("integer", "number"):
            return "list"
        return "lines"
    return "text"


def schema_bound(prop: dict[str, Any], side: str) -> float | None:
    if side == "min":
        value = prop.get("minimum", prop.get("exclusiveMinimum"))
    else:
        value = prop.get("maximum", prop.get("exclusiveMaximum"))
    return None if value is None else float(value)


def _number_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value)) if not isinstance(value, bool) else str(value)
    return str(value)


def to_state(kind: str, value: Any) -> Any:
    """A parameter value as its widget holds it (lists of numbers as "a, b, c", strings one per line)."""
    if kind == "list":
        return ", ".join(_number_text(v) for v in (value or []))
    if kind == "lines":
        return "\n".join(str(v) for v in (value or []))
    if kind == "text":
        return "" if value is None else str(value)
    return value
