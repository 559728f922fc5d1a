"""RLVR with noisy verifiers: the Youden's J phase transition of GRPO on a bandit over reasoning modes."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs: the default sweep, a sweep at a noisier verifier, and a long, many-seed run."""
    return {
        "Sweep of J at FPR = 0.3 (default, ~2 s)": {},
        "Almost-random verifier: J in [-0.1, 0.1], FPR = 0.45 (~3 s)": {
            "j_values": [-0.1, -0.05, 0.0, 0.05, 0.1], "fpr": 0.45, "steps": 1500,
        },
        "Clean verifier vs heavy noise: FPR = 0, J from 0.1 to 1 (~3 s)": {
            "j_values": [0.1, 0.2, 0.4, 0.7, 1.0], "fpr": 0.0, "steps": 600,
        },
        "Large groups G = 32, 64 seeds (~15 s)": {"group_size": 32, "seeds": 64},
    }


ABOUT = r"""
**Model** (Rad et al.). A prompt has $m$ correct and $m$ incorrect *reasoning modes*; the policy is a
softmax over $2m$ logits. A noisy verifier rewards a correct sample with probability
$\mathrm{TPR} = 1 - \mathrm{FNR}$ and an incorrect one with probability $\mathrm{FPR}$; Youden's index is
$J = \mathrm{TPR} - \mathrm{FPR}$.

1. **GRPO bandit** (finite samples, vectorised over seeds): draw a group of $G$ modes from the policy,
   draw the verifier's rewards, standardise them inside the group, $A_i = (r_i - \bar r)/\mathrm{std}(r)$
   ($A = 0$ when all rewards agree), and take the policy-gradient step
   $\theta \mathrel{+}= \eta\,\frac1G\sum_i A_i\,(e_{a_i} - \pi)$.
2. **Mean field**: the expected step is $\eta\,\pi_k (r_k - \bar r)/\sigma$ with $\sigma = \sqrt{q(1-q)}$ at success
   rate $q$. With the modes of a class equally likely it reduces to one equation for the incorrect mass $x$,
   $\dot x = -2\eta J\,x^2(1-x)^2/(m\,\sigma(x))$, $q(x) = (1-x)\mathrm{TPR} + x\,\mathrm{FPR}$, solved with
   `scipy.integrate.solve_ivp` (RK45). Its drift has the sign of $-J$: learning for $J>0$, neutral at $J=0$,
   collapse for $J<0$, and the speed is proportional to $J$ up to the factor $1/\sigma$ ("rate, not fate").
3. **Phase diagram**: the mean-field mass after the same number of steps on an (FPR, FNR) grid; the
   line FPR + FNR = 1 is $J = 0$.
4. **Checks**: (a) boundary: every $J>0$ ends below the starting mass and every $J<0$ above, in both
   models; (b) neutral drift at $J = 0$: the mean field does not move and the bandit mean stays within
   two standard errors of the start; (c) rate: the steps to reach mass 0.05 against $1/J$ are fitted on
   log-log axes; the scaling counts as $1/J$ when the bandit's exponent is within $\pm 0.25$ of 1. The
   factor $\sigma$ makes the exponent drift above 1 when TPR approaches 1 (the reward variance vanishes
   near the end); the page reports the exponent as measured.

**Paper vs here.** The paper derives the flow for GRPO on LLM reasoning and checks the $J = 0$ boundary
on programming tasks with synthetic verifier noise. Here the bandit *is* the whole model (no language
model), with a few modes and a few hundred steps; the mean field uses the population reward standard
deviation, while the bandit uses each group's own, so at small $G$ the bandit is somewhat faster.

*Citation*: A. Rad, K. Filom, D. Keivan, P. Mohajerin Esfahani, E. Kamalinejad. Rate or Fate?
RLV$^\varepsilon$R: Reinforcement Learning with Verifiable Noisy Rewards. ICML 2026 (arXiv:2601.04411).
"""

SPEC = MethodSpec(
    name="rlvr_noise",
    nav_title="Noisy-verifier RLVR",
    title="RLVR with noisy verifiers: the Youden's J phase transition",
    paper=Paper(
        title="Rate or Fate? RLVεR: Reinforcement Learning with Verifiable Noisy Rewards",
        authors="Ali Rad, Khashayar Filom, Darioush Keivan, Peyman Mohajerin Esfahani, Ehsan Kamalinejad",
        url="https://arxiv.org/abs/2601.04411",
    ),
    summary=(
        "GRPO trained against a verifier with false positives and false negatives, as a bandit over "
        "reasoning modes: the mass on incorrect modes shrinks when Youden's J = TPR - FPR is positive, "
        "drifts at J = 0 and takes over when J < 0. Compare the mean-field flow with finite-sample GRPO."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Learning dynamics",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("reinforcement learning", "RLVR", "GRPO", "phase transition"),
    input_summary=lambda p: f"J in [{min(p.j_values):+.2f}, {max(p.j_values):+.2f}], FPR {p.fpr:g}, "
    f"{p.steps} steps, {p.seeds} seeds, G = {p.group_size}",
)
