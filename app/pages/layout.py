"""Layout page (R^3L): relations in, a checked 3D room out, or the contradictions named."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from app.components import JobView, examples, method_page, show_figures, show_metrics

NAME = "layout"
SCENE_KEY = "layout_scene_json"
STATEMENTS_KEY = "layout_statements"
ABLATIONS_KEY = "layout_ablations"
EXAMPLE_KEY = "layout_example"
CUSTOM = "(edit your own)"
ABLATIONS = ["no_decomposition", "no_imagination", "no_reparameterisation"]
DEFAULT_SCENE = {
    "room": {"width": 4.0, "depth": 3.6, "height": 2.6},
    "objects": [{"name": "bed", "width": 1.6, "depth": 2.0, "height": 0.5},
                {"name": "nightstand", "width": 0.45, "depth": 0.4, "height": 0.55},
                {"name": "lamp", "width": 0.25, "depth": 0.25, "height": 0.4}],
    "relations": [{"type": "against_wall", "a": "bed", "wall": "north"},
                  {"type": "left_of", "a": "nightstand", "b": "bed"},
                  {"type": "on_top_of", "a": "lamp", "b": "nightstand"}],
}
TICK, CROSS, NONE = "✅", "❌", "➖"


def _load_example() -> None:
    chosen = examples(NAME).get(st.session_state.get(EXAMPLE_KEY, ""))
    if not chosen:
        return
    st.session_state[SCENE_KEY] = json.dumps(chosen["scene"], indent=1)
    st.session_state[STATEMENTS_KEY] = "\n".join(chosen.get("statements") or [])
    st.session_state[ABLATIONS_KEY] = list(chosen.get("ablations") or [])


def _objects_preview(scene: dict[str, Any]) -> None:
    objects = scene.get("objects") or []
    if objects and isinstance(objects, list):
        table = pd.DataFrame([{k: o.get(k) for k in ("name", "width", "depth", "height")} for o in objects
                              if isinstance(o, dict)])
        st.caption(f"{len(objects)} objects, {len(scene.get('relations') or [])} relations in the JSON")
        st.dataframe(table, hide_index=True, width="stretch", height=min(36 * (len(table) + 1), 240))


def controls() -> dict[str, Any]:
    """Example picker, the scene JSON, optional sentences and LLM description, ablations, budget."""
    st.session_state.setdefault(SCENE_KEY, json.dumps(DEFAULT_SCENE, indent=1))
    st.session_state.setdefault(STATEMENTS_KEY, "")
    st.session_state.setdefault(ABLATIONS_KEY, [])
    st.selectbox("Example", [CUSTOM, *examples(NAME)], key=EXAMPLE_KEY, on_change=_load_example,
                 help="Loads a scene (and its sentences or ablations) into the boxes below.")
    left, right = st.columns([3, 2])
    with left:
        text = st.text_area(
            "Scene (JSON)", key=SCENE_KEY, height=300,
            help="room {width, depth, height} in m (x west->east, y south->north); objects [{name, width, depth, "
                 "height}] (width along the object's right, depth along its front); relations [{type, a, b}] or "
                 "[{type, a, wall}]: left_of, right_of, in_front_of, behind (in b's frame), west_of, east_of, "
                 "south_of, north_of, facing, near, far, against_wall, on_top_of.")
        try:
            scene: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            st.error(f"The scene is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.")
            scene = text
        if isinstance(scene, dict):
            _objects_preview(scene)
    with right:
        statements = st.text_area(
            "More relations as sentences (one a line)", key=STATEMENTS_KEY, height=160,
            help="e.g. 'the lamp is on top of nightstand a', 'wardrobe faces bed', 'the desk is against the east "
                 "wall'. A sentence the parser does not understand is reported, not guessed.")
        ablations = st.multiselect("Compare with ablations", ABLATIONS, key=ABLATIONS_KEY,
                                   help="Each ablation runs on the same scene; the table compares them.")
        revise = st.checkbox("Revise contradictions (drop the fewest relations)", value=False)
        with st.expander("LLM proposer and optimiser"):
            use_llm = st.checkbox("Ask the LLM for relations (if the server has LLM_BASE_URL)", value=False)
            description = st.text_area("Room description for the LLM", value="", height=80)
            stage1 = st.slider("Stage 1 steps (relations only)", 0, 400, 80)
            stage2 = st.slider("Stage 2 steps (with physics)", 20, 800, 200)
            repairs = st.slider("Repair rounds", 0, 6, 3)
            seed = st.number_input("Seed", 0, 2**31 - 1, 0)
    lines = [line.strip() for line in statements.splitlines() if line.strip()]
    return {
        "scene": scene, "statements": lines or None, "ablations": ablations, "revise": revise, "use_llm": use_llm,
        "description": description, "stage1_iterations": int(stage1), "stage2_iterations": int(stage2),
        "repair_rounds": int(repairs), "seed": int(seed),
    }


def _relations_table(result: dict[str, Any]) -> None:
    relations = result.get("relations") or []
    if not relations:
        return
    st.subheader("Relations")
    conflicted = {k for c in result.get("conflicts") or [] for k in c}
    table = pd.DataFrame({
        "#": [r["index"] for r in relations],
        "Holds": [NONE if r.get("satisfied") is None else (TICK if r["satisfied"] else CROSS) for r in relations],
        "Relation": [r["sentence"] for r in relations],
        "Conflict": ["⚠️" if r["index"] in conflicted else "" for r in relations],
        "Dropped": ["dropped" if r.get("dropped") else "" for r in relations],
        "From": [r.get("source", "scene") for r in relations],
    })
    st.dataframe(table, hide_index=True, width="stretch")


def _conflicts(result: dict[str, Any]) -> None:
    conflicts = result.get("conflicts") or []
    if not conflicts:
        return
    st.subheader("Minimal conflicting sets")
    st.markdown("Each set below cannot hold as a whole, yet removing any one of its relations lifts that conflict.")
    for n, (indices, sentences) in enumerate(zip(conflicts, result.get("conflict_sentences") or [], strict=False)):
        reason = (result.get("conflict_reasons") or [""] * len(conflicts))[n]
        items = "\n".join(f"- [{k}] {s}" for k, s in zip(indices, sentences, strict=False))
        st.markdown(f"**Conflict {n + 1}**: {reason}\n{items}")
    drop = result.get("suggested_drop") or []
    if drop and result.get("status") == "contradiction":
        names = {r["index"]: r["sentence"] for r in result.get("relations") or []}
        st.info("Revise would drop " + "; ".join(f"[{k}] {names.get(k, '')}" for k in drop)
                + ". Tick 'Revise contradictions' and run again to lay out the rest.")


def _ablations(job: JobView) -> None:
    rows = job.result.get("ablations") or []
    if not rows:
        return
    st.subheader("Ablations on the same scene")
    table = pd.DataFrame({
        "Variant": [r["variant"] for r in rows],
        "Collisions": [r["collision_count"] for r in rows],
        "Out of room": [r["out_of_room_count"] for r in rows],
        "Relations satisfied (%)": [round(100 * r["relation_fraction"], 1) for r in rows],
        "Time (s)": [r["seconds"] for r in rows],
        "Repair rounds": [r["repair_rounds"] for r in rows],
    })
    st.dataframe(table, hide_index=True, width="stretch")
    show_figures(job, ["ablations"])


def render(job: JobView) -> None:
    """Verdict, figures, the relation list with ticks, conflicts, metrics, ablations."""
    result = job.result
    status = result.get("status")
    message = result.get("message", "")
    if status == "ok":
        clean = not result.get("collisions") and not result.get("out_of_room") and all(
            r.get("satisfied") is not False for r in result.get("relations") or [])
        (st.success if clean else st.warning)(f"Layout: {message}.")
        if result.get("dropped"):
            st.info(f"Revise dropped {len(result['dropped'])} relation(s) to restore consistency (see the table).")
        show_figures(job, ["scene_3d", "floor_plan"])
    elif status == "contradiction":
        st.error(f"Contradiction: {message}.")
        _conflicts(result)
        show_figures(job, ["conflict_graph"])
    else:
        st.error("Infeasible: " + "; ".join(result.get("reasons") or []))
        show_figures(job, ["infeasible_plan"])
    if result.get("unparsed"):
        st.warning("The LLM proposed sentences the parser could not read:\n" + "\n".join(f"- {u}" for u in result["unparsed"]))
    _relations_table(result)
    if status == "ok":
        _conflicts(result)
    show_metrics(job)
    _ablations(job)
    if status == "ok":
        with st.expander("How it got there: clusters, imagined start, loss"):
            clusters = result.get("clusters") or []
            st.dataframe(pd.DataFrame({"Anchor": [c["anchor"] for c in clusters],
                                       "Members (in the anchor's frame)": [", ".join(c["members"]) for c in clusters]}),
                         hide_index=True, width="stretch")
            show_figures(job, ["imagined_plan", "loss"])


method_page(NAME, controls=controls, render=render, form=False)
