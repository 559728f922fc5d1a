"""HEDP's claims (abstract): the regulariser separates domains; the hybrid cue selects better and generalises."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS", "UNSEEN_GAIN"]

UNSEEN_GAIN = 2.57  # points, the abstract's unseen-domain gain (CORe50)

CLAIMS = (
    Claim("separability", "The energy regulariser makes the energy cue pick the right domain more often",
          paper=QUALITATIVE, quantity="energy-only domain selection, with - without the regulariser (points)",
          op=">", target=0.0, floor="the regulariser on (λ > 0)"),
    Claim("selection", "The hybrid cue selects the domain better than either cue alone",
          paper=QUALITATIVE, quantity="domain selection on seen domains, hybrid - best single cue (points)",
          op=">=", target=0.0),
    Claim("seen", "The hybrid is at least as accurate as either cue alone on the seen domains",
          paper=QUALITATIVE, quantity="accuracy on seen domains, hybrid - best single cue (points)",
          op=">=", target=0.0),
    Claim("unseen", "The hybrid generalises better than either cue alone to the unseen domain",
          paper=QUALITATIVE, quantity="accuracy on the unseen domain, hybrid - best single cue (points)",
          op=">=", target=0.0),
    Claim("unseen_sprompts", "The hybrid beats S-Prompts' nearest-key selection on the unseen domain by 2.57 points",
          paper="+2.57 points on unseen domains (CORe50)",
          quantity="accuracy on the unseen domain, hybrid - nearest centroid (points)",
          op=">=", target=UNSEEN_GAIN),
)
