"""A page for the test-only toy method, built from the shared components exactly like a real page."""

import streamlit as st

from app.components import method_page


def controls() -> dict:
    behaviour = st.selectbox("Behaviour", ["ok", "fail", "sleep"], key="behaviour")
    steps = st.number_input("Steps", min_value=1, max_value=1000, value=3, key="steps")
    return {"behaviour": behaviour, "steps": int(steps), "step_s": 0.05 if behaviour == "sleep" else 0.0}


method_page("toy", controls=controls)
