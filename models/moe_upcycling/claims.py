"""The paper's claims (abstract): fewer added parameters than full upcycling, better accuracy, less forgetting."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS", "DECIDED_FLOOR"]

DECIDED_FLOOR = "at least one expert kept and a search that decided (every keep probability outside [0.1, 0.9])"

CLAIMS = (
    Claim("params", "Selective upcycling removes 60% of the parameters full upcycling adds",
          paper="60% of the redundant expansion removed", quantity="added parameters, selective / full",
          op="<=", target=0.4, floor=DECIDED_FLOOR),
    Claim("accuracy", "Selective upcycling's average accuracy is better than full upcycling's (1 point of slack)",
          paper="better average accuracy", quantity="average accuracy, selective - full (points)",
          op=">=", target=0.0, tolerance=1.0, floor="at least one expert kept"),
    Claim("forgetting", "Selective upcycling forgets 80% less than naive fine-tuning",
          paper="80% forgetting reduction", quantity="forgetting, selective / naive",
          op="<=", target=0.2),
    Claim("forgetting_full", "Selective upcycling forgets no more than full upcycling",
          paper=QUALITATIVE, quantity="forgetting, selective - full (points)", op="<=", target=0.0, headline=False),
)
