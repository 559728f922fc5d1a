"""Selective MoE upcycling for continual learning: a CKA-guided bilevel search over (layer, expert) blocks (paper 1)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.moe_upcycling.figures import figures
from models.moe_upcycling.params import Params
from models.moe_upcycling.result import Result
from models.moe_upcycling.run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs; times are on one core of the shared machine."""
    return {
        "Default: 5 tasks, 4 experts, 1 seed (~20 s)": {},
        "Reproduce the paper (3 seeds, ~50 s)": {"seeds": 3, "seed": 0},
        "Weaker parameter penalty, lambda = 0.3 (~20 s)": {"param_penalty": 0.3},
        "Strong parameter penalty, lambda = 10: keeps no expert (~20 s)": {"param_penalty": 10.0},
        "No CKA penalty (~20 s)": {"cka_weight": 0.0},
        "Two experts per layer (~15 s)": {"experts": 2},
        "Longer training: 15 epochs per task (~50 s)": {"epochs_per_task": 15},
    }


ABOUT = r"""
**Upcycling** turns a trained feed-forward block into a mixture of experts by copying it; in continual
learning the copies give new tasks room without overwriting the old weights. The paper asks which
blocks deserve copies: measured with linear CKA, deep layers drift most when a new task is trained, and
experts differ in how sensitive they are, so copying every block wastes parameters.

1. **Backbone**: stem (64 → d) and L residual blocks $h \leftarrow h + \mathrm{FFN}_l(h)$, one 10-way head
   (class-incremental: no task id at test time). Trained on task 1 like a pre-trained model.
2. **CKA drift**: after each new task, linear CKA
   $\|Y^\top X\|_F^2 / (\|X^\top X\|_F \|Y^\top Y\|_F)$ between each block's outputs before ($X$) and after
   ($Y$) on the earlier tasks' test inputs; drift = 1 − CKA.
3. **Full upcycling**: when task 2 arrives every block becomes E experts (the frozen original and E − 1
   trainable copies) with a zero-initialised router, so the model's function is unchanged at that moment.
4. **Selective upcycling (bilevel)**: *CKA guidance*: a throw-away copy is fine-tuned for one pass on the
   new task; the blocks whose drift 1 − CKA (on the replay buffer's old inputs) is at least the mean are
   the candidates. *Outer loop*: a keep-logit $a_{l,e}$ per candidate copy, relaxed masks
   $m = \sigma((a + \log u - \log(1-u))/\tau)$ (Gumbel-Softmax) with τ annealed from 1 to 0.05, five Adam
   steps per inner step on the held-out loss (new task + replay) + λ · expected added parameters / full
   upcycling's. *Inner loop*: the weights on task loss + replay loss + $w_{CKA}(1 - \overline{\mathrm{CKA}})$.
   The search runs through all of task 2's epochs; blocks with $\sigma(a) > 1/2$ are kept, the rest deleted
   (a layer with none kept stays a dense, trainable block). Its cost (outer steps, seconds) is in the metrics.
5. **Baselines** on the same stream, initial weights and batches: naive fine-tuning, replay only (reservoir
   buffer), LwF (distillation of the old classes' logits, Avalanche's definition), full upcycling (+ replay).
6. **Metrics** (Avalanche/GEM definitions) from R[i, j], the accuracy on task j after task i:
   average accuracy $\frac1T\sum_j R_{T,j}$, forgetting $\frac1{T-1}\sum_{j<T}(R_{j,j} - R_{T,j})$.

**Claims** (table above): parameters ≤ 40% of full upcycling's (the abstract's "60% removed"), with a sanity
floor: at least one expert kept and a search that decided; average accuracy ≥ full's (1 point of slack);
forgetting ≤ 20% of naive's ("80% reduction"); the standing puts every learner on average accuracy.

**What we found** (seeds 0 to 2, defaults): the annealed search decides (every keep probability within
0.01 of 0 or 1, 210 outer steps, about 2 s of CPU on top of the training) and the CKA probe puts the most
drift in the deepest block (the paper's deep-layer instability), which becomes the only candidate. At λ = 1
the search keeps one copy on seed 0 (11% of full upcycling's added parameters) and none on seeds 1 and 2,
where the parameter and accuracy claims are refused by the floor: at this scale the held-out loss does
not pay for an expert. Forgetting is 1% to 11% of naive's on every seed (the 80% reduction holds), but
replay alone already forgets only 7 to 9 points against naive's 97 to 99; the selective learner's mean
accuracy (91.2%) is the best of the five, partly through its CKA penalty, which also helps where no
expert was kept. LwF forgets almost as much as naive in this class-incremental setting, as in the
literature. With the stem frozen after upcycling (the earlier version), full upcycling trailed replay by
2 to 7 points; it is now trainable, and full upcycling is within 2 points of replay.

**The paper's setting** is LLMs on the TRACE benchmark (eight text tasks), upcycling transformer FFNs. Here: a
residual MLP on scikit-learn's 8 × 8 digits, dense soft routing, a 200-example replay buffer, one search when
the second task arrives (the paper grows at every task), a few epochs per task.

*Citation*: Selective MoE upcycling for continual learning (CKA-guided bilevel NAS). ICML 2026.
"""

SPEC = MethodSpec(
    name="moe_upcycling",
    nav_title="Selective upcycling",
    title="Selective MoE upcycling for continual learning",
    # The authors are not listed on the ICML 2026 poster page we could read; the link names the paper.
    paper=Paper(title="Efficient Bilevel Optimization for CKA-Guided MoE Upcycling",
                authors="Authors as listed at the link", url="https://icml.cc/virtual/2026/poster/64571"),
    summary=(
        "Copying feed-forward blocks into experts protects old tasks but adds many parameters. A "
        "Gumbel-Softmax search penalised by parameter count picks which (layer, expert) blocks to copy, "
        "while a CKA penalty keeps old representations stable; compare it with naive fine-tuning, "
        "replay, LwF and full upcycling on a class-incremental digit stream, over seeds."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Continual learning",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("continual learning", "mixture of experts", "neural architecture search"),
    input_summary=lambda p: (f"{p.tasks} tasks, {p.epochs_per_task} epochs, E = {p.experts}, λ = {p.param_penalty:g}, "
                             f"seeds {p.seed}..{p.seed + p.seeds - 1}"),
    smoke_params={"seeds": 1, "tasks": 2, "epochs_per_task": 1, "layers": 2, "width": 16, "experts": 2,
                  "buffer_size": 20},
)
