"""Iterative robust satisficing (KL form) against ERM, group DRO, tilted ERM and JTT on three shifted data sets."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs: the default, the paper's reproduction over 3 seeds, the other data sets, a tau sweep."""
    return {
        "Waterbirds-like group shift, 32-unit network (default, ~20 s)": {},
        "Reproduce the paper (3 seeds, Waterbirds-like, ~20 s)": {"seeds": 3},
        "Waterbirds-like, tau sweep 0.8 to 1.5 x ERM validation loss (~30 s)": {"tau_sweep": [0.8, 0.9, 1.2, 1.5]},
        "Linear spurious correlations, linear model, 3 seeds (~30 s)": {"dataset": "spurious", "hidden": 0,
                                                                         "learning_rate": 0.05, "seeds": 3},
        "Long-tailed digits, 32-unit network (~30 s)": {"dataset": "long_tail"},
        "Diabetes regression, sex = higher kept at 25% (~15 s)": {"dataset": "diabetes", "hidden": 0,
                                                                  "learning_rate": 0.05},
    }


ABOUT = r"""
**Which form is implemented, and why.** The paper's full text was not available to us; we implement the
robust-satisficing criterion with a **Kullback-Leibler ambiguity set**, the classic robust-satisficing form. Robust
satisficing asks for parameters $\theta$ and the smallest fragility $k \ge 0$ such that
$E_P[\ell_\theta] - \tau \le k\,\mathrm{KL}(P\,\|\,\hat P_n)$ for *every* distribution $P$. By the
Donsker-Varadhan duality, $\sup_P\{E_P[\ell] - k\,\mathrm{KL}(P\|\hat P_n)\} = k\log E_{\hat P_n}[e^{\ell/k}]$, so the
constraint is the **tilted loss** $k \log \frac1n\sum_i e^{\ell_i(\theta)/k} \le \tau$. It decreases in $k$ from
$\max_i \ell_i$ ($k\to0$) to the mean loss ($k\to\infty$); the paper may use another divergence or a
different update, which we could not check.

**IRS, as run here** (one forward and one backward pass per step, both counted):
1. Train ERM (full batch, Adam); **the target rule** (our reading of the paper's: $\tau$ is the in-distribution
   performance to attain; its exact rule is in the full text we could not read): ERM's loss on the in-distribution *validation* split (times a factor, 1 by default). The
   training loss of a network is far below it, so the constraint leaves room to trade loss for robustness
   (a target set from the training loss is met trivially by an interpolating model: k -> 0, IRS = ERM).
2. Each IRS step: a forward pass gives the per-row losses $\ell_i$.
3. **1-D fragility update**: $k \leftarrow$ the smallest $k$ with $k\log\frac1n\sum_i e^{\ell_i/k} \le \tau$ on those
   losses (a vectorised search over $\log k$; no extra pass). While even the mean loss is above $\tau$ no $k$
   works and the step is an ERM step.
4. **Softmax-weighted gradient step**: $w = \mathrm{softmax}(\ell / k)$ (detached) is the gradient of the tilted
   loss in $\ell$, so one backward pass of $\sum_i w_i \ell_i$ gives the gradient of the tilted loss; Adam steps.

**Baselines**, same model, initialisation, optimiser and epochs, **each tuned on validation the same way**
(a grid of its own knob, the setting with the best worst-group *validation* accuracy is reported, the JTT and
group-DRO model-selection protocol): group DRO (step $\eta \in \{0.01, 0.1, 1\}$, uses the training group
labels, which IRS, JTT and tilted ERM do not), tilted ERM (tilt $t \in \{0.5, 2, 8\}$), JTT (an ERM run for
20% of the epochs, its errors upweighted $\lambda \in \{3, 10, 30\}$). IRS is not tuned: its $\tau$ follows the rule.
The standing (which method scores best) is over the methods without training group labels.

**Data** (`models.common.tabular`): *waterbirds* (default): the label is the ring a 2-D core point lies on
(radius 1 or 2, noise 0.4; no linear read-out), a 2-D linear spurious cue (signal 2) agrees with the label in 95% of
training rows (minority groups $a \ne y$ hold 5%), 4 noise columns; validation from the training
distribution; test groups balanced. *spurious*: linear core and cue, 90%. *long_tail*: digits, class $c$ keeps
$0.05^{c/9}$. *diabetes*: regression, sex = higher kept at 25% (the accuracy claims are not measured on it).
**Degradation under shift**: the test groups' accuracies mixed with the training group shares, minus the same
mixed with the shifted shares (spurious attribute reversed; classes balanced for long_tail).

**Paper vs here.** The paper trains deep networks on long-tailed images, group-shift benchmarks and tabular
regression; here a linear (or one-hidden-layer) model on small tabular data, full-batch, a few hundred steps.

**What we found** (seeds 0-2, defaults). Waterbirds-like: IRS's worst group 42.7 / 53.1 / 48.2% against ERM's
33.8 / 48.8 / 54.3% (+8.9, +4.3, -6.1 points: better on 2 of 3 seeds), average within 1 point on 2 of 3, smaller
drop under shift on 2 of 3. JTT tuned on validation is the best label-free method (52.4% mean worst group
against IRS's 48.0%). Group DRO: until issue 42 a bug passed the iteration index in place of its step eta
(every eta gave the same model, far below ERM); with eta used it is the best or tied-best method. Linear spurious set, linear
model: IRS = ERM within 0.2 points (the tilt lands on ambiguous points of every group). Long-tailed digits,
one seed: worst class 39.1% vs ERM 29.9%.

*Citation*: Iterative Robust Satisficing (IRS). ICML 2026. Baselines: Sagawa et al., Distributionally Robust
Neural Networks, ICLR 2020; Li et al., Tilted Empirical Risk Minimization, ICLR 2021; Liu et al., Just Train
Twice, ICML 2021.
"""

SPEC = MethodSpec(
    name="robust_satisficing",
    nav_title="Robust satisficing (IRS)",
    title="Iterative robust satisficing: reach a target loss while minimising fragility",
    paper=Paper(title='Iterative Robust Satisficing: Minimizing Performance Degradation Under Distribution Shift',
                authors='Authors as listed at the link',
                url='https://icml.cc/virtual/2026/poster/64578'),
    summary=(
        "Attain a target training loss tau while making the model as little fragile as possible to distribution "
        "shift: with a KL ambiguity set the constraint is a tilted loss, and IRS alternates a 1-D update of the "
        "fragility k with one softmax-weighted gradient step. Compared per group with ERM, group DRO, tilted ERM "
        "and JTT."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Robust and faithful learning",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("distribution shift", "robust optimisation", "worst-group accuracy"),
    input_summary=lambda p: (f"{p.dataset}, tau = {p.tau_factor:g} x ERM validation loss, {p.epochs} epochs, "
                             f"{p.seeds} seed(s) from {p.seed}"),
    smoke_params={"dataset": "waterbirds", "epochs": 10, "tau_sweep": [1.5], "train_size": 200, "seeds": 1},
)
