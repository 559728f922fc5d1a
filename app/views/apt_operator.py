"""APT operator page: channelised media with wells (pressure and a saturation front), APT against its ablations,
GINO and an FNO, super-resolution and transfer, every model against a null that ignores the permeability."""

from __future__ import annotations

from app.components import JobView, field_columns, method_page, show_figures, show_tables

NAME = "apt_operator"
FIELDS = (("mesh", "test_samples", "seed", "seeds"), ("retrain", "train_samples", "epochs"))
CAPTION = ("Defaults: 3 seeds x 8 test media on the shipped checkpoint (about 16 s of CPU). Retraining all six models runs in the job, "
           "once per seed, and is far shorter than the shipped training.")


def render(job: JobView) -> None:
    show_tables(job)
    show_figures(job, ["errors", "training", "super_resolution", "mesh", "prediction"])


method_page(NAME, controls=lambda: field_columns(NAME, FIELDS, caption=CAPTION, widgets={"seed": ""}), render=render)
