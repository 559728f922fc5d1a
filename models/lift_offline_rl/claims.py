"""The paper's claims as this page tests them (the abstract gives no figure: every one is qualitative).

Paper passages of the headline claims:
- `success_gain`: abstract, "improved offline RL performance" from trajectory-level augmentation; Fig. 7 (LIFT-SC best in d = 5, partial observation)
- `path_length`: abstract, shortcuts replace "detours" of the logging policy with "shorter" paths
"""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS", "GAIN_POINTS", "ROOM"]

GAIN_POINTS = 20.0  # the bar for "improved offline RL performance", in points of success rate
ROOM = 0.9  # the gain is judged only where the raw learner is below 90% success (else success cannot show it)
NULL = "the untrained actor"

CLAIMS = (
    Claim("success_gain", "LIFT-SC data raise the offline learner's test success over the raw logs",
          paper=QUALITATIVE, quantity="test success rate, LIFT-SC - raw (points)", op=">=", target=GAIN_POINTS,
          floor="raw learner below 90% success (room for a gain)",
          why="the paper gives no number; 20 points is a fifth of the scale, well above the 200-episode binomial sd",
          null=NULL, units="test episodes (100 x (success LIFT-SC - success raw), same start and target)"),
    Claim("path_length", "LIFT-SC data shorten the learned paths",
          paper=QUALITATIVE, quantity="mean steps per test episode, LIFT-SC / raw", op="<", target=1.0,
          floor="LIFT-SC learner succeeds on at least half of the episodes",
          why="any shortening: the paper states shorter paths without a size", null=NULL, units="seeds"),
    Claim("without_help", "Shortcuts alone (no augmentor) raise success over the raw logs (ablation)",
          paper=QUALITATIVE, quantity="test success rate, raw + shortcuts - raw (points)", op=">=",
          target=GAIN_POINTS, floor="raw learner below 90% success (room for a gain)", headline=False),
    Claim("rl_over_bc", "Offline RL uses the LIFT-SC data at least as well as behaviour cloning (ablation)",
          paper=QUALITATIVE, quantity="mean steps, TD3+BC / BC on the LIFT-SC data", op="<=", target=1.0,
          headline=False),
)
