"""Best-case ERM can overfit: Feldman's construction on a Gold code, exact losses, and projected GD gaps."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs: the default, many samples (no unseen vector), the small code, long GD."""
    return {
        "m = 8 samples, d = 127 (default, ~5 s)": {},
        "m = 16 samples: no code vector is missed, the bad ERM disappears (~3 s)": {
            "samples": 16, "etas": [0.01, 0.03], "horizons": [10, 30, 100],
        },
        "Small code: d = 31, m = 6 (~1 s)": {"dimension": 31, "samples": 6},
        "Tiny steps: eta T from 0.01 to 3 (~5 s)": {"etas": [0.001, 0.003, 0.01], "horizons": [10, 30, 100, 300]},
    }


ABOUT = r"""
*Illustration of the construction at small dimension.*

1. **Code**: all cyclic shifts of the Gold sequences of length $d = 2^n - 1$, as unit vectors $\pm 1/\sqrt d$:
   $(d+2)d$ vectors with coherence $\mu = \max|\langle w, w'\rangle| = (2^{(n+1)/2} + 1)/d$ (17/127 at $d = 127$),
   computed exactly from the periodic cross-correlations. Random codes of this size are not orthogonal enough.
2. **Sample**: $m$ subsets $V_i$ of the code, each vector included with probability 1/2.
3. **Loss**: Feldman's $g_V(x) = \max\{1/2, \max_{w\in V}\langle w, x\rangle\}$ on the unit ball, plus the
   strong-convexity term $\frac\lambda2\|x\|^2$ (the paper's scale $\lambda \sim m^{-3/2}$).
4. **The overfitting ERM**: a code vector $u$ in no sample (about $K/2^m$ exist) has training loss exactly
   $1/2$, the minimum, yet lies in a fresh sample with probability 1/2, so its population loss,
   computed exactly by sorting $\langle w, u\rangle$ ($E\,g_V(u) = \sum_k 2^{-k}\max(1/2, a_{(k)})$), is at
   least $3/4$: excess $\ge 1/4 \ge 1/4 - \mu$.
5. **Gradient descent**: each sample also carries a zero-mean linear term $\langle\xi_V, x\rangle$,
   $\xi_V = K^{-1/2}\sum_w s_w(V)\,w$ ($s_w = \pm1$ for in/out of $V$); projected GD from 0 for every $\eta$ and
   horizon $T$; the gap (population minus training loss, both exact) is drawn against $\eta T$ beside
   $\sqrt{\eta T/m^{1.5}}$ and $\eta T/m$ (constants set to one). The check asks the gap to grow with
   $\eta T$ and to lie between the two curves (within 5%) wherever $\eta T \ge \sqrt m$ (below it the lower
   curve is above the upper one).

**Paper vs here.** The paper (dimension $d = 6m$, an asymptotically good code, extra noise and
regularisation terms) makes the ERM *unique* and bad, and proves the GD lower bound. Here only Feldman's
function with $\lambda\|x\|^2/2$ is built: the bad point $u$ is an exact minimiser of the Feldman part and a
$\lambda/2$-approximate minimiser of the regularised loss, whose unique minimiser is $x = 0$ (which generalises).
The GD instance uses a simpler noise term than the paper's: its gap grows like $\eta T/m$ (the upper-bound
rate) until the iterate reaches the unit sphere and then stops growing, so it does not stay between the
curves; the page reports this as not reproduced.

*Citation*: Tal Burla, Roi Livni. All ERMs Can Fail in Stochastic Convex Optimization: Lower Bounds in
Linear Dimension. ICML 2026 (arXiv:2602.08350). V. Feldman, Generalization of ERM in Stochastic Convex
Optimization: The Dimension Strikes Back, NeurIPS 2016.
"""

SPEC = MethodSpec(
    name="erm_overfit",
    nav_title="Best-case ERM overfits",
    title="The best-case ERM can overfit: Feldman's construction at small dimension",
    paper=Paper(
        title="All ERMs Can Fail in Stochastic Convex Optimization: Lower Bounds in Linear Dimension",
        authors="Tal Burla, Roi Livni",
        url="https://arxiv.org/abs/2602.08350",
    ),
    summary=(
        "A convex loss built on a code of near-orthogonal vectors: a point that fits every training sample "
        "perfectly still loses a constant on fresh data. Losses are computed exactly; projected gradient "
        "descent's generalisation gap is drawn against the paper's lower-bound rate and the known upper bound."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Learning dynamics",
    about=ABOUT,
    examples=examples,
    order=4,
    tags=("learning theory", "stochastic convex optimisation", "generalisation"),
    input_summary=lambda p: f"m = {p.samples}, d = {p.dimension}, lambda {p.strong_convexity:g}, "
    f"{len(p.etas)} etas x {len(p.horizons)} horizons, seed {p.seed}",
)
