"""APT: a mesh-agnostic neural operator (kNN message passing fused with global latent attention) for Darcy flow."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]

ABOUT = """
**What runs here.** Single-phase Darcy flow -div(k grad p) = q on the unit square, p = 0 on the boundary,
with a log-normal permeability k (16 random Fourier modes, std of ln k = 1) and three Gaussian wells (one
injector, two producers). Ground truth comes from a cell-centred finite-volume solver (two-point flux,
harmonic-mean transmissibilities, scipy sparse LU), tested against a manufactured solution, a 1-D closed form
and mass conservation.

1. **Meshes.** The regular 32 x 32 grid, and an adaptively refined point set: a 16 x 16 base grid whose 64
   cells with the largest pressure gradient plus well rate are split into 2 x 2 (448 points; leaf values are
   cell averages of the 32 x 32 solution).
2. **Encoder.** Every point carries (x, y, ln k, q). Two kNN message-passing layers (8 neighbours, relative
   positions) extract local heterogeneity.
3. **Global attention.** 8 learned latent tokens cross-attend to all points, self-attend, and the points read
   them back (long-range pressure coupling).
4. **Decoder at query coordinates.** The pressure at any query point is decoded from an inverse-distance
   interpolation of its 4 nearest encoded points and its coordinates: the model is mesh-agnostic.
5. **Ablations and baseline.** Local only (no attention), global only (no message passing), and a two-layer
   FNO (width 8, 5 modes) on the 32 x 32 grid (on the adaptive mesh its grid output is averaged onto the leaves).
6. **Super-resolution.** The fused model, trained at 32 x 32 (adaptive leaves are no finer), reads the 32 x 32
   input and is decoded at the 64 x 64 cell centres, against the 64 x 64 FV solution.

All four models (about 12k and 7k parameters) are trained on the same media, each on both meshes, and shipped
as one checkpoint (`scripts/train_apt_operator.py`); "retrain" repeats the training inside the job.

**Scaled down.** The paper trains transformers with millions of parameters on large HPC simulation sets
(3-D, multiphase, CO2 storage, AMR simulations). Here: 2-D single-phase flow, 32 x 32 grids, 160 training
media, 20 epochs on one CPU core. The claims checked: the fused model beats both ablations on the irregular
mesh, and its 64 x 64 error is at most 1.5 x its 32 x 32 error.

*Citation:* Adaptive Physics Transformer (APT) for subsurface flow, ICML 2026.
"""


def examples() -> dict[str, dict[str, Any]]:
    return {
        "Shipped checkpoint, adaptive mesh, 24 test media (the default, ~10 s)": {"mesh": "adaptive"},
        "Shipped checkpoint, regular 32 x 32 grid": {"mesh": "regular"},
        "Shipped checkpoint, 64 test media, seed 7 (~25 s)": {"mesh": "adaptive", "test_samples": 64, "seed": 7},
        "Retrain all four models: 64 media x 8 epochs (~2-4 min)": {"mesh": "adaptive", "retrain": True,
                                                                    "train_samples": 64, "epochs": 8},
        "Retrain as shipped: 160 media x 20 epochs (~10 min on a busy core)": {
            "mesh": "adaptive", "retrain": True, "train_samples": 160, "epochs": 20},
    }


SPEC = MethodSpec(
    name="apt_operator",
    title="Adaptive Physics Transformer: a mesh-agnostic operator for Darcy flow",
    nav_title="APT operator",
    paper=Paper(title='Adaptive Physics Transformer with Fused Global-Local Attention for Subsurface Energy Systems',
                authors='Xin Ju, Nok Hei (Hadrian) Fung, Yuyan Zhang, Carl Jacquemyn, Matthew Jackson, Randolph Settgast, Sally M. Benson, Gege Wen',
                url='https://arxiv.org/abs/2602.11208'),
    summary="Darcy flow with wells on regular and adaptive meshes: a kNN graph encoder fused with global latent "
    "attention against its local-only and global-only ablations and an FNO, plus 32 -> 64 super-resolution.",
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Model composition",
    about=ABOUT,
    examples=examples,
    input_summary=lambda p: f"{p.mesh} mesh, {p.test_samples} media, seed {p.seed}"
    + (f", retrained {p.train_samples} x {p.epochs}" if p.retrain else ""),
    smoke_params={"mesh": "adaptive", "test_samples": 4, "retrain": True, "train_samples": 8, "epochs": 1},
)
