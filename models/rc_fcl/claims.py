"""RC-FCL's claims (abstract): it distinguishes asynchronous drift, and is competitive in accuracy and forgetting."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS"]

CLAIMS = (
    Claim("accuracy", "RC-FCL's average accuracy is competitive with FedAvg, FedProx, a drift-aware FedAvg and "
          "FedAvg with real-sample or generator replay",
          paper="competitive performance against state-of-the-art methods",
          quantity="average accuracy after the last round, RC-FCL - best baseline (points)",
          op=">=", target=0.0, tolerance=1.0),
    Claim("forgetting", "RC-FCL forgets less than FedAvg under asynchronous drift",
          paper=QUALITATIVE, quantity="forgetting, RC-FCL - FedAvg (points)", op="<", target=0.0),
    Claim("forgetting_replay", "RC-FCL forgets no more than the better replay baseline (same replay budget)",
          paper="competitive performance against state-of-the-art methods",
          quantity="forgetting, RC-FCL - the replay baseline that forgets less (points)",
          op="<=", target=0.0, tolerance=1.0),
    Claim("tpr", "The generator-referenced detector finds the drifts",
          paper=QUALITATIVE, quantity="true-positive rate of drift events (flag within 2 rounds)",
          op=">=", target=0.8, floor="at least one drift event scored"),
    Claim("fpr", "The detector rarely fires when the data change without a concept drift",
          paper=QUALITATIVE, quantity="false-positive rate of non-drift client-rounds (fresh batches, prior shifts)",
          op="<=", target=0.1, floor="at least 10 non-drift client-rounds scored"),
)
