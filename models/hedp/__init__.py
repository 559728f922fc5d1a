"""HEDP: hybrid energy-distance prompts for domain-incremental learning (paper 10)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.hedp.figures import figures
from models.hedp.params import Params
from models.hedp.result import Result
from models.hedp.run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs; times are on one core of the shared machine."""
    return {
        "Default: energy band 0.1, equal fusion (~10 s)": {},
        "Another seed (~10 s)": {"seed": 1},
        "Strong energy band, weight 1 (~10 s)": {"energy_weight": 1.0},
        "Fusion leaning on energy, w = 0.8 (~10 s)": {"fusion_weight": 0.8},
        "Longer prompt training, 100 epochs (~30 s)": {"epochs": 100},
    }


ABOUT = r"""
**Domain-incremental learning**: the same ten classes arrive in a sequence of domains; at test time the
domain is not given. Prompt methods keep a frozen backbone and learn one small prompt per domain; the
hard part is choosing the prompt for a test input. HEDP fuses two cues to choose, and regularises the
prompts' free energy so the energy cue can be trusted.

1. **Backbone**: fixed random ReLU features $f(x) = \mathrm{ReLU}(Wx + b)$ (256 wide), drawn once, never trained.
2. **Prompts**: domain $d$ gets an input offset $p_d$ and a linear head $h_d$; logits$_d(x) = h_d(f(x + p_d))$.
   Domains are trained in order, each touching only its own prompt.
3. **Energy** $E_d(x) = -\log\sum_c e^{\text{logit}_{d,c}(x)}$; the **energy regulariser** adds
   $\lambda\,\mathrm{mean}(\mathrm{relu}(E - m_{high})^2 + \mathrm{relu}(m_{low} - E)^2)$ to the cross-entropy,
   keeping in-domain energies in the band $[m_{low}, m_{high}]$ (default [−10, −6]).
4. **Distance** $D_d(x) = \|f(x) - \mu_d\|^2$ to the mean training feature of domain $d$.
5. **Hybrid selection**: standardise each cue by its domain's own training statistics,
   $s_d = -(w z_E + (1 - w) z_D)$, weights $\pi = \mathrm{softmax}(s / T)$; the chosen domain is
   $\arg\max \pi$ and the prediction is $\sum_d \pi_d\,\mathrm{softmax}(\text{logits}_d)$.
   *Energy only* and *distance only* are $w = 1$ and $w = 0$ of the same rule; *nearest centroid*
   (S-Prompts) picks the domain of the nearest of 5 k-means centres per domain and uses that prompt alone.
6. Everything is trained twice, with and without the energy band, on the same data, initial prompts and
   batches, so the energy histograms show what the band changes.

**The paper's setting**: a pre-trained ViT with prompt tuning on CORe50, DomainNet and similar benchmarks,
reporting a 2.57-point gain on unseen domains. **Here**: scikit-learn's 8 × 8 digits in four seen domains
(clean, inverted, rotated 90°, noisy; disjoint training images) and one unseen (blurred), a random-feature
backbone instead of a ViT, an offset-plus-head prompt. The checks: hybrid selection is at least as
accurate as the better single cue, and unseen-domain accuracy is at least nearest-centroid's.

*Citation*: HEDP: Hybrid Energy-Distance Prompts for domain-incremental learning. ICML 2026.
Code: https://github.com/dannis97500/HEDP
"""

SPEC = MethodSpec(
    name="hedp",
    nav_title="HEDP prompts",
    title="HEDP: hybrid energy-distance prompts for domain-incremental learning",
    paper=Paper(
        title="HEDP: A Hybrid Energy-Distance Prompt-based Framework for Domain Incremental Learning",
        authors="Yu Feng, Zhen Tian, Haoran Luo, Xie Yu, Diancheng Cheng, Haoyue Zheng, Shuai Lyu, Ping Zong, "
                "Lianyuan Li, Xin Ge, Yifan Zhu",
        url="https://arxiv.org/abs/2605.05776",
        code_url="https://github.com/dannis97500/HEDP",
    ),
    summary=(
        "One prompt per domain on a frozen backbone; at test time the prompt is chosen by fusing the "
        "prompts' free energy with the distance to each domain's centroid. Compare the hybrid with "
        "energy only, distance only and nearest-centroid selection on four seen digit domains and one unseen."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Continual learning",
    about=ABOUT,
    examples=examples,
    order=3,
    tags=("continual learning", "prompt learning", "energy-based models"),
    input_summary=lambda p: f"{p.epochs} epochs, energy weight {p.energy_weight}, w = {p.fusion_weight}, seed {p.seed}",
)
