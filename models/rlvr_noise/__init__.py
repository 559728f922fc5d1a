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
    """Named inputs: the default sweep, the paper's check over 3 seeds, a noisier verifier, small groups."""
    return {
        "Sweep of J at FPR = 0.3, G = 64 (default, 3 seeds, ~15 s)": {},
        "Reproduce the paper (3 seeds, 64 GRPO runs per J, ~40 s)": {"seeds": 3, "bandit_seeds": 64},
        "Two correct modes nearly tied: shares 0.55 / 0.45, m = 2 (~10 s)": {
            "modes_per_class": 2, "favoured_share": 0.55, "seeds": 1,
        },
        "Almost-random verifier: J in [-0.1, 0.1], FPR = 0.45 (~25 s)": {
            "j_values": [-0.1, -0.05, 0.0, 0.05, 0.1], "fpr": 0.45, "steps": 2400, "phase_grid": 7, "seeds": 1,
        },
        "Small groups and big steps: G = 8, learning rate 1, off the mean-field limit (~5 s)": {
            "group_size": 8, "learning_rate": 1.0, "steps": 400, "seeds": 1,
        },
    }


ABOUT = r"""
**Model** (Rad et al.). A prompt has $m$ correct and $m$ incorrect *reasoning modes*; the policy is a
softmax over $2m$ logits. A noisy verifier rewards a correct sample with probability
$\mathrm{TPR} = 1 - \mathrm{FNR}$ and an incorrect one with probability $\mathrm{FPR}$; Youden's index is
$J = \mathrm{TPR} - \mathrm{FPR}$.

1. **GRPO bandit** (finite samples, vectorised over runs): draw a group of $G$ modes from the policy,
   draw the verifier's rewards, standardise them inside the group, $A_i = (r_i - \bar r)/\mathrm{std}(r)$
   ($A = 0$ when all rewards agree), and take the policy-gradient step
   $\theta \mathrel{+}= \eta\,\frac1G\sum_i A_i\,(e_{a_i} - \pi)$.
2. **Mean field**: the expected step (population reward standard deviation $\sigma = \sqrt{q(1-q)}$ at success
   rate $q$), iterated step by step. With the modes of a class equally likely it moves the logit gap by
   $-2\eta J\,x(1-x)/(m\,\sigma(x))$, $q(x) = (1-x)\mathrm{TPR} + x\,\mathrm{FPR}$; its continuous limit is
   $\dot x = -2\eta J\,x^2(1-x)^2/(m\,\sigma(x))$, whose drift has the sign of $-J$.
3. **Rate law** (the paper's "rate, not fate"): for $J > 0$ the time from $x_0$ to $0.05$ is
   $t = \frac{m}{2\eta J}\int_{0.05}^{x_0} \frac{\sigma(x)}{x^2(1-x)^2}\,dx$, proportional to $\sigma/J$; noise changes
   how long learning takes, not where it ends. Each hitting time (mean field, and the mean of the GRPO runs)
   is compared with this integral (quadrature).
4. **Neutral drift at $J = 0$**: rewards no longer depend on the mode, so $E[\Delta\theta] = 0$ and, exactly,
   $\mathrm{Cov}[\Delta\theta] = \frac{\eta^2\kappa}{G}(\mathrm{diag}\,\pi - \pi\pi^\top)$ with
   $\kappa = 1 - p^G - (1-p)^G$ ($p = \mathrm{TPR} = \mathrm{FPR}$). The diffusion limit gives the mass a per-step
   variance $D = \nabla x^\top \mathrm{Cov}\,\nabla x$ and a second-order drift $b$: $\mathrm{Var}[x_t] \approx t\,D(x_0)$
   while the spread is small. 1,024 GRPO runs at $J = 0$ measure it until the predicted standard deviation
   reaches $0.1\,x_0(1-x_0)$.
5. **Phase diagram**: the GRPO bandit (8 runs per cell, half the steps) on an (FPR, FNR) grid; the line
   FPR + FNR = 1 is $J = 0$. Off the line the mass must move with the sign of $-J$; on it, stay put.
6. **Within-correct-mode competition** (the paper's decoupling; project page "Diversity collapse"): the correct
   class starts with unequal shares $s$ (default 0.6 for the favoured mode, the rest split evenly). The expected step moves logit $k$ by
   $\eta\,\pi_k (r_k - q)/\sigma$, so inside the correct class $\log(s_i/s_j)$ grows by
   $\eta J x(1-x)(s_i - s_j)/\sigma$ per step: a replicator whose fitness is the share itself, and the favoured
   mode takes the class (claim `winner`, against the same runs at $J = 0$). The incorrect mass obeys
   $\dot x = -\eta J x^2(1-x)^2 (H_{bad} + H_{good})/\sigma(x)$, $H$ the Herfindahl index $\sum_k s_k^2$ inside
   each class: the one-dimensional law of step 2 run on the *concentration clock*
   $\tau = \sum_t \frac m2 (H_{bad} + H_{good})$ ($\tau = t$ for equal shares). So the outer flow sees the inner
   competition only through that clock (claim `decoupling`: the GRPO runs' $\tau$ at mass 0.05 against the
   rate law; its null reads the same law on the step clock, 30-50% off). The mean-field identity is checked
   separately (`decoupling_mean_field`, not a headline).

**Claims** (the abstract gives no figures): the sign of the drift in the J sweep and on the grid, each bandit
hitting time within 15% of the rate law, the $J = 0$ variance within 15% of $t\,D$, the decoupling and the
winner. The mean-field map against its own continuous limit (`rate_mean_field`) is a numerical check, not a
headline: it compares the map with its own ODE. Every claim is measured on each seed (a seed is a full repeat:
new GRPO runs, grid, $J = 0$ and competition runs) and carries a trivial reference (an untrained policy, a
J-blind hitting time, no diffusion, the step clock, the $J = 0$ runs).

**Paper vs here.** The paper derives the flow for GRPO on LLM reasoning and checks the $J = 0$ boundary
on programming tasks with synthetic verifier noise; here the bandit *is* the whole model (no language
model, no KL term to a reference policy, no Wright-Fisher picture). The rate law is the
mean-field limit: large groups and small steps (defaults $G = 64$, $\eta = 0.25$). Off that limit the bandit
departs from it, and the page shows by how much (example "Small groups and big steps"): at $G = 8$, $\eta = 1$
the bandit reaches 0.05 a third to 40% sooner than the law at $J = 0.15$ (the sampling noise itself pushes
the mass) and 30-50% later at $J = 0.7$, where $\mathrm{TPR} = 1$ and more and more groups are all-correct
and carry no advantage; the $J = 0$ variance then exceeds $t\,D$ by about a quarter (steps too large for
the diffusion limit).

**What we found on the competition** (held-out seeds 71-73, "Reproduce"; 64 runs each, J = 0.5, shares 0.6 / 0.13
/ 0.13 / 0.13): the GRPO runs reach mass 0.05 after 93 steps against the rate law's 176, i.e. 47% sooner on the
step clock, but at tau = 179, +1.5% (interval -0.4% to +2.8%) on the concentration clock; the favoured mode ends
with 0.994 of the correct class against 0.59 for the same runs at J = 0. The decoupling holds as a change of
clock, not as the equal-split law verbatim: the inner competition speeds the outer flow.

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
    f"{p.steps} steps, G = {p.group_size}, {p.bandit_seeds} runs per J, {p.seeds} seeds",
    smoke_params={"steps": 40, "bandit_seeds": 4, "phase_grid": 5, "j_values": [-0.3, 0.0, 0.2, 0.4], "seeds": 1},
)
