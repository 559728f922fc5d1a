"""run(): the CLI keys, the headline ordering (seeded), corpus and model checks, determinism, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from pydantic import ValidationError

from models.common import no_progress
from models.extra_merge import SPEC
from models.extra_merge.corpus import VOCAB, MarkovChain, make_corpus
from models.extra_merge.model import NextTokenMLP, evaluate
from models.extra_merge.params import Params

SMALL = {"steps": 300, "checkpoint_every": 10, "merge_window": 5, "hidden": 32}


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({**SMALL, **overrides}), no_progress)


def test_cli_keys() -> None:
    dumped = _run().model_dump(mode="json")
    for key in ("loss_last", "loss_merged", "loss_extrapolated", "best_beta", "top1_share_raw", "top1_share_merged"):
        assert isinstance(dumped[key], float), key
    assert dumped["best_beta"] in [p["beta"] for p in dumped["betas"]]
    chosen = min(dumped["betas"], key=lambda p: p["val_loss"])
    assert dumped["loss_extrapolated"] == chosen["test_loss"]
    zero = next(p for p in dumped["betas"] if p["beta"] == 0.0)
    assert zero["test_loss"] == pytest.approx(dumped["loss_merged"], abs=1e-6)


def test_same_seed_same_numbers() -> None:
    a, b, c = _run(seed=5), _run(seed=5), _run(seed=6)
    assert a.model_dump(exclude={"seconds_per_step"}) == b.model_dump(exclude={"seconds_per_step"})
    assert a.loss_last != c.loss_last


def test_markov_chain_rows_are_distributions_and_samples_follow_them() -> None:
    rng = np.random.default_rng(0)
    chain = MarkovChain.random(rng)
    assert np.allclose(chain.table.sum(axis=1), 1.0)
    tokens = chain.sample(rng, 400, 400)
    ctx = (tokens[:, :-1][:, 2:] + VOCAB * tokens[:, 1:-2] + VOCAB**2 * tokens[:, :-3]).ravel()
    nxt = tokens[:, 3:].ravel()
    counts = np.bincount(ctx * VOCAB + nxt, minlength=VOCAB**4).reshape(VOCAB**3, VOCAB)
    busiest = counts.sum(axis=1).argmax()
    empirical = counts[busiest] / counts[busiest].sum()
    assert np.abs(empirical - chain.table[busiest]).max() < 0.06
    assert 0 < chain.entropy_rate() < np.log(VOCAB)


def test_uniform_logits_give_log_vocab_loss() -> None:
    corpus = make_corpus(np.random.default_rng(0), train_tokens=2000, eval_tokens=2000)
    model = NextTokenMLP(16)
    flat = torch.zeros(sum(p.numel() for p in model.parameters()))
    loss = evaluate(model, flat, torch.as_tensor(corpus.test_x), torch.as_tensor(corpus.test_y))
    assert loss == pytest.approx(np.log(VOCAB), rel=1e-6)


def test_bounds_and_checkpoint_count_errors() -> None:
    with pytest.raises(ValidationError, match="merge_window 8 needs at least 24"):
        Params(steps=200, checkpoint_every=10, merge_window=8)
    with pytest.raises(ValidationError, match="betas"):
        Params(betas=[50.0])
    with pytest.raises(ValidationError):
        Params(steps=10**6)


def test_progress_is_monotone() -> None:
    seen: list[float] = []
    SPEC.run(Params.model_validate(SMALL), lambda f, m="": seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 10


def test_artifacts_and_figures() -> None:
    result = _run()
    files = result.all_artifacts()
    assert {"result.json", "beta_sweep.csv", "training_curve.csv", "trajectory_pca.csv"} <= set(files)
    assert set(SPEC.figures(result)) == {"trajectory_pca", "loss_vs_beta", "training_curve"}
    for example in SPEC.examples().values():  # type: ignore[union-attr]
        Params.model_validate(example)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_default_run_extrapolated_beats_merged_beats_last(seed: int) -> None:
    result = SPEC.run(Params(seed=seed), no_progress)
    assert result.still_falling
    assert result.loss_extrapolated < result.loss_merged < result.loss_last
    assert result.top1_share_merged > result.top1_share_raw
