"""Bilateral trade page: pick a valuation distribution and learners, compare regret against WBB and GBB."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from app import components as kit

NAME = "bilateral_trade"
RECTANGLE_COLUMNS = ["s_lo", "s_hi", "b_lo", "b_hi", "mass"]
ADVANCED = ["grid_points", "explore_scale", "beta_scale", "confidence_scale", "batch_growth", "min_horizon_exponent"]
HORIZONS = [2**k for k in range(10, 27)]  # above 2^20 only the streamed learners run


def _sub_schema(group: str) -> dict[str, dict[str, Any]]:
    """The properties of a nested parameter model (DistributionParams, AdvancedSettings)."""
    return dict(kit.field_schema(NAME, group).get("properties", {}))


def _key(group: str, field: str) -> str:
    return f"{NAME}.{group}.{field}"


def _load(params: dict[str, Any]) -> None:
    """Fill the controls this page draws itself: distribution, rectangles, learners, advanced."""
    for group in ("distribution", "advanced"):
        for field, prop in _sub_schema(group).items():
            if field != "rectangles":
                st.session_state[_key(group, field)] = params.get(group, {}).get(field, prop.get("default"))
    rects = params.get("distribution", {}).get("rectangles")
    if rects is not None:
        st.session_state[_key("distribution", "table")] = pd.DataFrame(
            [[*r["s"], *r["b"], r["mass"]] for r in rects], columns=RECTANGLE_COLUMNS
        )
    chosen = params.get("learners", list(kit.resource(NAME, "learners")))
    for name in kit.resource(NAME, "learners"):
        st.session_state[_key("learner", name)] = name in chosen


def _nested(group: str, field: str, **kwargs: Any) -> Any:
    """A slider for one nested numeric parameter, label and help from its schema."""
    kwargs.setdefault("label", field.replace("_", " ").capitalize())
    return kit.param_widget(NAME, f"{group}.{field}", widget="slider", **kwargs)


def _rectangles() -> list[dict[str, Any]]:
    """The rectangle table, checked row by row (rows counted from 1) before it is submitted."""
    st.caption("Each row spreads its relative mass uniformly on [s_lo, s_hi] x [b_lo, b_hi]; lo = hi is an atom.")
    key = _key("distribution", "table")
    default = [[0.0, 0.2, 0.3, 0.5, 1.0], [0.5, 0.7, 0.8, 1.0, 1.0]]
    st.session_state.setdefault(key, pd.DataFrame(default, columns=RECTANGLE_COLUMNS))
    frame = kit.edit_table(st.session_state[key], num_rows="dynamic", key=f"{key}.editor", width="stretch")
    rows = []
    for number, row in enumerate(frame.itertuples(index=False), start=1):
        empty = [c for c, v in zip(RECTANGLE_COLUMNS, row, strict=True) if v is None or pd.isna(v)]
        if empty:
            kit.report_input_error(f"Rectangles, row {number}: empty cell {', '.join(empty)}: fill it or delete the row")
            continue
        v = dict(zip(RECTANGLE_COLUMNS, map(float, row), strict=True))
        problems = [f"{c} = {v[c]:g} is outside [0, 1]" for c in RECTANGLE_COLUMNS[:4] if not 0 <= v[c] <= 1]
        problems += [f"{x}_lo must not exceed {x}_hi" for x in "sb" if v[f"{x}_lo"] > v[f"{x}_hi"]]
        problems += ["the mass must be at least 0"] if v["mass"] < 0 else []
        for problem in problems:
            kit.report_input_error(f"Rectangles, row {number}: {problem}")
        rows.append({"s": [v["s_lo"], v["s_hi"]], "b": [v["b_lo"], v["b_hi"]], "mass": v["mass"]})
    if len(rows) > 12:
        kit.report_input_error(f"Rectangles: {len(rows)} rows, at most 12")
    return rows


def _distribution() -> dict[str, Any]:
    st.session_state.setdefault(_key("distribution", "kind"), "two_markets")
    kinds = kit.field_schema(NAME, "distribution.kind")  # the labels are the model's (params.KIND_LABELS)
    kind = st.selectbox(kinds["title"], list(kinds["choices"]), format_func=kinds["choices"].__getitem__,
                        key=_key("distribution", "kind"))
    spec: dict[str, Any] = {"kind": kind}
    if kind in ("factor_two", "two_squares"):
        spec["eta"] = _nested("distribution", "eta", label="Gap eta between the two atoms", step=0.005)
    if kind == "two_squares":
        spec["width"] = _nested("distribution", "width", label="Square side", step=0.005)
    if kind == "gaussian_copula":
        spec["rho"] = _nested("distribution", "rho", label="Correlation rho", step=0.05)
    if kind == "rectangles":
        spec["rectangles"] = _rectangles()
    return spec


def _learner_choice() -> list[str]:
    """One checkbox per learner with its full label: every choice visible, nothing truncated."""
    st.markdown("**Learners**")
    learners = kit.resource(NAME, "learners")
    cells = st.columns(2)
    for index, (name, info) in enumerate(learners.items()):
        st.session_state.setdefault(_key("learner", name), True)
        with cells[index % 2]:
            st.checkbox(info["label"], key=_key("learner", name), help=f"`{name}`")
    chosen = [name for name in learners if st.session_state[_key("learner", name)]]
    if not chosen:
        kit.report_input_error("Learners: choose at least one")
    return chosen


def controls() -> dict[str, Any]:
    """Distribution, horizon, seeds, learners, the LP grid, and the practical learners' constants."""
    kit.example_picker(NAME, on_load=_load)
    distribution = _distribution()
    left, right = st.columns(2)
    with left:
        current = st.session_state.get(f"{NAME}.horizon", 1 << 20)
        horizon = kit.param_widget(NAME, "horizon", label="Horizon T (rounds)", widget="select_slider",
                               options=sorted({*HORIZONS, int(current)}), format_func=lambda t: f"2^{t.bit_length() - 1} = {t:,}" if t & (t - 1) == 0 else f"{t:,}")
        seeds = kit.param_widget(NAME, "seeds", label="Seeds")
    with right:
        grid_size = kit.param_widget(NAME, "grid_size", label="Benchmark LP grid K (K x K price couples)")
        seed = kit.param_widget(NAME, "seed", label="Base seed")
    learners = _learner_choice()
    with st.expander("Advanced: constants of the practical learners (the paper learner uses its own)"):
        a, b = st.columns(2)
        advanced = {}
        for index, field in enumerate(ADVANCED):
            with (a if index % 2 == 0 else b):
                advanced[field] = _nested("advanced", field)
    return {"distribution": distribution, "horizon": int(horizon), "seeds": int(seeds), "seed": int(seed),
            "learners": learners, "grid_size": int(grid_size), "advanced": advanced}


def _benchmarks(job: kit.JobView) -> None:
    bench, dist = job.result["benchmarks"], job.result["distribution"]
    st.subheader("Benchmarks (expected gain from trade per round)")
    (st.info if dist["guarantee_applies"] else st.warning)(f"**{dist['label']}**: {dist['badge']}.")
    ratio = bench["gbb_over_fixed"]
    kit.metric_cards([("First best E[(b - s)+]", f"{bench['first_best']:.4f}"),
                      ("Best fixed price", f"{bench['fixed_price']:.4f}"),
                      ("GBB optimum (bracket)", f"[{bench['gbb_lower']:.4f}, {bench['gbb_upper']:.4f}]"),
                      ("GBB / fixed price", "n/a" if ratio is None else f"{ratio:.3f}")],
                     helps={"Best fixed price": f"x* = {bench['fixed_price_x']:.4f}"})
    st.latex(rf"\text{{gbb\_lower}} = {bench['gbb_lower']:.5f} \;\le\; \text{{GBB}} \;\le\; "
             rf"{bench['gbb_upper']:.5f} = \text{{gbb\_upper}}")
    st.caption(f"Lower: {bench['gbb_lower_method']}. Upper: {bench['gbb_upper_method']}. Regret uses gbb_lower.")
    kit.show_tables(job, ["Benchmark checks", "The optimal distribution over price couples"], headings=False)


def render(job: kit.JobView) -> None:
    """Benchmarks and bracket, the learners table, the practical learner's departures, then the figures."""
    result = job.result
    _benchmarks(job)
    kit.show_tables(job, ["Learners at T"])
    for s in result["learners"].values():
        if s.get("notes"):
            st.markdown(f"**{s['label']}**: {s['notes']}.")
    kit.show_figures(job, ["regret_vs_gbb", "regret_by_phase", "regret_loglog"])
    if "gbb_one_bit" in result["learners"]:
        st.subheader("How the practical learner departs from the paper's")
        kit.table(kit.resource(NAME, "departures"))
    kit.show_figures(job, ["cumulative_profit", "regret_vs_wbb", "price_heatmap", "valuations"])


kit.method_page(NAME, controls=controls, render=render, form=False)
