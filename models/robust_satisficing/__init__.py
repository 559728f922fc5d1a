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
    """Named inputs: each data set at the issue's tau = 1.1 x ERM loss, and a looser target."""
    return {
        "Spurious correlations, tau = 1.1 x ERM loss (default, ~10 s)": {},
        "Long-tailed digits, tau = 1.1 x ERM loss (~15 s)": {"dataset": "long_tail"},
        "Diabetes regression, sex = higher kept at 25% (~5 s)": {"dataset": "diabetes"},
        "Spurious correlations, a loose target tau = 2 x ERM loss (~10 s)": {"tau_factor": 2.0},
        "Spurious correlations with a 32-unit hidden layer, 600 epochs (~40 s)": {"hidden": 32, "epochs": 600},
    }


ABOUT = r"""
**Which form is implemented, and why.** The paper's full text was not available to us; we implement the
robust-satisficing criterion with a **Kullback-Leibler ambiguity set**, the form the issue names. Robust
satisficing asks for parameters $\theta$ and the smallest fragility $k \ge 0$ such that
$E_P[\ell_\theta] - \tau \le k\,\mathrm{KL}(P\,\|\,\hat P_n)$ for *every* distribution $P$. By the
Donsker-Varadhan duality, $\sup_P\{E_P[\ell] - k\,\mathrm{KL}(P\|\hat P_n)\} = k\log E_{\hat P_n}[e^{\ell/k}]$, so the
constraint is the **tilted loss** $k \log \frac1n\sum_i e^{\ell_i(\theta)/k} \le \tau$. It decreases in $k$ from
$\max_i \ell_i$ ($k\to0$) to the mean loss ($k\to\infty$); the paper may use another divergence or a
different update, which we could not check.

**IRS, as run here** (one forward and one backward pass per step, both counted):
1. Train ERM (full batch, Adam); its final mean training loss $L$ sets the target $\tau = $ factor $\times L$.
2. Each IRS step: a forward pass gives the per-row losses $\ell_i$.
3. **1-D fragility update**: $k \leftarrow$ the smallest $k$ with $k\log\frac1n\sum_i e^{\ell_i/k} \le \tau$ on those
   losses (a vectorised search over $\log k$; no extra pass). While even the mean loss is above $\tau$ no $k$
   works and the step is an ERM step.
4. **Softmax-weighted gradient step**: $w = \mathrm{softmax}(\ell / k)$ (detached) is the gradient of the tilted
   loss in $\ell$, so one backward pass of $\sum_i w_i \ell_i$ gives the gradient of the tilted loss; Adam steps.
5. Repeat: as the tilted loss falls below $\tau$, the slack lets $k$ shrink, i.e. the model becomes less fragile.

**Baselines** on the same model, initialisation, optimiser and epochs: ERM; group DRO (exponentiated
group weights, step 0.1, groups known in training); tilted ERM with a fixed tilt $t = 2$ ($k = 0.5$); JTT (an
ERM run for 20% of the epochs, its training errors upweighted 6x in a second run).

**Data** (`models.common.tabular`): *spurious*: 2 core and 2 spurious features, the spurious attribute equals
the label 90% of the time, 4 groups (label x attribute), test from the same distribution; *long_tail*:
scikit-learn's digits, class $c$ keeps $0.05^{c/9}$ of its training half, balanced test half, groups = classes;
*diabetes*: regression, the "sex = higher" group kept at 25% in training, groups = sex, MSE in target units$^2$.

**Check (the issue's)**: at $\tau = 1.1\times$ ERM's training loss, worst-group accuracy at least 10 points
above ERM's with average accuracy within 2 points, and one backward pass per step. For diabetes: worst-group
MSE at least 2% below ERM's with the average MSE within 2%.

**Paper vs here.** The paper trains deep networks on long-tailed images, group-shift benchmarks and tabular
regression; here a linear (or one-hidden-layer) model on small tabular data, full-batch, a few hundred steps.

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
    input_summary=lambda p: f"{p.dataset}, tau = {p.tau_factor:g} x ERM, {p.epochs} epochs, seed {p.seed}",
    smoke_params={"dataset": "spurious", "epochs": 10, "tau_sweep": [1.5], "train_size": 200},
)
