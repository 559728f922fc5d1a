"""Skill-MoE page: route each query of a skill-mixed suite to the experts of its skill, batched by expert."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, example_picker, mark, method_page, param_widget, show_figures, table

NAME = "skill_moe"
INFERENCE = {"symbolic": "Symbolic rules on the query's form",
             "embedding": "Sentence embeddings (all-MiniLM-L6-v2, ~1 min to load)"}
STRATEGIES = {
    "instance_routing": "Skill-MoE: instance routing",
    "task_top_k": "task-level top-k",
    "random_k": "random k",
    "best_single": "best single expert",
    "majority_vote": "majority vote of all 16",
}


def controls() -> dict[str, Any]:
    """The test set and k on the left, skill inference and the seed on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        queries = param_widget(NAME, "queries", label="Test queries", widget="number", step=20)
        k = param_widget(NAME, "k", label="Experts per query (k)")
    with right:
        inference = param_widget(NAME, "skill_inference", label="Skill inference", format_func=INFERENCE.get)
        with st.expander("More settings"):
            validation = param_widget(NAME, "validation_per_skill", label="Validation queries per skill")
            seed = param_widget(NAME, "seed", label="Seed", widget="number")
    return {"queries": queries, "k": k, "skill_inference": inference, "validation_per_skill": validation,
            "seed": seed}


def _tables(result: dict[str, Any]) -> None:
    k = result["k"]
    st.subheader("Accuracy per strategy")
    table([{"strategy": STRATEGIES[s].replace("k", str(k)) if s.endswith("_k") else STRATEGIES[s],
            "accuracy (%)": round(100 * result["accuracy"][s], 1)} for s in STRATEGIES])
    loads, wall = result["loads"], result["wall_time_s"]
    gap = 100 * (result["accuracy"]["instance_routing"] - result["accuracy"]["task_top_k"])
    st.subheader("Checks")
    table([
        {"check": f"instance routing beats task-level top-{k} by >= 5 points ({gap:+.1f})", "holds": mark(gap >= 5)},
        {"check": f"batched loads ({loads['batched']}) = distinct experts used ({loads['distinct_experts']})",
         "holds": mark(loads["batched"] == loads["distinct_experts"])},
        {"check": "batched and naive answers identical", "holds": mark(result["answers_identical"])},
    ])
    st.subheader("Loading cost of the routed answers")
    table([
        {"strategy": "batched by expert", "loads": loads["batched"], "wall time (s)": round(wall["batched"], 3)},
        {"strategy": "naive per-query loop", "loads": loads["naive"], "wall time (s)": round(wall["naive"], 3)},
    ])
    st.caption(f"Skill inference ({result['skill_inference']}): {100 * result['skill_inference_accuracy']:.1f}% "
               f"of the test queries get their true skill, in {result['skill_inference_s']:.2f} s. "
               f"Profiling the experts took {result['profiling_loads']} more loads (one per expert and set).")
    st.subheader("Accuracy per skill and per task")
    rows = [{"group": r["group"], "queries": r["queries"],
             **{STRATEGIES[s]: round(100 * r[s], 1) for s in STRATEGIES}} for r in result["per_skill"] + result["per_task"]]
    table(rows)
    st.subheader("Experts")
    table([{"expert": p["expert"], "training mix": p["training_mix"], "chosen (times)": p["chosen"],
            **{s: round(100 * a) for s, a in zip(result["skills"], p["accuracy"], strict=True)}}
           for p in result["experts"]])
    st.caption("Task-level choices: " + "; ".join(f"{t}: {', '.join(e)}" for t, e in result["task_experts"].items())
               + f". Best single expert: {result['best_single_expert']}.")


def render(job: JobView) -> None:
    """Strategy table and checks, the cost table, per-skill and expert tables, then the figures."""
    _tables(job.result)
    show_figures(job, ["strategies", "per_skill", "profiles", "cost"])


method_page(NAME, controls=controls, render=render)
