"""The paper's claims as this page tests them (the abstract gives no figure: every one is qualitative).

Paper passages of the headline claims:
- `worst_group`: abstract, "consistently improves performance on minority and worst-case groups"
- `average`: abstract, "without sacrificing overall accuracy"
- `degradation`: title, "Minimizing Performance Degradation Under Distribution Shift"

`one_pass` (one backward pass per step) is enforced by the shared training loop: a check, not a headline.
"""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["AVERAGE_SLACK", "CLAIMS"]

AVERAGE_SLACK = 1.0  # "without sacrificing overall accuracy": at most 1 point below ERM
NULL = "the untrained network (the shared initialisation)"

CLAIMS = (
    Claim("worst_group", "IRS improves worst-group accuracy over ERM",
          paper=QUALITATIVE, quantity="worst-group test accuracy, IRS - ERM (points)", op=">", target=0.0,
          floor="IRS's tilt is active at the end (KL(p* || p0) > 0.001 nats)",
          why="the abstract states an improvement without a size, so any gain whose interval over seeds excludes 0",
          null=NULL, units="seeds (the worst group is a minimum, not a mean over points)"),
    Claim("average", "... without sacrificing overall accuracy",
          paper=QUALITATIVE, quantity="average test accuracy, IRS - ERM (points)", op=">=", target=-AVERAGE_SLACK,
          why="'without sacrificing' read as at most 1 point below ERM, about the seed-to-seed sd of ERM's average",
          null=NULL, units="test points (100 x (IRS correct - ERM correct))"),
    Claim("degradation", "IRS degrades less than ERM under the distribution shift",
          paper=QUALITATIVE, quantity="accuracy drop under shift, IRS - ERM (points)", op="<", target=0.0,
          why="the title's 'minimizing degradation' gives no size: any reduction whose interval excludes 0",
          null=NULL, units="test points (paired differences weighted by their group's shift in share)"),
    Claim("one_pass", "One forward and one backward pass per IRS update",
          paper="a single forward and backward pass per update", quantity="backward passes per IRS step",
          op="<=", target=1.0, floor="one forward pass per step", headline=False, exact=True),
)
