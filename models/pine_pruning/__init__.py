"""PINE: faithful in-distribution pruning of boosted tree ensembles (conformal Chow-Liu region, MILP oracle)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs, with their measured time on one core."""
    return {
        "Breast cancer, 30 boosting stages of depth 2, α = 0.1 / 0.4 / 0.8 (default, ~20 s)": {},
        "Reproduce the paper (four of the paper's α, 3 seeds, ~2 min)": {"seeds": 3, "seed": 0,
                                                                         "alphas": [0.1, 0.4, 0.6, 0.8]},
        "The paper's six α, 3 seeds (~3 min)": {"seeds": 3, "alphas": [0.05, 0.1, 0.2, 0.4, 0.6, 0.8]},
        "Quantile bins, not snapped to the thresholds (~20 s)": {"bin_edges": "quantile"},
        "Depth 3 (the paper's pruning falls with depth) (~25 s)": {"max_depth": 3},
        "Random forest, 30 trees, breast cancer (~15 s)": {"ensemble": "random_forest"},
        "Synthetic chain data, 3 classes, 20 stages of depth 2 (~35 s)": {"dataset": "synthetic", "trees": 20,
                                                                         "oracle_rounds": 25},
        "Exact L0 weight program (MILP), breast cancer (~30 s)": {"solver": "milp", "alphas": [0.1, 0.8]},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="pine_pruning",
    nav_title="PINE pruning",
    title="PINE: prune a tree ensemble without changing any in-distribution prediction",
    paper=Paper(title='PINE: Pruning Boosted Tree Ensembles with Conformal In-Distribution Prediction Equivalence',
                authors='Haruki Yajima, Yusuke Matsui',
                url='https://arxiv.org/abs/2605.28068', code_url="https://github.com/Haruk1y/pine"),
    summary=(
        "A gradient-boosted ensemble (or a random forest) is pruned to weighted trees whose class equals the full "
        "ensemble's on a conformal in-distribution region (a Chow-Liu density above a calibrated threshold), proved by "
        "an exact MILP oracle on HiGHS; compared with whole-space faithful and accuracy pruning, over seeds."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Robust and faithful learning",
    about=ABOUT,
    examples=examples,
    order=2,
    tags=("tree ensembles", "pruning", "conformal prediction", "MILP"),
    input_summary=lambda p: f"{p.dataset}, {p.ensemble.replace('_', ' ')}, {p.trees} (depth {p.max_depth}), alphas "
    f"{', '.join(f'{a:g}' for a in p.alphas)}, seeds {p.seed}..{p.seed + p.seeds - 1}",
    smoke_params={"trees": 5, "max_depth": 2, "alphas": [0.1, 0.5], "oracle_rounds": 3, "search_size": 200,
                  "check_size": 200},
)
