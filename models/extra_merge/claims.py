"""The paper's claims as the page tests them, declared once (see models/common/claims.py)."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim, Measurement
from models.extra_merge.result import SeedSummary

__all__ = ["CLAIMS", "measure"]

CLAIMS = (
    Claim("beats_baselines", "While the loss still falls, Extra-Merge beats the plain merge, EMA and LAWA on test loss",
          paper=QUALITATIVE + " ('consistently outperforms standard merging baselines')",
          quantity="test loss, Extra-Merge - min(merge, EMA, LAWA) (nats/token)", op="<", target=0.0,
          floor="loss still falling at the analysis point"),
    Claim("merging_beats_last", "While the loss still falls, the best merging baseline beats the last checkpoint",
          paper=QUALITATIVE, quantity="test loss, min(merge, EMA, LAWA) - last checkpoint (nats/token)", op="<",
          target=0.0, floor="loss still falling at the analysis point"),
    Claim("rank_one", "Merged checkpoints move along a line while raw steps oscillate",
          paper=QUALITATIVE + " ('approximately one-dimensional')",
          quantity="top-1 share of the last merged steps - that of the raw steps at the same times", op=">",
          target=0.0, floor="loss still falling at the analysis point"),
    Claim("plateau", "At the end of training (loss flat), Extra-Merge still beats the merging baselines",
          paper=QUALITATIVE, quantity="test loss, Extra-Merge - min(merge, EMA, LAWA) at the last step (nats/token)",
          op="<", target=0.0, headline=False),
)


def measure(seeds: list[SeedSummary]) -> dict[str, list[Measurement]]:
    """Each claim's quantity on each seed (the falling-phase floor refuses a cut where the loss is flat)."""
    out: dict[str, list[Measurement]] = {c.id: [] for c in CLAIMS}
    for s in seeds:
        f, p = s.falling, s.plateau
        note = f"step {f.step}, beta {f.beta:g}, EMA k {f.ema_k}, LAWA k {f.lawa_k}"
        out["beats_baselines"].append(Measurement(f.loss_extrapolated - f.best_baseline, f.still_falling, note))
        out["merging_beats_last"].append(Measurement(f.best_baseline - f.loss_last, f.still_falling, note))
        out["rank_one"].append(Measurement(f.top1_merged - f.top1_raw, f.still_falling,
                                           f"raw {f.top1_raw:.2f}, merged {f.top1_merged:.2f}"))
        out["plateau"].append(Measurement(p.loss_extrapolated - p.best_baseline,
                                          note=f"step {p.step}, beta {p.beta:g}, "
                                               f"{'still falling' if p.still_falling else 'flat'}"))
    return out
