"""LMNet: frozen pre-trained language models as vertices, trainable dense seq2seq edges (paper 18)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.lmnet.figures import figures
from models.lmnet.params import Params
from models.lmnet.result import Result
from models.lmnet.run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs; times are on one core of the shared machine."""
    return {
        "Default: 50 and 200 labels (~25 s)": {},
        "Another seed (~25 s)": {"seed": 1},
        "Label sweep 25 to 400 (~60 s)": {"labels": [25, 50, 100, 200, 400]},
        "Only 200 labels, 40 epochs (~30 s)": {"labels": [200], "epochs": 40},
    }


ABOUT = r"""
**LMNet** treats pre-trained language models as reusable *vertices* of a network. Instead of passing
text between them, it strips each model's embedding and unembedding inside the network and connects
the models by small trainable seq2seq *edges* that pass dense vectors; text appears only at the
boundary. The whole network is differentiable, so the edges are trained from the end task alone.

1. **Synthetic languages** (generated in code): words of 6 letters over 8 base letters `a..h`, each
   letter *marked* (`A..H`) with probability 0.2.
2. **Pre-trained nodes** (`scripts/train_lmnet.py`, shipped under `static/weights/lmnet/`): two tiny
   character-level transformers (2 blocks, width 32, 26,834 parameters each, one output character per
   input position, greedy decoding = argmax per position). Node A *translates* (a fixed letter
   permutation pi; its output language has no marks); node B *reverses* a word and applies another
   permutation rho, keeping marks. Both reach 100% exact match on their own tasks.
3. **Composed task**: word -> rho(pi(letter)) on the reversed word, marks kept. It needs A's
   translation, B's reversal, and the marks that A's *text* drops.
4. **Dense network (LMNet)**: text -> A's embedding and blocks (frozen) -> edge (a linear map and one
   bidirectional transformer block, identity at initialisation, trainable) -> B's blocks (frozen; token
   embedding stripped, position embedding kept) -> B's unembedding -> text.
5. **Text pipeline**: A decodes greedily to text; B re-embeds it; an edge of the same shape between B's
   embedding and blocks is trained (no gradient crosses the argmax, so nothing before it can be).
6. **Single model**: a copy of node B with all its weights fine-tuned.
7. Each variant is trained with Adam (batches of 32, `epochs` passes) on `labels` labelled words and
   scored by exact match (whole word right) on 500 fresh test words. The gradient check backpropagates
   the trained dense network's loss (tokens in) and checks that every edge tensor gets a nonzero
   gradient and no frozen-node tensor gets any (none has `requires_grad`).

**The paper's setting** is LLMs as vertices on real language tasks. **Here** the nodes are tiny
character models on synthetic languages, with two nodes and one interior edge, so a run takes seconds
on one core. The task is built so that the intermediate text is lossy (it has no marks): this makes
the paper's argument concrete (dense vectors carry what de-embedding to text throws away) but it is
our construction, so the size of the gap reflects it: a text interface can get at most the share of
test words without marks right (shown as the text ceiling). The text pipeline's edge also overfits the
few labels and often ends below that ceiling. The single fine-tuned model only has to learn a letter
substitution on top of B and is strong here; the paper's claim checked is dense vs text at 200 labels
(at least 10 points) and the gradient flow.

*Citation*: LMNet: dense differentiable language-model networks (paper 18 of the reading list).
"""

SPEC = MethodSpec(
    name="lmnet",
    nav_title="LMNet",
    title="LMNet: pre-trained models as nodes, dense trainable edges",
    paper=Paper(title='Language Model Networks: Supervision-Efficient Learning through Dense Communication',
                authors='Shiguang Wu, Yaqing Wang, Quanming Yao',
                url='https://arxiv.org/abs/2505.12741'),
    summary=(
        "Two tiny pre-trained character transformers are frozen and wired together by a small trainable edge "
        "that passes dense vectors; compare it with a text pipeline (greedy decoding between the models) and a "
        "single fine-tuned model on a composed task, over label counts, and check where gradients flow."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Model composition",
    about=ABOUT,
    examples=examples,
    tags=("model composition", "language models", "transformers"),
    input_summary=lambda p: f"labels {', '.join(map(str, p.labels))}, {p.epochs} epochs, seed {p.seed}",
    smoke_params={"labels": [10], "epochs": 1},
)
