"""HEDP's claims (abstract): the regulariser separates domains; the hybrid cue selects better and generalises.

Every comparison is paired on the same test images: per test point, 100 x (the hybrid's outcome - the
competitor's), 0/1 outcomes, so a claim's interval comes from the seeds and the points within them. The
trivial reference of the hybrid's comparisons is the uniform mixture (every prompt's logits weighted 1/D,
no cue at all), measured on the same points. Paper passages (abstract; the digest
../shared/papers/hedp.md; the official trainer `HybridEnergyDistancePromptTrainer`):
- `separability`: abstract, the energy regularisation loss makes "the energy of each domain's prompt ...
  distinguishable" (energy aligned to the midline and compressed below the border, `getLogitLoss`)
- `selection`: abstract, the hybrid of energy and distance "improves the accuracy of domain prompt selection"
- `seen`: abstract, "outperforms state-of-the-art methods" on the known domains (the summaries' known AA)
- `unseen`: abstract, better generalisation "to unknown domains" than either cue (the fusion's purpose)
- `unseen_sprompts`: abstract, "improving by 2.57% on unknown domains" over the best baseline (CORe50)
"""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS", "NO_NULL", "UNSEEN_GAIN"]

UNSEEN_GAIN = 2.57  # points, the abstract's unseen-domain gain (CORe50)
UNIFORM = "uniform mixture of the prompts (no cue)"
POINTS = "test points"

NO_NULL = {"separability": "the quantity is already a difference against the same prompts trained with λ = 0"}

CLAIMS = (
    Claim("separability", "The energy regulariser makes the energy cue pick the right domain more often",
          paper=QUALITATIVE, quantity="energy-only domain selection, with - without the regulariser (points)",
          op=">", target=0.0, floor="the regulariser on (λ > 0)", units=POINTS,
          why="the regulariser's purpose; any gain whose interval over the seen test points excludes 0"),
    Claim("selection", "The hybrid cue selects the domain better than either cue alone",
          paper=QUALITATIVE, quantity="domain selection on seen domains, hybrid - better single cue (points)",
          op=">", target=0.0, null=UNIFORM, units=POINTS,
          why="the abstract gives no size; a gain over the stronger cue whose interval excludes 0"),
    Claim("seen", "The hybrid is at least as accurate as either cue alone on the seen domains",
          paper=QUALITATIVE, quantity="accuracy on seen domains, hybrid - better single cue (points)",
          op=">=", target=0.0, null=UNIFORM, units=POINTS,
          why="'at least as accurate': the whole interval over the seen test points must lie at or above 0"),
    Claim("unseen", "The hybrid generalises better than either cue alone to the unseen domain",
          paper=QUALITATIVE, quantity="accuracy on the unseen domain, hybrid - better single cue (points)",
          op=">", target=0.0, null=UNIFORM, units=POINTS,
          why="the abstract gives no size against the single cues; a gain whose interval excludes 0"),
    Claim("unseen_sprompts", "The hybrid beats S-Prompts' nearest-key selection on the unseen domain by 2.57 points",
          paper="+2.57 points on unseen domains (CORe50)",
          quantity="accuracy on the unseen domain, hybrid - nearest centroid (points)",
          op=">=", target=UNSEEN_GAIN, null=UNIFORM, units=POINTS,
          why="the abstract's own figure, asked at full size (its baseline there is the best prior method, "
              "here the S-Prompts rule it builds on)"),
)
