"""Noisy-verifier RLVR page: sweep Youden's J, compare the mean-field flow with finite-sample GRPO."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, example_picker, mark, method_page, param_widget, show_figures, table

NAME = "rlvr_noise"


def controls() -> dict[str, Any]:
    """The J sweep and the verifier on the left, the GRPO bandit on the right."""
    example_picker(NAME)
    left, right = st.columns(2)
    with left:
        j_values = param_widget(NAME, "j_values", label="Youden's J values (J = TPR - FPR)")
        fpr = param_widget(NAME, "fpr", label="False-positive rate FPR")
        st.caption("With this FPR the false-negative rate is FNR = 1 - FPR - J; J must lie in [-FPR, 1 - FPR].")
        steps = param_widget(NAME, "steps", label="GRPO steps")
        x0 = param_widget(NAME, "initial_incorrect_mass", label="Initial incorrect mass")
    with right:
        seeds = param_widget(NAME, "seeds", label="Bandit seeds per J")
        group = param_widget(NAME, "group_size", label="Group size G")
        modes = param_widget(NAME, "modes_per_class", label="Modes per class m")
        lr = param_widget(NAME, "learning_rate", label="Learning rate", widget="number", step=0.1)
        with st.expander("More settings"):
            grid = param_widget(NAME, "phase_grid", label="Phase-diagram points per axis")
            seed = param_widget(NAME, "seed", label="Base seed", widget="number")
    return {"j_values": j_values, "fpr": fpr, "steps": steps, "seeds": seeds, "group_size": group,
            "modes_per_class": modes, "learning_rate": lr, "initial_incorrect_mass": x0, "phase_grid": grid,
            "seed": seed}


def _checks(result: dict[str, Any]) -> None:
    c = result["checks"]
    st.subheader("The paper's three claims in this run")
    table([
        {"claim": "J = 0 is the boundary: learning above, collapse below", "holds": mark(c["boundary"]),
         "numbers": c["boundary_detail"]},
        {"claim": "Neutral drift at J = 0", "holds": mark(c["neutral"]),
         "numbers": c["neutral_detail"] or "J = 0 is not in the sweep"},
        {"claim": "Time to learn scales like 1/J (rate, not fate)", "holds": mark(c["rate"]),
         "numbers": c["rate_detail"]},
    ])


def _steps(value: int | None) -> str:
    return "never" if value is None else str(value)


def _finals(result: dict[str, Any]) -> None:
    st.subheader(f"Incorrect mass after {result['steps']} steps (start {result['initial_incorrect_mass']:g})")
    hits = {row["j"]: row for row in result["time_to_threshold"]}
    table([
        {"J": row["j"], "FNR": round(row["fnr"], 3), "mean field": round(row["mean_field"], 4),
         "bandit mean": round(row["bandit_mean"], 4), "bandit 10-90%": f"{row['bandit_q10']:.3f} - {row['bandit_q90']:.3f}",
         "steps to 0.05 (mean field)": _steps(hits[row["j"]]["mean_field"]),
         "steps to 0.05 (bandit mean)": _steps(hits[row["j"]]["bandit_mean"])}
        for row in result["final_incorrect_mass"]
    ], caption="'never': the mass did not reach 0.05 within the run.")


def render(job: JobView) -> None:
    """The checks, the final-mass table, then the figures."""
    _checks(job.result)
    _finals(job.result)
    show_figures(job, ["mass_curves", "phase_diagram", "rate"])


method_page(NAME, controls=controls, render=render)
