"""HEDP page: prompts per domain on a frozen pre-trained extractor, chosen by fused energy and distance cues."""

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

NAME = "hedp"
FIELDS = (("seeds", "epochs", "pretrain_epochs"),
          ("tune_energy_weight", "energy_weight", "energy_midline", "energy_border"),
          ("keys", "learning_rate", "seed"))


def controls() -> dict[str, Any]:
    example_picker(NAME)
    values: dict[str, Any] = {}
    for column, names in zip(st.columns(3), FIELDS, strict=True):
        with column:
            for field in names:
                values[field] = param_widget(NAME, field, widget="number" if field == "seed" else None)
    st.caption("Defaults (3 seeds) take about 15 s on one core: per seed one prompt set per λ (0, 0.1, 0.3, 1, 3); "
               "each selector picks its λ and temperatures on held-out seen-domain images.")
    return values


def _mean(result: dict[str, Any], metric: str, key: str) -> str:
    values = [s[metric][key] for s in result["per_seed"]]
    return format_number(100 * sum(values) / len(values), 3)


def _temperature(value: float | None) -> str:
    return "off" if value is None else ("hard arg-min" if value == 0 else format_number(value, 3))


def render(job: JobView) -> None:
    r = job.result
    n = len(r["per_seed"])
    st.subheader(f"Selectors, regulariser on (mean over {n} seed{'s' if n > 1 else ''})")
    temps = r["regularised"]["temperatures"]
    lams = [s["energy_weight"] for s in r["per_seed"]]
    labels = r["standing"]["labels"]  # display names, declared once in the method
    table(
        [{"selector": label,
          "domain selection, seen (%)": _mean(r, "selection_accuracy", key),
          "accuracy, seen domains (%)": _mean(r, "seen_accuracy", key),
          f"accuracy, unseen '{r['unseen_domain']}' (%)": _mean(r, "unseen_accuracy", key),
          "λ chosen, per seed": ", ".join(format_number(w[key], 3) for w in lams),
          "τ_E, τ_D (first seed)": f"{_temperature(temps[key]['energy'])}, {_temperature(temps[key]['distance'])}"}
         for key, label in labels.items()],
        caption=f"Seen domains: {', '.join(r['seen_domains'])}. Each seen domain with its own prompt (oracle, first "
        f"seed): {format_number(100 * r['regularised']['oracle_seen_accuracy'], 3)}%. Each selector's λ and "
        "temperatures were chosen on held-out images of the seen domains (by its classification accuracy).",
    )
    show_figures(job, ["accuracy", "selection_confusion", "energy_histograms", "per_domain"])


method_page(NAME, controls=controls, render=render)
