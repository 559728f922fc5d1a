"""Noisy-verifier RLVR page: sweep Youden's J, compare GRPO with the mean field, the rate law and the J = 0 diffusion."""

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

NAME = "rlvr_noise"
LEFT = ("j_values", "fpr", "steps", "initial_incorrect_mass")
RIGHT = ("seeds", "bandit_seeds", "group_size", "modes_per_class", "learning_rate")


def controls() -> dict[str, Any]:
    """The J sweep and the verifier on the left, the seeds and the GRPO bandit on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    values: dict[str, Any] = {}
    with left:
        values.update({field: param_widget(NAME, field) for field in LEFT})
        st.caption("With this FPR the false-negative rate is FNR = 1 - FPR - J; J must lie in [-FPR, 1 - FPR].")
    with right:
        values.update({field: param_widget(NAME, field) for field in RIGHT})
        with st.expander("More settings"):
            values["phase_grid"] = param_widget(NAME, "phase_grid")
            values["favoured_share"] = param_widget(NAME, "favoured_share")
            values["competition_j"] = param_widget(NAME, "competition_j")
            values["seed"] = param_widget(NAME, "seed", widget="number")
    return values


def _steps(value: float | None) -> str:
    return "never" if value is None else format_number(float(value), 3)


def render(job: JobView) -> None:
    """The final masses and hitting times of the first seed, then the figures."""
    result = job.result
    st.subheader(f"Incorrect mass after {result['steps']} steps (start {result['initial_incorrect_mass']:g}), first seed")
    hits = {row["j"]: row for row in result["time_to_threshold"]}
    table([
        {"J": row["j"], "FNR": format_number(row["fnr"], 3), "mean field": format_number(row["mean_field"]),
         "bandit mean": format_number(row["bandit_mean"]),
         "bandit 10-90%": f"{format_number(row['bandit_q10'], 3)} - {format_number(row['bandit_q90'], 3)}",
         "steps to 0.05: rate law": "—" if hits[row["j"]]["rate_law"] is None else _steps(hits[row["j"]]["rate_law"]),
         "steps: mean field": _steps(hits[row["j"]]["mean_field"]),
         "steps: bandit mean": _steps(hits[row["j"]]["bandit_mean"])}
        for row in result["final_incorrect_mass"]
    ], caption="'never': the mass did not reach 0.05 within the run; '—': the rate law does not apply (J <= 0).")
    c = result["competition"]
    st.subheader("Unequal masses inside the correct class (first seed)")
    table([{"J": format_number(c["j"]), "initial shares": " / ".join(format_number(s, 2) for s in c["shares"]),
            "rate law (steps)": format_number(c["rate_law"], 4), "GRPO: steps to 0.05": _steps(c["hit_steps"]),
            "GRPO: tau at 0.05": _steps(c["hit_clock"]),
            "favoured share at the end": format_number(c["favoured_bandit"][-1], 3),
            "same at J = 0": format_number(c["favoured_neutral"][-1], 3)}],
          caption="tau is the concentration clock: steps weighted by (m/2)(H_bad + H_good), H the Herfindahl index "
                  "of the shares inside each class; with equal shares tau is the step count.")
    show_figures(job, ["mass_curves", "rate", "phase_diagram", "diffusion", "competition", "winner"])


method_page(NAME, controls=controls, render=render)
