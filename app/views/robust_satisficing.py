"""Robust satisficing page: IRS (KL form) against ERM and tuned group DRO, tilted ERM and JTT, per group and seed."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "robust_satisficing"
FIELDS = (("dataset", "tau_multiplier", "tau_sweep", "train_size"),
          ("epochs", "learning_rate", "hidden", "seeds", "seed"))
CAPTION = ("Implemented: IRS as the paper's official code runs it, a KL tilt over groups p ~ p0 exp(h l) "
           "maximising (E_p loss - tau) / KL, tau = max(1.01 x loss, 0.1), after a plain warm-up (see About).")


def render(job: JobView) -> None:
    """Every method over the seeds (mean ± sd), then the figures."""
    show_tables(job)
    show_figures(job, ["tradeoff", "degradation", "groups", "trace"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, caption=CAPTION, widgets={"learning_rate": "number"}),
            render=render)
