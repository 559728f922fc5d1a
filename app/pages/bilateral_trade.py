"""Bilateral trade page: pick a valuation distribution and learners, compare regret vs WBB and GBB."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import streamlit as st

from app.components import JobView, examples, method_page, show_figures

NAME = "bilateral_trade"
KINDS = {
    "two_markets": "Two separated markets (bounded density 16.7)",
    "factor_two": "Factor-two atoms (density unbounded)",
    "two_squares": "Two small squares: bounded-density factor two",
    "uniform": "Independent uniform (density 1)",
    "gaussian_copula": "Gaussian copula (unbounded density unless rho = 0)",
    "rectangles": "Your own mixture of uniform rectangles",
}
LEARNERS = {
    "fixed_price": "Best fixed price (WBB oracle)",
    "wbb_one_bit": "WBB explore-then-commit, one-bit",
    "wbb_two_bit": "WBB explore-then-commit, two-bit (sees 1{s<=p} and 1{b>=q})",
    "gbb_one_bit": "GBB three-phase, one-bit (the paper)",
    "gbb_full": "GBB, full feedback (reference)",
}
DEFAULT_RECTANGLES = pd.DataFrame(
    {"s_lo": [0.0, 0.5], "s_hi": [0.2, 0.7], "b_lo": [0.3, 0.8], "b_hi": [0.5, 1.0], "mass": [1.0, 1.0]}
)


DEFAULTS: dict[str, Any] = {
    "bt_kind": "two_markets", "bt_eta": 0.01, "bt_width": 0.05, "bt_rho": 0.5, "bt_horizon": 2**16,
    "bt_seeds": 3, "bt_learners": list(LEARNERS), "bt_grid": 101,
}
CUSTOM = "(set the controls yourself)"
EXAMPLE_KEY = "bt_example"


def _load_example() -> None:
    """Copy the chosen example's parameters into the widgets' session state."""
    chosen = examples(NAME).get(st.session_state.get(EXAMPLE_KEY, ""))
    if not chosen:
        return
    spec = chosen.get("distribution", {})
    state = st.session_state
    state["bt_kind"] = spec.get("kind", "two_markets")
    for field, key in (("eta", "bt_eta"), ("width", "bt_width"), ("rho", "bt_rho")):
        if field in spec:
            state[key] = spec[field]
    state["bt_horizon"] = chosen.get("horizon", 2**16)
    state["bt_seeds"] = chosen.get("seeds", 3)
    state["bt_learners"] = chosen.get("learners", list(LEARNERS))
    state["bt_grid"] = chosen.get("grid_size", 101)


def _distribution_controls() -> dict[str, Any]:
    kind = st.selectbox(
        "Valuation distribution D of (seller value s, buyer value b)",
        list(KINDS),
        format_func=KINDS.__getitem__,
        key="bt_kind",
    )
    spec: dict[str, Any] = {"kind": kind}
    if kind in ("factor_two", "two_squares"):
        spec["eta"] = st.slider("Gap eta between the two atoms", 0.0, 0.2, step=0.005, key="bt_eta")
    if kind == "two_squares":
        spec["width"] = st.slider("Square side (density bound = 1 / (2 side^2))", 0.005, 0.2, step=0.005, key="bt_width")
    if kind == "gaussian_copula":
        spec["rho"] = st.slider("Correlation rho", -0.95, 0.95, step=0.05, key="bt_rho")
    if kind == "rectangles":
        st.caption(
            "Each row spreads its (relative) mass uniformly on [s_lo, s_hi] x [b_lo, b_hi]; lo = hi makes an atom. "
            "All values must lie in [0, 1]."
        )
        table = st.data_editor(DEFAULT_RECTANGLES, num_rows="dynamic", key="bt_rectangles", width="stretch")
        spec["rectangles"] = [
            {"s": [float(r.s_lo), float(r.s_hi)], "b": [float(r.b_lo), float(r.b_hi)], "mass": float(r.mass)}
            for r in table.itertuples()
            if not any(pd.isna(v) for v in (r.s_lo, r.s_hi, r.b_lo, r.b_hi, r.mass))
        ]
    return spec


def controls() -> dict[str, Any]:
    """Distribution, horizon, seeds, learners, the LP grid, and the learners' advanced constants."""
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)
    st.selectbox(
        "Example", [CUSTOM, *examples(NAME)], key=EXAMPLE_KEY, on_change=_load_example,
        help="Fills the controls below with one of the paper's instances; edit them freely.",
    )
    distribution = _distribution_controls()
    left, right = st.columns(2)
    with left:
        horizon = st.select_slider(
            "Horizon T (rounds)", options=[2**k for k in range(10, 21)], key="bt_horizon",
            help="The learners also run on T/2, T/4, ... down to 2^10 for the log-log slope fit.",
        )
        seeds = st.slider("Seeds (bands and averages)", 1, 10, key="bt_seeds")
    with right:
        learners = st.multiselect(
            "Learners", list(LEARNERS), format_func=LEARNERS.__getitem__, key="bt_learners"
        )
        grid_size = st.slider("Benchmark LP grid K (K x K price couples)", 11, 201, key="bt_grid")
    with st.expander("Advanced: learner constants (the paper's rates by default)"):
        a, b = st.columns(2)
        with a:
            grid_points = st.number_input("Learner grid K (0 = ceil(T^(1/4)))", 0, 64, 0, key="bt_k")
            explore = st.slider("Exploration n = c x sqrt(T) per row/column, c =", 0.05, 4.0, 0.5, 0.05, key="bt_explore")
            beta = st.slider("Budget target beta, as a fraction of the 2Kn exploration rounds", 0.0, 2.0, 0.1, 0.01, key="bt_beta")
        with b:
            confidence = st.slider("Confidence radius multiplier", 0.0, 4.0, 0.25, 0.05, key="bt_conf")
            growth = st.slider("LP re-solve batch growth", 0.001, 1.0, 0.05, 0.001, key="bt_growth")
            min_exp = st.slider("Smallest horizon of the slope fit, 2^m, m =", 8, 16, 10, key="bt_minexp")
            seed = st.number_input("Base seed", 0, 2**31 - 1, 0, key="bt_seed")
    return {
        "distribution": distribution,
        "horizon": int(horizon),
        "seeds": int(seeds),
        "seed": int(seed),
        "learners": learners,
        "grid_size": int(grid_size),
        "advanced": {
            "grid_points": int(grid_points),
            "explore_scale": float(explore),
            "beta_scale": float(beta),
            "confidence_scale": float(confidence),
            "batch_growth": float(growth),
            "min_horizon_exponent": int(min_exp),
        },
    }


def _mark(ok: bool) -> str:
    return "✅" if ok else "❌"


def _benchmarks(result: dict[str, Any]) -> None:
    bench, dist = result["benchmarks"], result["distribution"]
    st.subheader("Benchmarks (expected gain from trade per round)")
    density = dist["density_bound"]
    st.markdown(
        f"**{dist['label']}**. Density bound: **{'infinite' if density is None else f'{density:.3g}'}**"
        + (" (the paper's guarantee needs a bounded density)." if density is None else ".")
    )
    cols = st.columns(4)
    cols[0].metric("First best E[(b - s)+]", f"{bench['first_best']:.4f}")
    cols[1].metric("Best fixed price (= best WBB couple)", f"{bench['fixed_price']:.4f}", help=f"x* = {bench['fixed_price_x']:.4f}")
    cols[2].metric("GBB optimum", f"{bench['gbb']:.4f}", help=bench["gbb_method"])
    ratio = bench["gbb_over_fixed"]
    cols[3].metric("GBB / fixed price", "n/a" if ratio is None else f"{ratio:.3f}")
    st.latex(
        rf"\underbrace{{{bench['fixed_price']:.4f}}}_{{\text{{fixed price}}}} \;\le\; "
        rf"\underbrace{{{bench['gbb']:.4f}}}_{{\text{{GBB}}}} \;\le\; \min\big("
        rf"\underbrace{{{bench['first_best']:.4f}}}_{{\text{{first best}}}},\ "
        rf"2 \times {bench['fixed_price']:.4f}\big)"
    )
    checks = pd.DataFrame(
        {
            "check": ["fixed price <= GBB", "GBB <= first best", "GBB <= 2 x fixed price"],
            "holds": [_mark(bench["fixed_le_gbb"]), _mark(bench["gbb_le_first_best"]), _mark(bench["gbb_le_twice_fixed"])],
        }
    )
    st.dataframe(checks, hide_index=True)
    st.markdown(
        f"**GBB LP on the {bench['lp_grid_size']} x {bench['lp_grid_size']} price grid** (HiGHS): value "
        f"{bench['gbb_lp']:.5f}, supported on at most two couples. Post each couple with its weight: the subsidised "
        "one (q < p) trades more, the profitable one pays for it."
    )
    support = pd.DataFrame(bench["lp_support"]).rename(
        columns={"p": "seller price p", "q": "buyer price q", "weight": "weight", "gft": "GFT", "profit": "profit"}
    )
    st.dataframe(support, hide_index=True)
    if bench["gbb_exact"] is not None:
        st.markdown(f"Exact continuous GBB optimum (discrete D): **{bench['gbb_exact']:.6f}** on")
        st.dataframe(pd.DataFrame(bench["exact_support"]), hide_index=True)


def _learners(result: dict[str, Any]) -> None:
    st.subheader(f"Learners at T = {result['horizon']:,} ({result['seeds']} seeds)")
    rows = []
    for s in result["learners"].values():
        slope = s["regret_slope_vs_gbb"]
        rows.append(
            {
                "learner": s["label"],
                "regret vs GBB": round(s["final_regret_vs_gbb"], 1),
                "regret vs WBB": round(s["final_regret_vs_wbb"], 1),
                "log-log slope vs GBB": "n/a" if slope is None or not math.isfinite(slope) else round(slope, 3),
                "min cumulative profit": round(s["min_cumulative_profit"], 4),
                "GBB kept": _mark(s["min_cumulative_profit"] >= 0),
                "grid K": s["grid_points"],
                "guard rounds": int(s["guard_rounds"]),
                "phases (seed 0)": "; ".join(f"{p['phase']} {p['start']}-{p['end']}" for p in s["phases"]),
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    for s in result["learners"].values():
        if s.get("notes"):
            st.markdown(f"**{s['label']}**: {s['notes']}.")
    st.caption(
        "Regret = T x OPT - sum of the expected GFT of the posted couples. A slope near 1 means linear regret; the "
        "paper's one-bit GBB learner has slope 3/4 against the GBB optimum when D has a bounded density."
    )


def render(job: JobView) -> None:
    """Benchmarks with the LP solution, the learners table, then the figures."""
    result = job.result
    _benchmarks(result)
    _learners(result)
    show_figures(job, ["regret_vs_gbb", "regret_loglog", "cumulative_profit", "regret_vs_wbb", "price_heatmap", "valuations"])


method_page(NAME, controls=controls, render=render, form=False)
