"""APT: a mesh-agnostic neural operator (radius-ball GNO fused with global latent attention) for channelised
subsurface flow: pressure and the injected-fluid saturation, against GINO, an FNO and a uniform-k null."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]

ABOUT = about_markdown(__file__)


def examples() -> dict[str, dict[str, Any]]:
    return {
        "Shipped checkpoint, adaptive mesh, 3 seeds x 8 channelised test media (the default; measured 16 s CPU)": {"mesh": "adaptive"},
        "Shipped checkpoint, regular 32 x 32 grid, 3 seeds x 8 media (about 16 s CPU)": {"mesh": "regular"},
        "Reproduce the paper (3 seeds, 48 test media, shipped weights; measured 88 s CPU)": {"seeds": 3, "test_samples": 48},
        "Retrain all six models: 32 media x 4 epochs (measured 30 s CPU; too short to train them: all worse than the null)": {"retrain": True, "train_samples": 32, "epochs": 4},
    }


SPEC = MethodSpec(
    name="apt_operator",
    title="Adaptive Physics Transformer: a mesh-agnostic operator for channelised subsurface flow",
    nav_title="APT operator",
    paper=Paper(title='Adaptive Physics Transformer with Fused Global-Local Attention for Subsurface Energy Systems',
                authors='Xin Ju, Nok Hei (Hadrian) Fung, Yuyan Zhang, Carl Jacquemyn, Matthew Jackson, Randolph Settgast, Sally M. Benson, Gege Wen',
                url='https://arxiv.org/abs/2602.11208'),
    summary="Does a neural operator that fuses a local graph encoder with global attention learn pressure and an "
    "injected-fluid saturation front in channelised media (100x permeability jumps) better than GINO and an FNO, on "
    "regular and adaptive meshes, and does it transfer to a finer input and to a mesh family it was not trained on? "
    "APT against its ablations, GINO and an FNO of the same size and training steps, and a null that ignores the "
    "permeability (the same flow and transport solve with uniform k).",
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Model composition",
    about=ABOUT,
    examples=examples,
    input_summary=lambda p: f"{p.mesh} mesh, {p.test_samples} media, seeds {p.seed}..{p.seed + p.seeds - 1}"
    + (f", retrained {p.train_samples} x {p.epochs}" if p.retrain else ""),
    smoke_params={"mesh": "adaptive", "test_samples": 4, "seeds": 1},
)
