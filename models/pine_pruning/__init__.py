"""PINE: faithful in-distribution pruning of tree ensembles (conformal Chow-Liu region, HiGHS, oracle)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs: the default, and the scikit-learn data sets (with their expected time on one core)."""
    return {
        "Synthetic chain data, 100 trees (default, ~20 s)": {},
        "Breast cancer, 100 trees (~40 s)": {"dataset": "breast_cancer", "alphas": [0.1, 0.3, 0.5]},
        "Wine, 100 trees (~30 s)": {"dataset": "wine", "alphas": [0.1, 0.3, 0.5]},
        "Digits, 100 trees, depth 4 (~90 s)": {"dataset": "digits", "max_depth": 4, "alphas": [0.1, 0.5],
                                               "search_size": 2000},
        "Exact L0 program (MILP) on synthetic data (~60 s)": {"solver": "milp", "alphas": [0.1, 0.5]},
        "More oracle rounds: 20 (~90 s)": {"oracle_rounds": 20, "alphas": [0.1, 0.5]},
    }


ABOUT = r"""
1. **Forest**: a scikit-learn random forest (bootstrap, depth-limited trees) on 50% of the data; its vote is
   $\arg\max_k \sum_t p_t(x, k)$.
2. **Density**: each feature is cut into quantile bins of the training data; the **Chow-Liu tree** (the
   maximum spanning tree of the pairwise mutual informations) gives a piecewise-constant density
   $\log p(x) = \sum_j \log P(b_j \mid b_{\mathrm{pa}(j)}) - \log \mathrm{width}(b_j)$.
3. **Region** (split conformal): on a 20% calibration split, $\tau_\alpha$ is the
   $\lceil (n+1)(1-\alpha) \rceil$-th smallest of $-\log p$; the in-distribution region
   $\{x : \log p(x) \ge -\tau_\alpha\}$ holds a new point with probability $\ge 1 - \alpha$.
4. **Pruning program** on HiGHS: weights $0 \le w_t \le 1$ with
   $\sum_t w_t (p_t(x, c(x)) - p_t(x, k)) \ge m$ for every point $x$ of a set $S$ and every rival class $k$
   ($c(x)$ the forest's class); *lp* minimises $\sum_t w_t$ with iterative reweighting (sparse), *milp* the
   number of kept trees $\sum_t z_t$, $w_t \le z_t$, within a time limit.
5. **Oracle**: search the region for a point where the pruned vote differs (draws of the Chow-Liu tree
   restricted to the region, and coordinate moves from the points of $S$); add the worst ones to $S$ and
   solve again, until a search finds none. The final forest is re-checked on fresh region points.
6. **Baselines**: the same loop over the whole input box (FIPE-style faithful pruning) and reduce-error
   (greedy, accuracy-oriented) pruning on the calibration split.

**Paper vs here.** The paper's oracle is exact (a MILP that proves no disagreement exists in the region);
here the oracle is a randomised search, so "faithful" means *no disagreement found* in the searched and the
fresh points (the page shows both counts), and a run with a capped number of rounds may stop before the
search comes up empty (reported as not converged). Forests are small (100 trees, depth 3 by default) and
the data sets are scikit-learn's bundled ones.

*Citation*: PINE: faithful in-distribution pruning of tree ensembles. ICML 2026. FIPE: Y. Emine, A. Forel,
I. Malek, T. Vidal, Free Lunch in the Forest: Functionally-Identical Pruning of Boosted Tree Ensembles, AAAI 2025.
"""

SPEC = MethodSpec(
    name="pine_pruning",
    nav_title="PINE pruning",
    title="PINE: prune a tree ensemble without changing any in-distribution prediction",
    paper=Paper(title='PINE: Pruning Boosted Tree Ensembles with Conformal In-Distribution Prediction Equivalence',
                authors='Haruki Yajima, Yusuke Matsui',
                url='https://arxiv.org/abs/2605.28068'),
    summary=(
        "A random forest is pruned to few weighted trees whose vote equals the full forest's on a conformal "
        "in-distribution region (a Chow-Liu density above a calibrated threshold), found by a HiGHS program and an "
        "oracle that searches the region for disagreements; compared with whole-space faithful and accuracy pruning."
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
    input_summary=lambda p: f"{p.dataset}, {p.trees} trees (depth {p.max_depth}), alphas "
    f"{', '.join(f'{a:g}' for a in p.alphas)}, {p.solver}, seed {p.seed}",
    smoke_params={"trees": 10, "alphas": [0.1, 0.5], "oracle_rounds": 2, "search_size": 200, "check_size": 200,
                  "samples": 200},
)
