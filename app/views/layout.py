"""Layout page (R^3L): a room edited as tables or sentences in, a checked 3D layout out, or the
contradictions named and proved."""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd
import streamlit as st

from app.components import (
    JobView,
    edit_table,
    example_picker,
    examples,
    field_columns,
    field_schema,
    method_info,
    method_page,
    param_widget,
    report_input_error,
    resource,
    show_figures,
    show_metrics,
    show_tables,
)
from app.components.controls import bound_problem
from app.components.plain import plain
from app.components.schema import resolve_ref

NAME = "layout"
OBJECT_COLUMNS = ["name", "width", "depth", "height", "yaw"]
RELATION_COLUMNS = ["type", "a", "b", "wall", "corner", "axis", "distance"]
OPENING_COLUMNS = ["name", "kind", "wall", "offset", "width", "clearance", "sill"]
ROOM_KEYS = {"width": f"{NAME}.room_width", "depth": f"{NAME}.room_depth", "height": f"{NAME}.room_height"}
FRAMES = {"objects": f"{NAME}._objects", "relations": f"{NAME}._relations", "openings": f"{NAME}._openings"}
EDITORS = {kind: f"{key}_editor" for kind, key in FRAMES.items()}
BUDGET = (("stage1_iterations", "number"), ("stage2_iterations", "number"), ("repair_rounds", "slider"),
          ("milp_seconds", "number"))
JSON_KEY, USE_JSON_KEY = f"{NAME}._scene_json", f"{NAME}._use_json"
RANDOM_KEY, RANDOM_SEED_KEY, RANDOM_OBJECTS_KEY = f"{NAME}._random", f"{NAME}._random_seed", f"{NAME}._random_objects"


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame([{c: row.get(c) for c in columns} for row in rows], columns=columns)


def _load_scene(scene: dict[str, Any]) -> None:
    """Put a scene into the room inputs, the three tables and the JSON editor (edits start afresh)."""
    room = scene.get("room") or {}
    for field, key in ROOM_KEYS.items():
        st.session_state[key] = float(room.get(field, {"width": 4.0, "depth": 3.6, "height": 2.6}[field]))
    st.session_state[FRAMES["objects"]] = _frame(scene.get("objects") or [], OBJECT_COLUMNS)
    st.session_state[FRAMES["relations"]] = _frame(scene.get("relations") or [], RELATION_COLUMNS)
    st.session_state[FRAMES["openings"]] = _frame(scene.get("openings") or [], OPENING_COLUMNS)
    for key in EDITORS.values():
        st.session_state.pop(key, None)
    st.session_state[JSON_KEY] = json.dumps(scene, indent=1)


def _on_load(params: dict[str, Any]) -> None:
    """An example or an earlier run was loaded: fill the tables (and the random-scene switch)."""
    _load_scene(params.get("scene") or examples_default())
    spec = params.get("random")
    st.session_state[RANDOM_KEY] = spec is not None
    if spec:
        st.session_state[RANDOM_SEED_KEY] = int(spec.get("seed", 0))
        st.session_state[RANDOM_OBJECTS_KEY] = int(spec.get("objects", 15))
    st.session_state[USE_JSON_KEY] = False


def examples_default() -> dict[str, Any]:
    """The first example's scene (the full studio), or an empty 4 x 3.6 m room when the server is down."""
    named = examples(NAME)
    first = next(iter(named.values()), {})
    return dict(first.get("scene") or {"room": {"width": 4.0, "depth": 3.6, "height": 2.6}, "objects": [], "relations": []})


def _clean(value: Any) -> Any:
    """Table cells: empty strings and NaN become None."""
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str) and not value.strip():
        return None
    return value.strip() if isinstance(value, str) else value


def _rows(frame: pd.DataFrame, columns: list[str], required: str) -> list[dict[str, Any]]:
    rows = []
    for record in frame.to_dict("records"):
        row = {c: _clean(record.get(c)) for c in columns}
        if row.get(required) is None:
            continue
        rows.append({k: v for k, v in row.items() if v is not None})
    return rows


def _scene_from_tables(objects: pd.DataFrame, relations: pd.DataFrame, openings: pd.DataFrame) -> dict[str, Any]:
    room = {field: float(st.session_state[key]) for field, key in ROOM_KEYS.items()}
    return {"room": room, "objects": _rows(objects, OBJECT_COLUMNS, "name"),
            "relations": _rows(relations, RELATION_COLUMNS, "type"), "openings": _rows(openings, OPENING_COLUMNS, "name")}


def _options(model: str, field: str) -> list[str]:
    """A scene field's allowed values, as the params schema declares them ("" first where it may be empty)."""
    schema = method_info(NAME)["params_schema"]
    prop = resolve_ref(dict(schema["$defs"][model]["properties"][field]), schema)
    return ([""] if prop.get("nullable") else []) + list(prop["enum"])


def _bounded_number(label: str, field: str, key: str, **kwargs: Any) -> Any:
    """A number input whose bounds come from the params schema (`field`, dotted) and are checked by the kit:
    an out-of-range entry is reported under the control and keeps the page from submitting (no min/max on the
    widget, which would silently keep the previous value)."""
    value = st.number_input(label, key=key, **kwargs)
    problem = bound_problem(field_schema(NAME, field), value, label)
    if problem:
        report_input_error(problem)
    return value


def _tables() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The room and the object, relation and door/window tables (edited in place)."""
    cols = st.columns(3)
    for col, (field, key) in zip(cols, ROOM_KEYS.items(), strict=True):
        with col:
            _bounded_number(f"Room {field} (m)", f"scene.room.{field}", key, step=0.1, format="%g",
                            help={"width": "x, west to east", "depth": "y, south to north", "height": "ceiling"}[field])
    number = st.column_config.NumberColumn
    objects = edit_table(
        st.session_state[FRAMES["objects"]], key=EDITORS["objects"], num_rows="dynamic", hide_index=True, width="stretch",
        column_config={"name": st.column_config.TextColumn("Object", required=True, max_chars=40),
                       "width": number("Width (m)", min_value=0.05, max_value=30.0, help="along the object's right"),
                       "depth": number("Depth (m)", min_value=0.05, max_value=30.0, help="along the object's front"),
                       "height": number("Height (m)", min_value=0.02, max_value=10.0),
                       "yaw": number("Fixed yaw (deg)", min_value=-180.0, max_value=180.0, help="optional; 0 faces north")})
    relations = edit_table(
        st.session_state[FRAMES["relations"]], key=EDITORS["relations"], num_rows="dynamic", hide_index=True,
        width="stretch",
        column_config={
            "type": st.column_config.SelectboxColumn("Relation", options=_options("Relation", "type"), required=True),
            "a": st.column_config.TextColumn("Object a"),
            "b": st.column_config.TextColumn("Reference b", help="left/right/in front/behind are in b's own frame"),
            "wall": st.column_config.SelectboxColumn("Wall", options=_options("Relation", "wall"),
                                                     help="against_wall, or facing a wall"),
            "corner": st.column_config.SelectboxColumn("Corner", options=_options("Relation", "corner")),
            "axis": st.column_config.SelectboxColumn("Align axis", options=_options("Relation", "axis"),
                                                     help="x: same x (a north-south line); y: same y"),
            "distance": number("Clearance (m)", min_value=0.2, max_value=3.0, help="walkway depth in front of a")})
    with st.expander("Doors and windows (their floor zones stay free)"):
        openings = edit_table(
            st.session_state[FRAMES["openings"]], key=EDITORS["openings"], num_rows="dynamic", hide_index=True,
            width="stretch",
            column_config={"name": st.column_config.TextColumn("Name", required=True),
                           "kind": st.column_config.SelectboxColumn("Kind", options=_options("Opening", "kind")),
                           "wall": st.column_config.SelectboxColumn("Wall", options=_options("Opening", "wall")),
                           "offset": number("Offset (m)", min_value=0.0, help="from the wall's west or south end"),
                           "width": number("Width (m)", min_value=0.3),
                           "clearance": number("Free depth (m)", min_value=0.1, max_value=3.0),
                           "sill": number("Sill (m)", min_value=0.0, help="windows: only taller furniture blocks")})
    return objects, relations, openings


def _json_editor() -> dict[str, Any] | None:
    """The advanced JSON editor; returns its scene when it is switched on and parses."""
    with st.expander("Advanced: edit the scene as JSON"):
        use = st.checkbox("Use this JSON instead of the tables", key=USE_JSON_KEY)
        text = st.text_area("Scene (JSON)", key=JSON_KEY, height=260,
                            help="{room, objects, relations, openings}, as in the tables above")
        if not use:
            return None
        try:
            scene = json.loads(text)
        except json.JSONDecodeError as exc:
            report_input_error(f"The scene is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.")
            return None
        return scene if isinstance(scene, dict) else None


def controls() -> dict[str, Any]:
    """Scene (tables, sentences, JSON or a generated one), LLM, revise, solver settings and ablations."""
    example_picker(NAME, on_load=_on_load)
    if FRAMES["objects"] not in st.session_state:
        _load_scene(examples_default())
    st.session_state.setdefault(RANDOM_KEY, False)
    st.session_state.setdefault(RANDOM_SEED_KEY, 0)
    st.session_state.setdefault(RANDOM_OBJECTS_KEY, 15)
    generated = st.toggle("Generate a random feasible scene instead (random_scene)", key=RANDOM_KEY)
    params: dict[str, Any] = {}
    if generated:
        left, right = st.columns(2)
        with left:
            seed = _bounded_number("Scene seed", "random.seed", RANDOM_SEED_KEY, step=1)
        with right:
            count = _bounded_number("Objects", "random.objects", RANDOM_OBJECTS_KEY, step=1)
        params["random"] = {"seed": int(seed), "objects": int(count)}
        st.caption("Objects are placed without collision first; only relations that hold in that layout are kept.")
    else:
        objects, relations, openings = _tables()
        scene = _scene_from_tables(objects, relations, openings)
        params["scene"] = _json_editor() or scene
        params["statements"] = param_widget(NAME, "statements", widget="lines",
                                            help="e.g. 'the lamp is on top of nightstand a', 'the desk is in the north "
                                                 "east corner', 'the wardrobe has 0.6 m of clearance in front'") or None
        llm = resource(NAME, "llm") or {}
        configured = bool(llm.get("configured"))
        params["use_llm"] = param_widget(NAME, "use_llm", disabled=not configured)
        if not configured:
            params["use_llm"] = False
            st.caption("No LLM is configured on this server (set LLM_BASE_URL and LLM_MODEL on the model server "
                       "to turn this on).")
        else:
            params["description"] = param_widget(NAME, "description")
    params |= field_columns(NAME, (("revise", "ablations", "milp"), ("starts", "seed", "seeds")),
                            widgets={"starts": "slider"})
    with st.expander("Optimiser budget"):
        params |= {field: param_widget(NAME, field, widget=widget) for field, widget in BUDGET}
    return params


def _conflicts(result: dict[str, Any]) -> None:
    st.subheader("Contradictions (proved)")
    certified = result.get("conflict_certified") or [None] * len(result["conflicts"])
    for k, (sentences, reason) in enumerate(zip(result["conflict_sentences"], result["conflict_reasons"], strict=True)):
        check = " · confirmed by the MILP solver" if certified[k] else ""
        st.markdown(f"**Conflict {k + 1}** ({plain(reason)}{check}):\n" + "\n".join(f"- {plain(s)}" for s in sentences))
    if result["suggested_drop"]:
        drop = [plain(result["relations"][k]["sentence"]) for k in result["suggested_drop"]]
        st.info("Revise would drop: " + "; ".join(drop) + ". Turn on *Revise contradictions* to lay out the rest.")


def _problems(result: dict[str, Any]) -> None:
    lines = [f"- collision: {plain(a)} and {plain(b)}" for a, b in result["collisions"]]
    lines += [f"- out of the room: {plain(name)}" for name in result["out_of_room"]]
    lines += [f"- {plain(obj)} stands in the free zone of {plain(opening)}" for opening, obj in result["blocked"]]
    lines += [f"- violated: {plain(result['relations'][k]['sentence'])}" for k in result["violations"]]
    if lines:
        st.warning("What still fails (drawn in red):\n" + "\n".join(lines))
    milp = result.get("milp")
    if milp:
        extra = ("; minimal infeasible set: relations " + ", ".join(str(k + 1) for k in milp["conflict"])
                 if milp.get("conflict") else "")  # relations are numbered from 1, as in the table
        st.caption(f"MILP solver: {milp['status']} in {milp['seconds']:.2f} s ({milp['binaries']} binaries; "
                   f"{milp['detail']}){extra}. An infeasible answer covers yaws from its finite set "
                   "(wall-aligned, diagonals where needed, pinned yaws).")


def render(job: JobView) -> None:
    """Message, then per status: layout figures and relations, or conflicts, or the infeasibility."""
    result = job.result
    st.markdown(plain(result.get("message", "")))
    status = result["status"]
    if status == "contradiction":
        _conflicts(result)
        show_figures(job, ["conflict_graph"])
        show_tables(job, ["Relations"])
        return
    if status == "infeasible":
        st.error("\n".join(f"- {plain(r)}" for r in result["reasons"]))
        show_figures(job, ["infeasible_plan"])
        return
    if status == "unsolved":
        _problems(result)
    elif result.get("milp"):
        _problems(result)
    if result.get("scene") is not None:
        st.caption(f"Generated scene: {len(result['boxes'])} objects, {len(result['relations'])} relations, room "
                   f"{result['room']['width']:g} x {result['room']['depth']:g} m (download result.json for the scene).")
    show_figures(job, ["scene_3d"])
    show_figures(job, ["floor_plan", "imagined_plan"], columns=2)
    show_metrics(job)
    show_tables(job)
    show_figures(job, ["ablations"])
    show_figures(job, ["loss"])


method_page(NAME, controls=controls, render=render, form=False)  # no form: the scene switch and tables redraw at once
