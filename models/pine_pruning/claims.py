"""PINE's claims (abstract): equivalence on a conformal region, more compression than whole-space pruning,
a region size set by alpha, and (our check of the method) an oracle that proves what it returns."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CHECK_ALPHA", "CLAIMS"]

CHECK_ALPHA = 0.1  # the level whose pruning is compared with whole-space pruning and ranked in the standing

CLAIMS = (
    Claim("agreement", "The pruned ensemble agrees with the full one on at least 1 - α of the test points",
          paper="prediction equivalence on a region holding a new point with probability >= 1 - α",
          quantity="min over α of test agreement - (1 - α)", op=">=", target=0.0,
          floor="every pruning proved equivalent on its region by the MILP oracle"),
    Claim("compression", "PINE keeps fewer trees than faithful whole-space pruning",
          paper="up to 30% better compression ratio",
          quantity="(trees whole space - trees PINE at α = 0.1) / trees whole space", op=">", target=0.0,
          floor="both prunings proved equivalent by the MILP oracle"),
    Claim("monotone", "The trees kept do not grow as α grows (a smaller region)",
          paper=QUALITATIVE, quantity="increases of trees kept along the α sweep", op="<=", target=0.0,
          floor="two or more α and at least one tree pruned at some α"),
    Claim("converged", "The exact oracle proves equivalence of every returned pruning",
          paper=QUALITATIVE, quantity="share of prunings (every α and whole space) proved by the MILP",
          op=">=", target=1.0),
)
