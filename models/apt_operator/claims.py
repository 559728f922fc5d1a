"""The paper's claims, declared once, and their per-seed measurements (models/common/claims.py).

Every error is the relative L2 averaged over the two fields the paper's subsurface tasks predict: the pressure and
the saturation of the injected fluid, on channelised media (sharp permeability jumps of 100x).

The abstract: APT "outperforms state-of-the-art architectures in subsurface tasks across both regular and
irregular grids with robust super-resolution capabilities", is "geometry-, mesh-, and physics-agnostic" and
"fuses a graph-based encoder ... with a global attention mechanism". No figure is given, so every claim is
qualitative; the 1.5x tolerances of the two transfer claims are ours ("robust": the error at most 1.5x).

Every claim is checked against a null measured in the same run on the same test media: the finite-volume
solve with uniform permeability exp(mean ln k) and the true wells (`nulls.py`). A learned model's claim
counts on a seed only when that model beats the null there (paired 95% interval of the per-medium gap
excluding 0 and a mean improvement of at least 25%): the null itself is perfectly "robust" (its error
ratios are about 1.00), so a ratio claim means nothing for a model that has not learned more than it.
The FNO (same parameter count within 10%, same number of optimiser steps) is the standing competitor.
Units are test media: each claim's per-medium values are kept in `SeedSummary.media`.

Paper passages, per headline claim id:
- `beats_null`: abstract, "full physics numerical simulations ... are notoriously computationally expensive due to geological heterogeneity" (a surrogate must read the heterogeneity)
- `beats_fno`: abstract, "outperforms state-of-the-art architectures in subsurface tasks across both regular and irregular grids"
- `beats_gino`: abstract, "outperforms state-of-the-art architectures in subsurface tasks across both regular and irregular grids"; "geometry-, mesh-, and physics-agnostic"
- `beats_ablations`: abstract, "APT fuses a graph-based encoder ... with a global attention mechanism"
- `super_resolution`: abstract, "with robust super-resolution capabilities"
- `mesh_agnostic`: abstract, "geometry-, mesh-, and physics-agnostic"; "learns directly from adaptive mesh refinement simulations"
"""

from __future__ import annotations

import numpy as np

from models.apt_operator.nulls import MIN_GAIN, NullCheck, improvement, null_check
from models.apt_operator.result import SeedSummary
from models.common.claims import QUALITATIVE, Claim, Measurement

__all__ = ["CLAIMS", "MAX_RATIO", "NO_NULL", "measure"]

MAX_RATIO = 1.5
NULL = "uniform-k FV solve and transport"  # the same physics with uniform permeability exp(mean ln k), true wells
UNITS = "test media"
WHY_GAP = "the paper gives no figure, so any gap counts whose paired interval over the media excludes 0"
WHY_RATIO = ("the abstract gives no figure; 1.5x is our reading of 'robust', counted only for a model that beats "
             "the null (whose own ratio is about 1.00: a ratio alone cannot tell learning from ignoring the input)")
FLOOR = (f"the model judged beats the uniform-k FV solve on the same media (paired 95% interval of the gap "
         f"excludes 0, mean improvement >= {MIN_GAIN:.0f}%)")

CLAIMS = (
    Claim("beats_null", f"APT fused learns the operator: its error is at least {MIN_GAIN:.0f}% below a solve that "
          "ignores the permeability field", paper=QUALITATIVE,
          quantity="improvement in mean relative L2 over the null on the evaluation mesh, 100 (1 - fused / null) (%); "
          "per medium 100 (null - fused) / mean(null)",
          op=">=", target=MIN_GAIN, floor="the paired 95% interval of (null - fused) over the media excludes 0",
          why="a quarter less error than a solve that ignores k (on smooth media APT was 10-12% better than it, the "
          "FNO about 40%); the paper gives no figure", null=NULL, units=UNITS),
    Claim("beats_fno", "APT outperforms the FNO baseline on the evaluation mesh", paper=QUALITATIVE,
          quantity="relative L2, APT fused - FNO, mean over the test media", op="<", target=0.0, floor=FLOOR,
          why=WHY_GAP, null=NULL, units=UNITS),
    Claim("beats_gino", "APT outperforms GINO, the mesh-agnostic graph-kernel operator, on the evaluation mesh",
          paper=QUALITATIVE, quantity="relative L2, APT fused - GINO, mean over the test media", op="<", target=0.0,
          floor=FLOOR, why=WHY_GAP, null=NULL, units=UNITS),
    Claim("beats_ablations", "Fusing the local graph encoder with global attention beats either alone", paper=QUALITATIVE,
          quantity="relative L2, fused - best of (local only, global only), mean over the test media", op="<",
          target=0.0, floor=FLOOR, why=WHY_GAP, null=NULL, units=UNITS),
    Claim("super_resolution", "Robust super-resolution: fed a genuinely finer 64 x 64 input, the error stays close",
          paper=QUALITATIVE, quantity="per-medium relative L2 with the 64 x 64 input / with the 32 x 32 input (fused), "
          "mean over media", op="<=", target=MAX_RATIO, floor=FLOOR + " at both resolutions", why=WHY_RATIO,
          units=UNITS),
    Claim("mesh_agnostic", "Mesh-agnostic: trained on regular grids only, it transfers to the adaptive meshes",
          paper=QUALITATIVE, quantity="per-medium relative L2 on adaptive meshes / on regular grids (model trained "
          "on grids only), mean over media", op="<=", target=MAX_RATIO, floor=FLOOR + " on both meshes", why=WHY_RATIO,
          units=UNITS),
    Claim("finer_transfer", "The regular-grid model also transfers to the finer 64 x 64 input", paper=QUALITATIVE,
          quantity="per-medium relative L2 with the 64 x 64 input / on 32 x 32 (model trained on grids only), mean "
          "over media", op="<=", target=MAX_RATIO, floor=FLOOR + " at both resolutions", headline=False, why=WHY_RATIO,
          units=UNITS),
    Claim("best_beats_null", "Some learned operator (the best of APT fused, GINO and the FNO) learns the operator on "
          "these media", paper=QUALITATIVE, quantity="improvement in mean relative L2 of the best learned model "
          "over the null (%)", op=">=", target=MIN_GAIN, floor="the paired 95% interval of (null - best) over the "
          "media excludes 0", headline=False, why="the same bar as beats_null: is the setting learnable at all at "
          "our scale", null=NULL, units=UNITS),
)
# The ratio claims compare the model with itself; the uniform-k solve passes any ratio (about 1.00: it ignores
# the input), so as a null it would mark a learning model vacuous. The null enters through the floor instead:
# the model judged must beat it by 25% (paired interval) on that seed, or the ratio does not count.
NO_NULL = {cid: "a ratio of the model's own errors: the uniform-k solve's ratio is about 1 by construction, so it "
                "gates the claim through the floor (the model must beat it by 25%) instead of as a null"
           for cid in ("super_resolution", "mesh_agnostic")}


def _both(a: NullCheck, b: NullCheck) -> tuple[bool, str]:
    return a.passed and b.passed, f"{a.text()}; {b.text()}"


def measure(summary: SeedSummary) -> dict[str, Measurement]:
    """Each claim's quantity on one seed, from the per-medium errors (the units)."""
    m = {k: np.asarray(v, dtype=float) for k, v in summary.media.model_dump().items()}
    fused = null_check(m["fused"], m["uniform_k"])
    best = min(("local_only", "global_only"), key=lambda k: float(m[k].mean()))
    gain = improvement(m["fused"], m["uniform_k"])
    sr_ok, sr_note = _both(null_check(m["fused_32"], m["uniform_k_32"]), null_check(m["fused_64"], m["uniform_k_64"]))
    regular = null_check(m["transfer_regular"], m["uniform_k_32"])
    tr_ok, tr_note = _both(regular, null_check(m["transfer_adaptive"], m["uniform_k_adaptive"]))
    fine_ok, fine_note = _both(regular, null_check(m["transfer_finer"], m["uniform_k_64"]))
    null_sr = float((m["uniform_k_64"] / m["uniform_k_32"]).mean())
    null_tr = float((m["uniform_k_adaptive"] / m["uniform_k_32"]).mean())
    fno_gap, gino_gap, ablation_gap = m["fused"] - m["fno"], m["fused"] - m["gino"], m["fused"] - m[best]
    sr, tr, fine = m["fused_64"] / m["fused_32"], m["transfer_adaptive"] / m["transfer_regular"], \
        m["transfer_finer"] / m["transfer_regular"]
    top = min(("fused", "gino", "fno"), key=lambda k: float(m[k].mean()))
    top_gain, top_check = improvement(m[top], m["uniform_k"]), null_check(m[top], m["uniform_k"])
    return {  # a ratio claim's null value is not passed: the null's ratio (~1.00) passes it by construction
        "beats_null": Measurement(float(gain.mean()), floor_ok=fused.interval[0] > 0, units=gain.tolist(), null=0.0,
                                  note=f"{fused.text()}; the FNO: {improvement(m['fno'], m['uniform_k']).mean():.1f}%, "
                                       f"GINO: {improvement(m['gino'], m['uniform_k']).mean():.1f}%"),
        "beats_fno": Measurement(float(fno_gap.mean()), floor_ok=fused.passed, units=fno_gap.tolist(),
                                 null=float((m["uniform_k"] - m["fno"]).mean()),
                                 note=f"fused {m['fused'].mean():.3f}, FNO {m['fno'].mean():.3f}, null "
                                      f"{m['uniform_k'].mean():.3f}"),
        "beats_gino": Measurement(float(gino_gap.mean()), floor_ok=fused.passed, units=gino_gap.tolist(),
                                  null=float((m["uniform_k"] - m["gino"]).mean()),
                                  note=f"fused {m['fused'].mean():.3f}, GINO {m['gino'].mean():.3f} "
                                       f"({improvement(m['gino'], m['uniform_k']).mean():.1f}% below the null)"),
        "beats_ablations": Measurement(float(ablation_gap.mean()), floor_ok=fused.passed, units=ablation_gap.tolist(),
                                       null=float((m["uniform_k"] - m[best]).mean()),
                                       note=f"local {m['local_only'].mean():.3f}, global {m['global_only'].mean():.3f}"),
        "super_resolution": Measurement(float(sr.mean()), floor_ok=sr_ok, units=sr.tolist(),
                                        note=f"{sr_note}; the null's own ratio {null_sr:.3f}"),
        "mesh_agnostic": Measurement(float(tr.mean()), floor_ok=tr_ok, units=tr.tolist(),
                                     note=f"{tr_note}; the null's own ratio {null_tr:.3f}"),
        "finer_transfer": Measurement(float(fine.mean()), floor_ok=fine_ok, units=fine.tolist(), note=fine_note),
        "best_beats_null": Measurement(float(top_gain.mean()), floor_ok=top_check.interval[0] > 0, null=0.0,
                                       units=top_gain.tolist(), note=f"best learned model: {top}; {top_check.text()}"),
    }
