"""HEDP page: prompts per domain on a frozen pre-trained extractor, chosen by fused energy and distance cues."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "hedp"
FIELDS = (("seeds", "epochs", "pretrain_epochs"),
          ("tune_energy_weight", "energy_weight", "energy_midline", "energy_border"),
          ("keys", "learning_rate", "seed"))
CAPTION = ("Defaults (3 seeds) take about 15 s on one core: per seed one prompt set per λ (0, 0.1, 0.3, 1, 3); "
           "each selector picks its λ and temperatures on held-out seen-domain images.")


def render(job: JobView) -> None:
    show_tables(job)
    show_figures(job, ["accuracy", "selection_confusion", "energy_histograms", "per_domain"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, caption=CAPTION), render=render)
