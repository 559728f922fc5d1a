"""The paper's claims as LMNet tests them (see models/common/claims.py for the rule)."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS", "TEXT_SLACK"]

TEXT_SLACK = 0.02  # the trained text pipeline may sit this far below its untrained score (test noise)

CLAIMS = (
    Claim("efficiency", "With few labels, LMNet's dense edges beat fine-tuning a single model (all weights, or "
          "LoRA with as many parameters as the edge)",
          paper="qualitative: \"effective adaptation under limited supervision\"",
          quantity="exact match at the fewest labels run, LMNet - best fine-tuned model (points)", op=">", target=0.0,
          floor="LMNet learns (above 0% exact match)"),
    Claim("text", "Dense communication beats a pipeline whose models talk in text (A's decoded text into B, "
          "its edge trained with early stopping)",
          paper=QUALITATIVE, quantity="exact match at the most labels run, LMNet - text pipeline (points)",
          op=">", target=0.0, floor="text pipeline trained to at least its untrained score"),
    Claim("gradients", "End-task gradients reach every edge through the frozen nodes, and no node weight",
          paper=QUALITATIVE, quantity="1 if every edge tensor has a nonzero gradient and no node tensor has one",
          op=">=", target=1.0, headline=False),
)
