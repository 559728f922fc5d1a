"""The paper's claims as this page tests them (the abstract gives no figure: every one is qualitative)."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS", "GAIN_POINTS", "ROOM"]

GAIN_POINTS = 20.0  # the bar for "improved offline RL performance", in points of success rate
ROOM = 0.9  # the gain is judged only where the raw learner is below 90% success (else success cannot show it)

CLAIMS = (
    Claim("success_gain", "Augmented logs raise the offline learner's success rate over the raw logs",
          paper=QUALITATIVE, quantity="success rate, augmented - raw (points)", op=">=", target=GAIN_POINTS,
          floor="raw learner below 90% success (room for a gain)"),
    Claim("path_length", "Augmented logs shorten the learned paths",
          paper=QUALITATIVE, quantity="mean steps per episode, augmented / raw", op="<", target=1.0,
          floor="augmented learner succeeds on at least half of the episodes"),
    Claim("without_help", "The augmentation helps without help to the logging policy (ablation)",
          paper=QUALITATIVE, quantity="success rate, augmented without help - raw (points)", op=">=",
          target=GAIN_POINTS, floor="raw learner below 90% success (room for a gain)", headline=False),
    Claim("rl_over_bc", "Offline RL uses the augmented data at least as well as behaviour cloning (ablation)",
          paper=QUALITATIVE, quantity="mean steps, TD3+BC / BC on the augmented data", op="<=", target=1.0,
          headline=False),
)
