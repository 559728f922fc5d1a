"""All ERMs can fail (Burla & Livni 2026): Feldman's function on a linear-dimension code, the unique regularised
ERM by a convex solver, exact population losses."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs: the default, the paper-scale reproduction, a threshold at the coherence, strong noise."""
    return {
        "m = 8, d = 48, 3 seeds (default, ~3 s)": {},
        "Reproduce the paper (m = 10, d = 60, 5 seeds, ~40 s)": {"samples": 10, "seeds": 5},
        "Threshold just above the coherence (~4 s)": {"threshold_margin": 0.05},
        "Strong noise term: alpha = 2 (~3 s)": {"noise_scale": 2.0},
    }


ABOUT = r"""
1. **Code in linear dimension**: a random binary linear code of length $d = 6m$ with $2^{m+3}$ codewords (rate
   about 1/6, asymptotically good by Gilbert-Varshamov), as unit vectors $w = \pm 1/\sqrt d$; the best of 8
   generator matrices, fixed per $m$. Its coherence $\mu = \max_{w \ne w'}\langle w, w'\rangle = 1 - 2\,d_{\min}/d$
   is exact.
2. **Sample**: $m$ subsets $V_i$ of the code, each codeword included with probability 1/2; about
   $2^{m+3}/2^m = 8$ codewords are in no sample.
3. **Loss** on the unit ball: $f(x; V) = \max\{\theta, \max_{w\in V}\langle w, x\rangle\} + \alpha\langle\xi_V, x\rangle
   + \frac\lambda2\|x\|^2$ with $\theta = \mu + \text{margin}\,(1-\mu)$, a zero-mean noise term
   $\xi_V = K^{-1/2}\sum_w s_w(V)\,w$ ($s_w = \pm 1$ for in / out of $V$) and $\lambda = m^{-3/2}$ (the paper's order).
   The population objective is minimised at $x = 0$ (value $\theta$); every population excess is exact (sorting).
4. **Some ERM overfits**: a codeword $u$ in no sample has training Feldman loss exactly $\theta$ (the minimum) and
   population excess at least $(1-\theta)/2$.
5. **The unique ERM**: the regularised empirical objective is $\lambda$-strongly convex; a second-order cone solver
   (Clarabel) minimises it and the Lagrange dual at its multipliers certifies the optimum to $10^{-6}$. The claim is
   that this unique minimiser overfits by a constant too, and that $x = 0$ is not a minimiser.

**Paper vs here.** The paper (arXiv:2602.08350) builds the instance from Feldman's function on an asymptotically
good code in $d = 6m$, with $\lambda = \Theta(m^{-3/2})$ and added noise and regularisation terms that make the
overfitting point the *unique* minimiser. Only the abstract and third-party summaries were available to us, not the
paper's terms, so the noise term here is our own (zero-mean, built on the code). With it the unique minimiser goes
to the unit sphere along the noise but stays outside every codeword's active region: its population excess is only
the regulariser's $\lambda/2$, and the page reports the unique-ERM claim as not reproduced. The paper's
gradient-descent lower bound $\Omega(\sqrt{\eta T/m^{1.5}})$ is built on those same terms; without them we do not
build a GD instance and make no GD check.

*Citation*: Tal Burla, Roi Livni. All ERMs Can Fail in Stochastic Convex Optimization: Lower Bounds in Linear
Dimension. ICML 2026 (arXiv:2602.08350). V. Feldman, Generalization of ERM in Stochastic Convex Optimization: The
Dimension Strikes Back, NeurIPS 2016.
"""

SPEC = MethodSpec(
    name="erm_overfit",
    nav_title="All ERMs can fail",
    title="All ERMs can fail: Feldman's function on a code in dimension 6m",
    paper=Paper(
        title="All ERMs Can Fail in Stochastic Convex Optimization: Lower Bounds in Linear Dimension",
        authors="Tal Burla, Roi Livni",
        url="https://arxiv.org/abs/2602.08350",
    ),
    summary=(
        "A convex loss on a code of 2^(m+3) unit vectors in dimension 6m: a codeword no training sample contains "
        "fits the data perfectly yet loses a constant on fresh data. A convex solver then finds the unique "
        "minimiser of the regularised empirical objective, and its exact population excess says whether every "
        "ERM fails."
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
    input_summary=lambda p: f"m = {p.samples}, d = {6 * p.samples}, alpha {p.noise_scale:g}, "
    f"{p.seeds} seed{'s' if p.seeds > 1 else ''} from {p.seed}",
    smoke_params={"samples": 4, "seeds": 1},
)
