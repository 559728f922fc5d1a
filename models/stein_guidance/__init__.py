"""Stein Diffusion Guidance (ICML 2026): training-free guidance corrected by a Stein variational step."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs with their measured time on one core."""
    return {
        "Defaults: 2-D ring, 200 particles, 60 steps, 6 methods (~5 s)": {},
        "Reproduce the paper (3 seeds, 600 particles, ~2 min)": {"seeds": 3, "particles": 600},
        "8-D prior, reward on two coordinates (~8 s)": {"dimension": 8},
        "SDG against DPS only, 7 scales, 400 particles (~10 s)": {
            "methods": ["dps", "sdg", "sdg_no_stein"], "particles": 400,
            "guidance_scales": [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0],
        },
        "Strong Stein step (2 x local posterior variance) (~5 s)": {"stein_step": 2.0},
    }


ABOUT = r"""
**The task.** A prior $p_0$ is a mixture of 8 Gaussians (standard deviation 0.35) on a ring of radius 3,
in 2-D or 8-D; its score at every diffusion time is exact (the VP forward process keeps a mixture a
mixture), so no network is trained. The reward $r(x) = -\tfrac12 |(x_1, x_2) - c|^2$ pulls towards a target
$c$ that sits *outside* the ring, halfway between two modes, where the prior density is below the
99% highest-density threshold. A sample **hits** when $(x_1, x_2)$ is within 0.6 of $c$, and is **on the
manifold** when $\log p_0(x)$ is above the 1% quantile of $\log p_0$ under the prior (computed from
100,000 prior draws). Sampling the tilted law $p_0(x)\,e^{\lambda r(x)}$ exactly would give hits that stay
on the nearby edges of the two modes; the dashed curve is that exact law (self-normalised importance
sampling, no sampler). In 8-D the reward sees only $(x_1, x_2)$; the target point with the six other
coordinates at their mode lies just inside the 99% region there, so the 8-D task is easier.

**Each method** runs the same reverse VP SDE ($\beta$ from 0.1 to 20, Euler-Maruyama from $t=1$ to $10^{-3}$)
with a guided score; $\hat x_0 = (x_t + (1-\bar\alpha_t)s_t(x_t))/\sqrt{\bar\alpha_t}$ is Tweedie's estimate.

1. **DPS**: $s_t + \lambda\nabla_{x_t} r(\hat x_0(x_t))$ (autograd through Tweedie).
2. **SDG, our reading** (the paper's method section and code were not available to us; this follows the
   abstract: a Stein step that lowers the KL between the approximate and the true posterior, plus a running
   cost). (a) Tweedie estimates $\hat x_0^{(i)}$ of all particles; (b) one SVGD step
   $\hat x_0^{(i)} \leftarrow \hat x_0^{(i)} + \eta_t\,\phi(\hat x_0^{(i)})$, RBF kernel with the median
   bandwidth, towards the true posterior of $x_0$ given $x_t$ and the reward, whose score is
   $\sqrt{\bar\alpha}(x_t-\sqrt{\bar\alpha}x_0)/(1-\bar\alpha) + \nabla\log p_0(x_0) + \lambda\nabla r(x_0)$, with
   $\eta_t$ = step x that posterior's local variance $(1/c + \bar\alpha/(1-\bar\alpha))^{-1}$; (c) re-noise: the
   corrected estimate becomes the score $(\sqrt{\bar\alpha}\,\tilde x_0 - x_t)/(1-\bar\alpha)$; (d) plus the
   running-cost term $w\lambda\nabla_{x_t} r(\hat x_0(x_t))$.
3. **Ablations**: without the Stein step (this is exactly DPS at scale $w\lambda$, so SDG against it isolates
   the Stein step at equal guidance scale), without the running cost (Stein step only), a Langevin step
   instead of the Stein step, and the earlier reading whose Stein target is the clean tilted law
   $p_0 e^{\lambda r}$ (it ignores $x_t$).
4. **Judged on** (a) posterior fidelity at every scale: the unbiased energy distance between each method's
   samples and exact draws of $p_0 e^{\lambda r}$, which is a Gaussian mixture in closed form (an exact sampler
   scores about 0), with DPS also tuned for each target $\lambda$ on a grid of its own (7 scales, geometric, from
   a quarter of the smallest target to 4 times the largest, extended past an edge at most twice: the chosen scale
   is never the grid's edge, the tuning table shows it); (b) the on-manifold
   fraction at one common hit rate (default 0.5), where SDG must close half of DPS's gap to the exact posterior
   (the exact posterior closes all of it; the earlier +0.10 margin was above what the exact law allows).

**The paper's setting and what is different here.** The paper guides image diffusion models with
off-the-shelf classifiers and samples small ligands for protein docking; here the prior is an analytic toy,
so the comparison with the exact posterior is possible, and the defaults (200 particles, 60 steps, 5 scales)
finish in a few seconds on one core.

**What we measured (seeds 0-2, 400 particles).** SDG as read here is closer to the exact posterior than DPS at
the same scale (mean energy distance 0.006 against 0.048) and than DPS at its best scale (0.010), but most of
that is the guidance scale: SDG without the Stein step, i.e. DPS at $w\lambda$, is as close or closer (0.005),
so the Stein step's own share does not show, and at the matched hit rate SDG does not close DPS's gap to the
exact posterior (0.842 against DPS 0.845, exact 0.891). The earlier reading with the clean target does best of
all (0.0016; 0.856 at the matched rate). With DPS tuned on the bracketing grid (seed 0, defaults, 200
particles), SDG is not closer than tuned DPS: the difference is +0.0024, 95% interval over the five scales
[-0.0027, +0.0075], a tie on the wrong side, so `fidelity_tuned` does not hold; the earlier "held" came from the
sweep's lower edge (tuned DPS could not go below lambda = 2; it chooses 1.26 for the targets 2 and 4). Every
claim is judged with its interval and against the unguided prior sampler (energy distance about 3.4: it passes
nothing). This is a statement about our reading of SDG on this toy prior, not about the paper's image and
docking experiments; the method section as the paper writes it (its annealed density term and per-particle
Stein target) is not rebuilt here yet.

*Citation:* Stein Diffusion Guidance (SDG). ICML 2026.
"""

SPEC = MethodSpec(
    name="stein_guidance",
    nav_title="Stein guidance",
    title="Stein Diffusion Guidance: training-free guidance that stays on the data manifold",
    paper=Paper(title='Stein Diffusion Guidance: Training-Free Posterior Correction for Sampling Beyond High-Density Regions',
                authors='Van Khoa Nguyen, Lionel Blondé, Alexandros Kalousis',
                url='https://arxiv.org/abs/2507.05482'),
    summary=(
        "Guide a diffusion sampler towards a reward whose target lies in a low-density region. DPS "
        "follows the gradient of the reward at Tweedie's estimate; Stein Diffusion Guidance first corrects "
        "that estimate with a Stein variational step towards the true posterior. Compare how many samples "
        "stay on the data manifold at the same reward hit rate."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Sampling",
    about=ABOUT,
    examples=examples,
    order=2,
    tags=("diffusion models", "guidance", "Stein variational gradient descent"),
    input_summary=lambda p: (
        f"{p.dimension}-D, {p.particles} particles, {p.steps} steps, {len(p.guidance_scales)} scales, "
        f"{len(p.methods)} methods"
    ),
)
