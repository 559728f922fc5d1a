"""Skill-MoE page: route each query to the experts of its inferred skill, against the field's baselines."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import (
    JobView,
    example_picker,
    format_number,
    method_page,
    param_widget,
    show_figures,
    table,
)

NAME = "skill_moe"
LABELS = {
    "instance_routing": "Skill-MoE (instance routing)",
    "oracle_routing": "oracle router (true skill)",
    "instance_top_k": "Skill-MoE variant: deterministic top-{k}",
    "trained_router": "trained router (RouteLLM-style)",
    "task_top_k": "task-level top-{k}",
    "best_single": "best single expert",
    "majority_vote": "vote of all 16 experts",
    "random_k": "random {k}",
}


def controls() -> dict[str, Any]:
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        values = {"queries": param_widget(NAME, "queries", widget="number", step=20), "k": param_widget(NAME, "k"),
                  "seeds": param_widget(NAME, "seeds")}
    with right:
        values["skill_inference"] = param_widget(NAME, "skill_inference")
        values["tagger_accuracy"] = param_widget(NAME, "tagger_accuracy")
        with st.expander("More settings"):
            values["validation_per_skill"] = param_widget(NAME, "validation_per_skill")
            values["seed"] = param_widget(NAME, "seed", widget="number")
    return values


def render(job: JobView) -> None:
    r = job.result
    name = {s: LABELS[s].format(k=r["k"]) for s in r["strategies"]}
    cost = {c["strategy"]: c for c in r["cost"]}
    st.subheader("Accuracy and cost per strategy")
    table([{"strategy": name[s], "accuracy (%, mean over seeds)": format_number(100 * r["accuracy"][s], 3),
            "expert loads": cost[s]["loads"], "(query, expert) pairs": cost[s]["pairs"],
            "time (s)": format_number(cost[s]["seconds"], 2)} for s in r["strategies"]]
          + [{"strategy": "Skill-MoE, naive per-query loop", "accuracy (%, mean over seeds)": "same answers",
              "expert loads": r["naive"]["loads"], "(query, expert) pairs": r["naive"]["pairs"],
              "time (s)": format_number(r["naive"]["seconds"], 2)}],
          caption="Loads and times are from the first seed: every strategy answers through the same on-disk store "
                  "with one expert resident, batched by expert. The oracle routes by the true skill (an upper "
                  "bound, not a competitor).")
    st.caption(f"Skill inference ({r['skill_inference']}): {format_number(100 * r['skill_inference_accuracy'], 3)}% "
               "of the test queries get their true skill. "
               + ("Skill-MoE has no lead over the best baseline even with exact skills, so no tagger accuracy "
                  "keeps one." if r["break_even_accuracy"] is None else
                  "Skill-MoE keeps a lead over the best baseline down to a tagger accuracy of "
                  f"{format_number(100 * r['break_even_accuracy'], 3)}% (the sweep goes down to 40%)."))
    show_figures(job, ["strategies", "tagger_curve", "cost"])
    st.subheader("Per seed")
    table([{"seed": row["seed"], "skill inference (%)": format_number(100 * row["skill_accuracy"], 3),
            "aggregator (chosen on validation)": row["aggregator"],
            "gain over the best baseline (points)": format_number(row["gain_points"], 3),
            **{name[s]: format_number(100 * row["accuracy"][s], 3) for s in r["strategies"]}} for row in r["per_seed"]],
          caption="Skill-MoE recruits k experts per query by sampling with replacement, in proportion to each "
                  "expert's net validation score on the inferred skill times its global competence (the official "
                  "code's rule); the aggregation rule is the one that scores best on the validation queries. The "
                  "paper's gain over its best baseline is +8.15 points; ours is in the last column but one.")
    with st.expander("Per skill and per task, experts (first seed)"):
        table([{"group": g["group"], "queries": g["queries"],
                **{name[s]: format_number(100 * g["accuracy"][s], 3) for s in r["strategies"]}}
               for g in r["per_skill"] + r["per_task"]])
        table([{"expert": p["expert"], "training mix": p["training_mix"], "chosen by Skill-MoE": p["chosen"]}
               for p in r["experts"]])
        st.caption("Task-level choices: " + "; ".join(f"{t}: {', '.join(e)}" for t, e in r["task_experts"].items())
                   + f". Best single expert: {r['best_single_expert']}.")
        show_figures(job, ["profiles"])


method_page(NAME, controls=controls, render=render)
