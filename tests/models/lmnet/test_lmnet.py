"""LMNet: languages, shipped nodes, gradient flow, determinism, bounds and the headline claim."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from models.common.contract import MethodInputError, no_progress
from models.lmnet.languages import (
    BASE,
    WORD_LENGTH,
    composed_target,
    random_words,
    reverser_target,
    translator_target,
)
from models.lmnet.network import (
    DenseNetwork,
    Edge,
    LoRAModel,
    TextPipeline,
    gradient_report,
    lora_rank_matching,
)
from models.lmnet.nodes import NODE_TASKS, VOCAB
from models.lmnet.params import Params
from models.lmnet.run import run


def test_composed_task_is_the_composition_of_the_node_tasks_on_unmarked_words():
    words = random_words(200, np.random.default_rng(0), mark_probability=0.0)
    for w in words:
        assert composed_target(w) == reverser_target(translator_target(w))
    # each output letter of A depends on the letter before it: changing letter 0 changes output letter 1
    assert any(translator_target("a" + w[1:])[1] != translator_target("b" + w[1:])[1] for w in words)
    marked = random_words(200, np.random.default_rng(1), mark_probability=1.0)
    assert all(ch not in BASE for w in marked for ch in composed_target(w))  # marks kept
    assert all(ch in BASE for w in marked for ch in translator_target(w))  # A's text drops them


@pytest.mark.parametrize("task", list(NODE_TASKS))
def test_shipped_nodes_solve_their_pretraining_tasks(nodes, task):
    words = random_words(300, np.random.default_rng(5))
    with torch.no_grad():
        pred = nodes[task](VOCAB.encode(words, WORD_LENGTH)).argmax(-1)
    truth = VOCAB.encode([NODE_TASKS[task](w) for w in words], WORD_LENGTH)
    assert float((pred == truth).all(dim=1).float().mean()) > 0.99


def test_edge_is_identity_at_initialisation():
    h = torch.randn(3, WORD_LENGTH, 32)
    assert torch.allclose(Edge()(h), h)


def test_gradients_reach_the_edge_through_frozen_node_and_not_the_nodes(nodes):
    a, b = nodes["translator"], nodes["reverser"]
    net = DenseNetwork(a, b, seed=0)
    words = random_words(16, np.random.default_rng(2))
    x = VOCAB.encode(words, WORD_LENGTH)
    y = VOCAB.encode([composed_target(w) for w in words], WORD_LENGTH)
    # Move the zero-initialised output layers off zero so every edge tensor is on a gradient path.
    with torch.no_grad():
        for p in net.edge.parameters():
            p.add_(0.01 * torch.randn(p.shape, generator=torch.Generator().manual_seed(0)))
    report = gradient_report(net, F.cross_entropy(net(x).flatten(0, 1), y.flatten()))
    assert report["edges_nonzero"] is True
    assert report["frozen_nonzero"] is False
    assert report["frozen_requires_grad"] == 0
    assert all(p.grad is None for p in list(a.parameters()) + list(b.parameters()))


def _node_a_gets_a_gradient(build, nodes) -> bool:
    """Whether the end-task loss of `build(A, B)` reaches node A, with A's weights made trainable."""
    import copy

    a = copy.deepcopy(nodes["translator"])
    for p in a.parameters():
        p.requires_grad_(True)
    net = build(a, nodes["reverser"])
    words = random_words(8, np.random.default_rng(3))
    x, y = VOCAB.encode(words, WORD_LENGTH), VOCAB.encode([composed_target(w) for w in words], WORD_LENGTH)
    F.cross_entropy(net(x).flatten(0, 1), y.flatten()).backward()
    return any(p.grad is not None and bool(p.grad.abs().sum() > 0) for p in a.parameters())


def test_no_gradient_crosses_the_text_interface_while_the_dense_one_carries_it(nodes):
    assert not _node_a_gets_a_gradient(lambda a, b: TextPipeline(a, b, seed=0), nodes)
    assert _node_a_gets_a_gradient(lambda a, b: DenseNetwork(a, b, seed=0), nodes)  # the check can see a gradient


def test_same_seed_same_numbers():
    p = Params(labels=[20], steps=10, seed=3)
    r1, r2 = run(p, no_progress), run(p, no_progress)
    timeless = [[r.model_dump(exclude={"train_seconds"}) for r in x.per_seed] for x in (r1, r2)]  # times vary
    assert timeless[0] == timeless[1]
    assert r1.trainable_parameters == r2.trainable_parameters


def test_a_count_s_labels_do_not_depend_on_the_other_counts():
    alone = run(Params(labels=[20], steps=10, seed=1), no_progress)
    together = run(Params(labels=[30, 20], steps=10, seed=1), no_progress)
    assert alone.per_seed[0].scores == next(r.scores for r in together.per_seed if r.labels == 20)


def test_output_keys_parameters_and_claims():
    result = run(Params.model_validate({"labels": 20, "steps": 10, "seeds": 2}), no_progress)
    assert set(result.trainable_parameters) == {"dense", "full", "text", "single", "lora"}
    tp = result.trainable_parameters
    assert tp["dense"] < tp["single"] and abs(tp["lora"] - tp["dense"]) / tp["dense"] < 0.1
    assert tp["full"] == result.frozen_parameters + tp["dense"]  # both nodes and the edge, every weight
    assert all(r.train_seconds[v] > 0 for r in result.per_seed for v in result.variants)
    assert [c.id for c in result.claims] == ["efficiency", "text", "gradients"]
    assert all(len(c.seeds) == 2 for c in result.claims)
    assert result.standing is not None and set(result.standing.scores) == set(tp)
    assert set(result.dense_beats_fine_tuning) <= {20} and set(result.dense_beats_text) <= {20}


def test_early_stopping_never_keeps_a_checkpoint_worse_than_step_0_on_held_out_words(nodes):
    from models.lmnet.train import exact_match, split_labels, train_early_stopped

    text = TextPipeline(nodes["translator"], nodes["reverser"], seed=0)
    words = random_words(40, np.random.default_rng(4))
    x = text.node_a_text(VOCAB.encode(words, WORD_LENGTH))
    y = VOCAB.encode([composed_target(w) for w in words], WORD_LENGTH)
    start = [p.detach().clone() for p in text.edge.parameters()]
    out = train_early_stopped(text, text.from_text, x, y, split_labels(40), steps=50, lr=0.05,
                              rng=np.random.default_rng(0), progress=lambda f, m="": None)
    assert out.best_held_out >= out.untrained_held_out
    held = split_labels(40).held_out
    with torch.no_grad():  # the weights of the kept checkpoint are the ones left in the module
        assert exact_match(text.from_text(x[held]), y[held]) == out.best_held_out
    if out.best_step == 0:  # training only hurt (lr 0.05 is far too large): the untrained edge is restored
        assert all(torch.equal(p, q) for p, q in zip(text.edge.parameters(), start, strict=True))


def test_lora_starts_as_the_frozen_node_and_trains_only_adapters(nodes):
    b = nodes["reverser"]
    lora = LoRAModel(b, lora_rank_matching(b, 13760), seed=0)
    x = VOCAB.encode(random_words(8, np.random.default_rng(6)), WORD_LENGTH)
    assert torch.allclose(lora(x), b(x))
    names = [n for n, p in lora.named_parameters() if p.requires_grad]
    assert names and all(n.endswith(("down", "up")) for n in names)


def test_our_adam_matches_torch_adam():
    from models.lmnet.train import Adam

    torch.manual_seed(0)
    a, b = torch.nn.Linear(4, 3), torch.nn.Linear(4, 3)
    b.load_state_dict(a.state_dict())
    theirs, ours = torch.optim.Adam(a.parameters(), lr=0.01), Adam(list(b.parameters()), lr=0.01)
    for _ in range(20):
        x = torch.randn(8, 4)
        for model, opt in ((a, theirs), (b, ours)):
            opt.zero_grad()
            (model(x) ** 2).sum().backward()
            opt.step()
    assert all(torch.allclose(p, q, atol=1e-6) for p, q in zip(a.parameters(), b.parameters(), strict=True))


def test_too_much_work_is_refused():
    with pytest.raises(MethodInputError, match="above the limit"):
        run(Params(labels=[100, 200, 300, 400, 500], steps=2000, seeds=2), no_progress)


@pytest.mark.slow
def test_headline_dense_beats_fine_tuning_at_50_labels_and_text_at_200():
    result = run(Params(labels=[50, 200], seed=0), no_progress)
    low, high = result.rows[0].mean, result.rows[1].mean
    assert low["dense"] > max(low["single"], low["lora"])
    assert high["dense"] - high["text"] >= 0.10


def _words(share: float, n: int = 100) -> list[bool]:
    """Per-word correctness of n test words, the first round(share n) right (so rivals overlap)."""
    return [i < round(share * n) for i in range(n)]


def _outcome(seed: int, scores: dict[int, dict[str, float]], untrained_text: float | None = None):
    from models.lmnet.experiment import SeedOutcome

    scores = {n: {"full": 0.0, **s} for n, s in scores.items()}
    correct = {n: {**{k: _words(v) for k, v in s.items()}, "dense_untrained": _words(0.0),
                   "text_untrained": _words(s["text"] if untrained_text is None else untrained_text)}
               for n, s in scores.items()}
    return SeedOutcome(seed=seed, scores=scores, correct=correct,
                       train_seconds={n: {k: 1.0 for k in s} for n, s in scores.items()},
                       text_untrained={n: s["text"] if untrained_text is None else untrained_text
                                       for n, s in scores.items()},
                       text_ceiling=0.25, gradients={"edges_nonzero": True, "frozen_nonzero": False,
                                                     "frozen_requires_grad": 0},
                       parameters={}, lora_rank=1)


def test_a_text_pipeline_ahead_at_few_labels_keeps_the_verdict_from_green():
    from models.common.claims import evaluate_claims
    from models.common.verdict import claims_verdict
    from models.lmnet.claims import CLAIMS
    from models.lmnet.run import _claims, _counts_won, _standing

    few = {"dense": 0.19, "text": 0.22, "single": 0.0, "lora": 0.0}  # dense beats fine-tuning, not text
    many = {"dense": 0.50, "text": 0.22, "single": 0.0, "lora": 0.01}
    outcomes = [_outcome(s, {50: few, 200: many}) for s in (0, 1, 2)]
    claims = evaluate_claims(CLAIMS, _claims(outcomes), [0, 1, 2])
    assert all(c.holds == "held" for c in claims)  # every claim holds, yet a baseline scores better
    verdict = claims_verdict(claims, _standing(outcomes))
    assert verdict.tone == "warning" and "Text pipeline" in verdict.beaten_by
    assert _counts_won(outcomes, ("full", "single", "lora")) == [50, 200]
    assert _counts_won(outcomes, ("text",)) == [200]
    # one seed behind at a count is enough to drop the count
    outcomes[1].scores[200] = {**many, "full": 0.0, "lora": 0.6}
    assert _counts_won(outcomes, ("full", "single", "lora")) == [50]
    ahead = [_outcome(s, {50: {**few, "text": 0.1}, 200: many}) for s in (0, 1, 2)]
    assert claims_verdict(evaluate_claims(CLAIMS, _claims(ahead), [0, 1, 2]), _standing(ahead)).tone == "success"


def test_one_label_count_draws_points_not_a_one_point_line():
    from models.lmnet.figures import figures

    one = figures(run(Params(labels=[20], steps=10), no_progress))["exact_match"]
    assert all(trace.mode == "markers" for trace in one.data)
    two = figures(run(Params(labels=[20, 30], steps=10), no_progress))["exact_match"]
    assert all(trace.mode == "lines+markers" for trace in two.data)


def test_the_whole_network_baseline_trains_copies_of_both_nodes(nodes):
    from models.lmnet.network import FullNetwork

    a, b = nodes["translator"], nodes["reverser"]
    before = [p.detach().clone() for p in (*a.parameters(), *b.parameters())]
    full = FullNetwork(a, b, seed=0)
    assert all(p.requires_grad for p in full.parameters())
    x = VOCAB.encode(["abcde", "fghij"], WORD_LENGTH)
    opt = torch.optim.SGD(full.parameters(), lr=0.1)
    F.cross_entropy(full(x).flatten(0, 1), x.flatten()).backward()
    opt.step()
    assert all(torch.equal(p, q) for p, q in zip(before, (*a.parameters(), *b.parameters()), strict=True))
    assert any(not torch.equal(p, q) for p, q in zip(before[:len(list(a.parameters()))], full.a.parameters(),
                                                     strict=True))


def test_efficiency_is_judged_against_the_whole_network_and_text_against_its_better_self():
    from models.common.claims import evaluate_claims
    from models.lmnet.claims import CLAIMS
    from models.lmnet.run import _claims

    few = {"dense": 0.19, "full": 0.25, "text": 0.1, "single": 0.0, "lora": 0.0}  # the whole network leads
    many = {"dense": 0.50, "full": 0.7, "text": 0.10, "single": 0.0, "lora": 0.0}
    outcomes = [_outcome(s, {50: few, 200: many}, untrained_text=0.3) for s in (0, 1, 2)]
    measured = _claims(outcomes)
    assert measured["efficiency"][0].value == pytest.approx(100 * (0.19 - 0.25))
    assert measured["text"][0].value == pytest.approx(100 * (0.50 - 0.30))  # untrained text is the better one
    claims = {c.id: c for c in evaluate_claims(CLAIMS, measured, [0, 1, 2])}
    assert claims["efficiency"].holds == "not_held" and claims["text"].holds == "held"
