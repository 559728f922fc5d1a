"""Robust satisficing page: IRS (KL form) against ERM and tuned group DRO, tilted ERM and JTT, per group and seed."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import JobView, format_number, method_page, param_widget, show_figures, table

NAME = "robust_satisficing"
LEFT = ("dataset", "tau_multiplier", "tau_sweep", "train_size")
RIGHT = ("epochs", "learning_rate", "hidden", "seeds", "seed")
NUMBERS = {"learning_rate", "seed"}
METHODS = {"erm": "ERM", "group_dro": "group DRO (training groups)", "tilted_erm": "tilted ERM", "jtt": "JTT",
           "irs": "IRS (the paper)"}


def controls() -> dict[str, Any]:
    """Data and target on the left, training and seeds on the right."""
    st.caption("Implemented: IRS as the paper's official code runs it, a KL tilt over groups p ~ p0 exp(h l) "
               "maximising (E_p loss - tau) / KL, tau = max(1.01 x loss, 0.1), after a plain warm-up (see About).")
    left, right = st.columns(2)
    values: dict[str, Any] = {}
    for column, names in ((left, LEFT), (right, RIGHT)):
        with column:
            values.update({name: param_widget(NAME, name, widget="number" if name in NUMBERS else None)
                           for name in names})
    return values


def _spread(values: list[float], scale: float) -> str:
    mean = sum(values) / len(values) * scale
    if len(values) == 1:
        return format_number(mean, 3)
    sd = (sum((v * scale - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
    return f"{format_number(mean, 3)} ± {format_number(sd, 2)}"


def render(job: JobView) -> None:
    """Every method over the seeds (mean ± sd), then the figures."""
    r = job.result
    scale, unit = (1.0, "MSE") if r["regression"] else (100.0, "accuracy (%)")
    runs = r["seeds_run"]
    rows = []
    for key, label in METHODS.items():
        def over(field: str, key: str = key) -> list[float]:
            return [s["methods"][key][field] for s in runs]
        rows.append({"method": label, f"average {unit}": _spread(over("average"), scale),
                     f"worst-group {unit}": _spread(over("worst"), scale),
                     f"drop under shift ({unit})": _spread(over("degradation"), scale),
                     "chosen on validation": ", ".join(dict.fromkeys(over("setting"))),  # type: ignore[arg-type]
                     "backward passes / step": format_number(runs[0]["methods"][key]["backward_passes_per_step"])})
    st.subheader(f"Methods on the test set, mean ± sd over {len(runs)} seed(s)")
    table(rows, caption=f"IRS's target tau = max({r['tau_multiplier']:g} x loss, 0.1) (first seed, last step: tau = "
                        f"{format_number(r['tau'], 3)}, fragility kappa = {format_number(r['fragility'], 3)}, tilt "
                        f"KL = {format_number(r['kl'], 3)} nats). Shift: {r['shift_name']}.")
    show_figures(job, ["tradeoff", "degradation", "groups", "trace"])


method_page(NAME, controls=controls, render=render)
