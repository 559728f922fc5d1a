"""The paper's claims, declared once, and their per-seed measurements (models/common/claims.py).

The abstract: APT "outperforms state-of-the-art architectures in subsurface tasks across both regular and
irregular grids with robust super-resolution capabilities", is "geometry-, mesh-, and physics-agnostic" and
"fuses a graph-based encoder ... with a global attention mechanism". No figure is given, so every claim is
qualitative; the 1.5x tolerances of the two transfer claims are ours ("robust": the error at most 1.5x).
The FNO (same parameter count within 10%, same number of optimiser steps) is the standing competitor: the
verdict is not green while it wins.
"""

from __future__ import annotations

from models.apt_operator.result import SeedSummary
from models.common.claims import QUALITATIVE, Claim, Measurement

__all__ = ["CLAIMS", "MAX_RATIO", "measure"]

MAX_RATIO = 1.5
FLOOR = "every model compared has relative L2 below 1 (better than predicting p = 0; refuses an untrained pass)"

CLAIMS = (
    Claim("beats_fno", "APT outperforms the FNO baseline on the evaluation mesh", paper=QUALITATIVE,
          quantity="relative L2, APT fused - FNO, mean over the test media", op="<", target=0.0, floor=FLOOR),
    Claim("beats_ablations", "Fusing the local graph encoder with global attention beats either alone", paper=QUALITATIVE,
          quantity="relative L2, fused - best of (local only, global only)", op="<", target=0.0,
          floor=FLOOR),
    Claim("super_resolution", "Robust super-resolution: fed a genuinely finer 64 x 64 input, the error stays close",
          paper=QUALITATIVE, quantity="relative L2 with the 64 x 64 input / with the 32 x 32 input (fused)",
          op="<=", target=MAX_RATIO, floor=FLOOR),
    Claim("mesh_agnostic", "Mesh-agnostic: trained on regular grids only, it transfers to the adaptive meshes",
          paper=QUALITATIVE, quantity="relative L2 on adaptive meshes / on regular grids (model trained on grids only)",
          op="<=", target=MAX_RATIO, floor=FLOOR),
    Claim("finer_transfer", "The regular-grid model also transfers to the finer 64 x 64 input", paper=QUALITATIVE,
          quantity="relative L2 with the 64 x 64 input / on 32 x 32 (model trained on grids only)",
          op="<=", target=MAX_RATIO, floor=FLOOR, headline=False),
)


def measure(summary: SeedSummary) -> dict[str, Measurement]:
    """Each claim's quantity on one seed."""
    e, sr, tr = summary.errors, summary.super_resolution, summary.transfer
    return {
        "beats_fno": Measurement(e.fused - e.fno, floor_ok=max(e.fused, e.fno) < 1, note=f"fused {e.fused:.3f}, FNO {e.fno:.3f}"),
        "beats_ablations": Measurement(e.fused - min(e.local_only, e.global_only),
                                       floor_ok=max(e.fused, min(e.local_only, e.global_only)) < 1,
                                       note=f"local {e.local_only:.3f}, global {e.global_only:.3f}"),
        "super_resolution": Measurement(sr.higher_resolution / sr.same_resolution, floor_ok=sr.same_resolution < 1,
                                        note=f"FNO {sr.fno_higher / sr.fno_same:.2f}"),
        "mesh_agnostic": Measurement(tr.adaptive / tr.regular, floor_ok=tr.regular < 1),
        "finer_transfer": Measurement(tr.finer / tr.regular, floor_ok=tr.regular < 1),
    }
