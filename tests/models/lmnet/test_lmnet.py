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
from models.lmnet.network import DenseNetwork, Edge, TextPipeline, gradient_report
from models.lmnet.nodes import NODE_TASKS, VOCAB
from models.lmnet.params import Params
from models.lmnet.run import run


def test_composed_task_is_the_composition_of_the_node_tasks_on_unmarked_words():
    words = random_words(200, np.random.default_rng(0), mark_probability=0.0)
    for w in words:
        assert composed_target(w) == reverser_target(translator_target(w))
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


def test_no_gradient_crosses_the_text_interface(nodes):
    text = TextPipeline(nodes["translator"], nodes["reverser"], seed=0)
    x = VOCAB.encode(random_words(4, np.random.default_rng(3)), WORD_LENGTH)
    assert not text.node_a_text(x).requires_grad


def test_same_seed_same_numbers():
    p = Params(labels=[20], epochs=2, seed=3)
    r1, r2 = run(p, no_progress), run(p, no_progress)
    assert r1.rows == r2.rows
    assert r1.trainable_parameters == r2.trainable_parameters


def test_single_label_count_and_output_keys():
    result = run(Params.model_validate({"labels": 20, "epochs": 1}), no_progress)
    data = result.model_dump()
    assert set(data["exact_match"]) == {"dense", "text", "single"}
    assert set(data["trainable_parameters"]) == {"dense", "text", "single"}
    assert data["gradients"]["edges_nonzero"] in (True, False)
    assert data["trainable_parameters"]["dense"] < data["trainable_parameters"]["single"]


def test_too_much_work_is_refused():
    with pytest.raises(MethodInputError, match="labels x epochs"):
        run(Params(labels=[1000, 1000, 1000], epochs=200), no_progress)


@pytest.mark.slow
def test_dense_beats_text_by_ten_points_at_200_labels():
    result = run(Params(labels=[200], epochs=25, seed=0), no_progress)
    row = result.rows[0]
    assert row.dense - row.text >= 0.10
    assert result.gradients.edges_nonzero and not result.gradients.frozen_nonzero
    assert result.verdict().tone == "success"
