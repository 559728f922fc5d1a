"""Scaling laws for low-precision training: multiplicative vs additive quantisation in sketched regression."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs: the default, very low precision, a steeper spectrum, more data."""
    return {
        "6 bits, a = 2 (default, ~4 s)": {},
        "2 bits: the multiplicative floor appears, additive collapses (~4 s)": {"bits": 2},
        "10 bits: both schemes close to full precision (~4 s)": {"bits": 10},
        "Steeper spectrum a = 3 (~4 s)": {"spectrum_exponent": 3.0},
        "More data: N = 16000 (~15 s)": {"n_samples": 16000},
    }


ABOUT = r"""
**Setting** (the paper's framework, after Lin et al. 2024): features $x \sim N(0, H)$ in $\mathbb R^d$ with a
power-law spectrum $\lambda_i = i^{-a}$, labels $y = \langle w^*, x\rangle + \varepsilon$ with $w^* \sim N(0, I)$;
a model of size $M$ predicts $\langle v, Sx\rangle$ with a Gaussian sketch $S \in \mathbb R^{M\times d}$,
$S_{ij} \sim N(0, 1/M)$, trained by one pass of SGD over $N$ samples.

1. **Low precision**: each feature vector is quantised before it is used, $\tilde x = Q(x)$, by unbiased
   stochastic rounding at $b$ bits, either **multiplicative** (float-like: $b$ mantissa bits, error variance
   $\propto x^2$) or **additive** (int-like: $2^b$ levels on $[-4, 4]$, error variance independent of $x$).
   Labels stay exact.
2. **SGD**: $v \leftarrow v - \gamma(\langle v, S\tilde x\rangle - y)S\tilde x$ with $\gamma = 0.5/E\|S\tilde x\|^2$; the
   estimate after $n$ samples averages the iterates $n/2..n$. All model sizes share one sketch (nested rows)
   and all seeds run in one vectorised pass.
3. **Risk**: the excess risk $(S^\top v - w^*)^\top H (S^\top v - w^*)$, computed exactly (no test set).
4. **Theory**: with the measured noise variances $q_i$, $E\tilde x\tilde x^\top = H + \mathrm{diag}(q)$. The
   infinite-data optimum $v_\infty = G^{-1} S H w^*$, $G = S(H + \mathrm{diag}\,q)S^\top$, gives the approximation
   error plus the quantisation's additive error; the effective model size is
   $m_{\text{eff}} = \mathrm{tr}[SHS^\top G^{-1}]$ (multiplicative noise, $q \propto$ signal, only rescales $G$, so
   $m_{\text{eff}} \approx M$; additive noise swamps the weak directions). The finite-$N$ curve adds the
   constant-step SGD bias and variance terms (Zou et al. 2021, Lin et al. 2024) with constants set to one.
   This is a deterministic-equivalent approximation written for this page, not the paper's theorem.
5. **Checks**: multiplicative *keeps* the model size when $m_{\text{eff}} \ge 0.9M$ at every $M$ and the fitted
   exponents of risk vs $M$ (95% intervals) of multiplicative and full precision overlap; additive *shrinks* it
   when, at the largest $M$, both $m_{\text{eff}}$ and the model size at which full precision reaches the
   same simulated risk are below $0.9M$.

**Paper vs here.** The paper proves worst-case scaling laws for both schemes; here a $d = 512$ problem with
a few thousand samples is simulated. At 6 bits and more the multiplicative floor is far below the
risk, so multiplicative and full precision nearly coincide; try 2 bits to see the floor.

*Citation*: Dechen Zhang, Xuan Tang, Yingyu Liang, Difan Zou. Scaling Laws for Precision in
High-Dimensional Linear Regression. ICML 2026 (arXiv:2602.19241).
"""

SPEC = MethodSpec(
    name="precision_scaling",
    nav_title="Low-precision scaling",
    title="Scaling laws for low-precision training: multiplicative vs additive quantisation",
    paper=Paper(
        title="Scaling Laws for Precision in High-Dimensional Linear Regression",
        authors="Dechen Zhang, Xuan Tang, Yingyu Liang, Difan Zou",
        url="https://arxiv.org/abs/2602.19241",
    ),
    summary=(
        "Sketched linear regression trained by one-pass SGD on features stored at b bits: float-like "
        "(multiplicative) rounding keeps the full-precision scaling in model size, integer-like (additive) "
        "rounding shrinks the effective model size. Simulation beside a deterministic-equivalent theory."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Learning dynamics",
    about=ABOUT,
    examples=examples,
    order=3,
    tags=("scaling laws", "quantisation", "linear regression", "SGD"),
    input_summary=lambda p: f"M {min(p.model_sizes)}..{max(p.model_sizes)}, N {p.n_samples}, {p.bits} bits, "
    f"a = {p.spectrum_exponent:g}, {p.seeds} seeds",
)
