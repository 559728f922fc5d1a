"""Skill-MoE page: route each query to the experts of its inferred skill, against the field's baselines."""

from __future__ import annotations

import streamlit as st

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "skill_moe"
FIELDS = (("queries", "k", "seeds"), ("skill_inference", "validation_per_skill", "seed"))
WIDGETS = {"queries": "number", "validation_per_skill": "number"}
STEPS = {"queries": 20, "validation_per_skill": 10}


def render(job: JobView) -> None:
    show_tables(job, ["Accuracy and cost per strategy"])
    show_figures(job, ["strategies", "by_tagger", "cost"])
    show_tables(job, ["Per seed"])
    with st.expander("Per skill and per task, experts (first seed)"):
        show_tables(job, ["Per tagger outcome, skill and task", "Experts (first seed)"])
        show_figures(job, ["profiles"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, widgets=WIDGETS, steps=STEPS), render=render)
