"""The paper's claims as this page tests them (the abstract gives no figure: every one is qualitative)."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["AVERAGE_SLACK", "CLAIMS"]

AVERAGE_SLACK = 1.0  # "without sacrificing overall accuracy": at most 1 point below ERM

CLAIMS = (
    Claim("worst_group", "IRS improves worst-group accuracy over ERM",
          paper=QUALITATIVE, quantity="worst-group test accuracy, IRS - ERM (points)", op=">", target=0.0,
          floor="IRS met its target (tilted training loss <= tau)"),
    Claim("average", "... without sacrificing overall accuracy",
          paper=QUALITATIVE, quantity="average test accuracy, IRS - ERM (points)", op=">=", target=-AVERAGE_SLACK),
    Claim("degradation", "IRS degrades less than ERM under the distribution shift (lower fragility)",
          paper=QUALITATIVE, quantity="accuracy drop under shift, IRS - ERM (points)", op="<", target=0.0),
    Claim("one_pass", "One forward and one backward pass per IRS update",
          paper="a single forward and backward pass per update", quantity="backward passes per IRS step",
          op="<=", target=1.0, floor="one forward pass per step"),
)
