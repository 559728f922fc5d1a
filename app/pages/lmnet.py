"""LMNet page: frozen pre-trained character models wired by a dense trainable edge, against a text pipeline,
a fine-tuned node and parameter-matched LoRA, over label counts and seeds."""

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

NAME = "lmnet"
LABELS = {"dense": "LMNet (dense edge)", "full": "Same network, every weight fine-tuned", "text": "Text pipeline", "single": "Fine-tuned node A (all weights)",
          "lora": "LoRA on node B (parameter-matched)"}


def controls() -> dict[str, Any]:
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        values = {"labels": param_widget(NAME, "labels"), "steps": param_widget(NAME, "steps")}
    with right:
        values["mark_probability"] = param_widget(NAME, "mark_probability")
        values["seeds"] = param_widget(NAME, "seeds")
        values["seed"] = param_widget(NAME, "seed", widget="number")
    st.caption("4 variants x label counts x steps x seeds is capped at 40,000 optimiser steps.")
    return values


def _counts(counts: list[int]) -> str:
    return ", ".join(str(c) for c in counts) if counts else "none of the counts run"


def render(job: JobView) -> None:
    r = job.result
    st.subheader("Test exact match by label count (mean ± sd over seeds)")
    table([{"labels": row["labels"],
            **{LABELS[k]: f"{format_number(100 * row['mean'][k], 3)} ± {format_number(100 * row['sd'][k], 2)}%"
               for k in r["variants"]},
            "text pipeline untrained": f"{format_number(100 * row['text_untrained'], 3)}%"} for row in r["rows"]],
          caption=f"Exact match = whole word right, on {r['test_words']} fresh test words per seed. A text interface "
                  f"can get at most the words without marks right: {format_number(100 * r['text_ceiling'], 3)}% here.")
    seeds = len(r["seeds_run"])
    every = "the seed" if seeds == 1 else f"every one of {seeds} seeds"
    st.markdown(f"**Label counts where LMNet is ahead on {every}**: of every fine-tuned model (the whole "
                f"network, node A, LoRA): {_counts(r['dense_beats_fine_tuning'])}; of the text pipeline: "
                f"{_counts(r['dense_beats_text'])}.")
    if not r["dense_beats_fine_tuning"]:
        st.warning("LMNet does not beat the fair fine-tuning baseline (the same network with every weight "
                   "trained) at any label count of this run, on every seed.")
    standing = r.get("standing")
    if standing:
        st.markdown(f"**Standing on {standing['metric']}** (mean over seeds): " + "; ".join(
            f"{standing['labels'].get(k, k)} {format_number(v, 3)}" for k, v in standing["scores"].items()) + ".")
    params = r["trainable_parameters"]
    st.markdown("**Trainable parameters**: " + "; ".join(f"{LABELS.get(k, k)}: {v:,}" for k, v in params.items())
                + f" (LoRA rank {r['lora_rank']}). Frozen nodes: {r['frozen_parameters']:,}.")
    show_figures(job, ["exact_match", "parameters"])
    with st.expander("Per seed"):
        table([{"seed": row["seed"], "labels": row["labels"],
                **{LABELS[k]: format_number(100 * row["scores"][k], 3) for k in r["variants"]}}
               for row in r["per_seed"]])


method_page(NAME, controls=controls, render=render)
