"""HEDP page: prompts per domain on a frozen backbone, chosen by fused energy and distance cues."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.components import (
    JobView,
    example_picker,
    mark,
    method_page,
    param_widget,
    show_figures,
    show_metrics,
    table,
)

NAME = "hedp"
SELECTORS = {
    "hybrid": "Hybrid energy-distance (HEDP)",
    "energy_only": "Energy only",
    "distance_only": "Distance only",
    "nearest_centroid": "Nearest centroid (S-Prompts)",
}


def controls() -> dict[str, Any]:
    example_picker(NAME)
    left, middle, right = st.columns(3)
    with left:
        epochs = param_widget(NAME, "epochs", label="Epochs per prompt")
        energy_weight = param_widget(NAME, "energy_weight", label="Energy regulariser weight")
        seed = param_widget(NAME, "seed", label="Seed", widget="number")
    with middle:
        band_low = param_widget(NAME, "band_low", label="Energy band: low edge", widget="number")
        band_high = param_widget(NAME, "band_high", label="Energy band: high edge", widget="number")
        fusion = param_widget(NAME, "fusion_weight", label="Fusion weight w of the energy cue")
    with right:
        temperature = param_widget(NAME, "temperature", label="Fusion temperature T")
        features = param_widget(NAME, "features", label="Backbone width", step=32)
        centroids = param_widget(NAME, "centroids", label="k-means centres per domain (S-Prompts)")
        lr = param_widget(NAME, "learning_rate", label="Learning rate", widget="number")
    st.caption("Defaults take about 10 s on one core; every prompt is trained twice (with and without the band).")
    return {"epochs": epochs, "energy_weight": energy_weight, "band_low": band_low, "band_high": band_high,
            "fusion_weight": fusion, "temperature": temperature, "features": features, "centroids": centroids,
            "learning_rate": lr, "seed": seed}


def render(job: JobView) -> None:
    r = job.result
    st.subheader("Selectors (energy band on)")
    table(
        [
            {
                "selector": label,
                "domain selection, seen (%)": round(100 * r["selection_accuracy"][key], 1),
                "accuracy, seen domains (%)": round(100 * r["seen_accuracy"][key], 1),
                f"accuracy, unseen '{r['unseen_domain']}' (%)": round(100 * r["unseen_accuracy"][key], 1),
                "unseen, band off (%)": round(100 * r["unregularised"]["unseen_accuracy"][key], 1),
            }
            for key, label in SELECTORS.items()
        ],
        caption=f"Seen domains: {', '.join(r['seen_domains'])}. Each seen domain with its own prompt (oracle): "
        f"{100 * r['regularised']['oracle_seen_accuracy']:.1f}%.",
    )
    s, u = r["selection_accuracy"], r["unseen_accuracy"]
    best = max(s["energy_only"], s["distance_only"])
    st.subheader("The paper's check in this run")
    table(
        [
            {"check": "hybrid selection at least as accurate as the better single cue",
             "measured": f"{100 * s['hybrid']:.1f}% vs {100 * best:.1f}%", "holds": mark(s["hybrid"] >= best)},
            {"check": "unseen-domain accuracy at least nearest-centroid's",
             "measured": f"{100 * u['hybrid']:.1f}% vs {100 * u['nearest_centroid']:.1f}%",
             "holds": mark(u["hybrid"] >= u["nearest_centroid"])},
        ]
    )
    show_figures(job, ["accuracy", "selection_confusion", "energy_histograms", "per_domain"])
    show_metrics(job)


method_page(NAME, controls=controls, render=render)
