"""An LMNet run over seeds: every variant at every label count, then the claims."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence

import numpy as np

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.lmnet.claims import CLAIMS
from models.lmnet.experiment import TEST_WORDS, VARIANTS, SeedOutcome, run_seed
from models.lmnet.nodes import load_nodes
from models.lmnet.params import Params
from models.lmnet.result import LABELS, LabelRow, Result, SeedRow

__all__ = ["MAX_STEPS", "run", "total_steps"]

MAX_STEPS = 40_000  # optimiser steps of one run: variants x label counts x steps x seeds


def total_steps(params: Params) -> int:
    return len(VARIANTS) * len(set(params.labels)) * params.steps * params.seeds


def _gradients_ok(g: dict[str, bool | int]) -> bool:
    return bool(g["edges_nonzero"]) and not g["frozen_nonzero"] and g["frozen_requires_grad"] == 0


FINE_TUNED = ("full", "single", "lora")


def _paired(o: SeedOutcome, n: int, rivals: Sequence[str], note: str, floor_ok: bool = True) -> Measurement:
    """LMNet against the best of `rivals` (by test exact match) at `n` labels, per test word."""
    right = {k: np.asarray(v, dtype=float) for k, v in o.correct[n].items()}
    best = max(rivals, key=lambda k: float(right[k].mean()))
    units = 100.0 * (right["dense"] - right[best])
    wins, losses = int((units > 0).sum()), int((units < 0).sum())
    return Measurement(float(units.mean()), floor_ok=floor_ok, units=units.tolist(),
                       null=float(100.0 * (right["dense_untrained"].mean() - right[best].mean())),
                       note=f"{n} labels; best {best}; {wins} words only LMNet gets right, {losses} only {best}; {note}")


def _claims(outcomes: Sequence[SeedOutcome]) -> dict[str, list[Measurement]]:
    fewest, most = min(outcomes[0].scores), max(outcomes[0].scores)
    efficiency, text, gradients = [], [], []
    for o in outcomes:
        # the measured training times are in the label-count table, not in the claim: a claim's text must be the
        # same on every run of the same seed (reproduce.py and the Ray/embedded check compare it)
        efficiency.append(_paired(o, fewest, FINE_TUNED, "training CPU per variant in the table",
                                  o.scores[fewest]["dense"] > 0))
        text.append(_paired(o, most, ("text", "text_untrained"), f"text untrained {100 * o.text_untrained[most]:.1f}%"))
        gradients.append(Measurement(1.0 if _gradients_ok(o.gradients) else 0.0))
    return {"efficiency": efficiency, "text": text, "gradients": gradients}


def _rows(outcomes: Sequence[SeedOutcome]) -> list[LabelRow]:
    rows = []
    for n in sorted(outcomes[0].scores):
        values = {v: [o.scores[n][v] for o in outcomes] for v in VARIANTS}
        rows.append(LabelRow(labels=n, mean={v: statistics.fmean(x) for v, x in values.items()},
                             sd={v: statistics.stdev(x) if len(x) > 1 else 0.0 for v, x in values.items()},
                             text_untrained=statistics.fmean(o.text_untrained[n] for o in outcomes)))
    return rows


def _counts_won(outcomes: Sequence[SeedOutcome], rivals: Sequence[str]) -> list[int]:
    """Label counts at which LMNet scores above every one of `rivals` on every seed."""
    return [n for n in sorted(outcomes[0].scores)
            if all(o.scores[n]["dense"] > max(o.scores[n][v] for v in rivals) for o in outcomes)]


def _standing(outcomes: Sequence[SeedOutcome]) -> Standing:
    """Every variant on the paper's quantity, exact match from the fewest labels (mean over seeds, %)."""
    fewest = min(outcomes[0].scores)
    return Standing(metric=f"test exact match from {fewest} labels (%)", lower_is_better=False, method="dense",
                    seed_scores={v: [100 * o.scores[fewest][v] for o in outcomes] for v in VARIANTS},
                    unit_scores={v: [[100.0 * c for c in o.correct[fewest][v]] for o in outcomes] for v in VARIANTS},
                    labels=dict(LABELS))


def run(params: Params, progress: Progress) -> Result:
    steps = total_steps(params)
    if steps > MAX_STEPS:
        raise MethodInputError(f"steps x label counts x seeds: {steps} optimiser steps ({len(VARIANTS)} variants x "
                               f"{len(set(params.labels))} counts x {params.steps} steps x {params.seeds} seeds) is "
                               f"above the limit {MAX_STEPS}")
    start = time.perf_counter()
    report = MonotoneProgress(progress)
    device = torch_device()
    nodes = load_nodes(device)
    seeds = seed_values(params.seed, params.seeds)
    outcomes = run_seeds(seeds, lambda seed, stage: run_seed(
        seed, params.labels, steps=params.steps, mark_probability=params.mark_probability, nodes=nodes,
        device=device, progress=MonotoneProgress(stage)), report)
    report(1.0, "done")
    last = outcomes[-1]
    frozen = sum(p.numel() for node in nodes.values() for p in node.parameters())
    return Result(
        claims=evaluate_claims(CLAIMS, _claims(outcomes), seeds), standing=_standing(outcomes),
        variants=list(VARIANTS), rows=_rows(outcomes),
        dense_beats_fine_tuning=_counts_won(outcomes, FINE_TUNED), dense_beats_text=_counts_won(outcomes, ("text",)),
        per_seed=[SeedRow(seed=o.seed, labels=n, scores=o.scores[n], text_untrained=o.text_untrained[n],
                          train_seconds=o.train_seconds[n])
                  for o in outcomes for n in sorted(o.scores)],
        gradients={k: int(v) for k, v in last.gradients.items()}, trainable_parameters=last.parameters,
        lora_rank=last.lora_rank, frozen_parameters=frozen,
        text_ceiling=statistics.fmean(o.text_ceiling for o in outcomes), test_words=TEST_WORDS, steps=params.steps,
        mark_probability=params.mark_probability, seeds_run=seeds, device=device,
        seconds=time.perf_counter() - start)
