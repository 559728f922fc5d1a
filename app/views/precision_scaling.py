"""Low-precision scaling page: multiplicative vs additive quantisation at matched noise, seed by seed."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "precision_scaling"
FIELDS = (("model_sizes", "n_samples", "noise_level", "multiplicative_bits", "additive_bits"),
          ("spectrum_exponent", "seeds", "seed", "dimension", "label_noise"))
CAPTION = ("Defaults (3 seeds) take about 15 s on one core; the examples state their times. The bit widths "
           "count only at noise level 0 (rounding).")


def render(job: JobView) -> None:
    """The per-seed claim quantities, the seed means, then the figures."""
    show_tables(job)
    show_figures(job, ["claims_per_seed", "risk_vs_model_size", "risk_vs_samples", "effective_model_size"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, caption=CAPTION), render=render)
