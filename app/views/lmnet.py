"""LMNet page: frozen pre-trained character models wired by a dense trainable edge, against a text pipeline,
a fine-tuned node and parameter-matched LoRA, over label counts and seeds."""

from __future__ import annotations

import streamlit as st

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "lmnet"
FIELDS = (("labels", "steps"), ("mark_probability", "seeds", "seed"))
CAPTION = "4 variants x label counts x steps x seeds is capped at 40,000 optimiser steps."


def render(job: JobView) -> None:
    show_tables(job, ["Test exact match by label count (mean ± sd over seeds)"])
    if not job.result["dense_beats_fine_tuning"]:
        st.warning("LMNet does not beat the fair fine-tuning baseline (the same network with every weight "
                   "trained) at any label count of this run, on every seed.")
    show_tables(job, ["Trainable parameters"])
    show_figures(job, ["exact_match", "parameters"])
    with st.expander("Per seed"):
        show_tables(job, ["Per seed"], headings=False)


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, caption=CAPTION), render=render)
