"""Upcycling preserves the function, masks and pruning agree, and the added-parameter count is exact."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from models.moe_upcycling.learners import lwf_loss
from models.moe_upcycling.network import MoEBlock, UpcycleNet, ffn_parameters, router_parameters
from models.moe_upcycling.search import (
    TAU_END,
    TAU_START,
    ExpertMask,
    candidate_layers,
    cka_probe,
    initial_logits,
    temperature_at,
)


def _net(width: int = 16, layers: int = 2) -> UpcycleNet:
    return UpcycleNet(64, width, layers, 10, torch.Generator().manual_seed(0))


def _x() -> torch.Tensor:
    return torch.rand(20, 64, generator=torch.Generator().manual_seed(1))


def _perturb_experts(net: UpcycleNet) -> None:
    g = torch.Generator().manual_seed(5)
    with torch.no_grad():
        for block in net.blocks:
            assert isinstance(block, MoEBlock)
            for expert in list(block.experts)[1:]:
                for p in expert.parameters():
                    p.add_(0.3 * torch.randn(p.shape, generator=g))
            block.router.weight.add_(torch.randn(block.router.weight.shape, generator=g))


def test_upcycling_preserves_the_function() -> None:
    net = _net()
    before, _ = net(_x())
    net.upcycle([0, 1], copies=3)
    after, _ = net(_x())
    assert torch.allclose(before, after, atol=1e-6)


def test_added_parameters_match_a_brute_force_count() -> None:
    net = _net(width=16, layers=3)
    dense = sum(p.numel() for p in net.parameters())
    net.upcycle([0, 2], copies=2)
    grown = sum(p.numel() for p in net.parameters())
    assert net.added_parameters() == grown - dense == 2 * (2 * ffn_parameters(16) + router_parameters(16, 3))


def test_a_zero_mask_keeps_only_the_original_expert() -> None:
    net = _net()
    reference, _ = net(_x())
    net.upcycle([0, 1], copies=2)
    _perturb_experts(net)
    zero = torch.zeros(2)
    masked, _ = net(_x(), [zero, zero])
    assert torch.allclose(masked, reference, atol=1e-5)
    unmasked, _ = net(_x())
    assert not torch.allclose(unmasked, reference, atol=1e-3)


def test_pruning_equals_the_hard_mask() -> None:
    net = _net()
    net.upcycle([0, 1], copies=3)
    _perturb_experts(net)
    hard = [torch.tensor([1.0, 0.0, 1.0]), torch.tensor([0.0, 1.0, 0.0])]
    masked, _ = net(_x(), list(hard))
    block0, block1 = net.blocks
    assert isinstance(block0, MoEBlock) and isinstance(block1, MoEBlock)
    block0.keep_only([1, 3])
    block1.keep_only([2])
    pruned, _ = net(_x())
    assert torch.allclose(masked, pruned, atol=1e-5)
    assert len(block0.experts) == 3 and len(block1.experts) == 2


def test_only_the_original_expert_is_frozen_after_upcycling() -> None:
    net = _net()
    net.upcycle([0], copies=1)
    block = net.blocks[0]
    assert isinstance(block, MoEBlock)
    assert not any(p.requires_grad for p in block.experts[0].parameters())
    assert all(p.requires_grad for p in block.experts[1].parameters())
    assert all(p.requires_grad for p in net.stem.parameters())
    assert all(p.requires_grad for p in net.head.parameters())


def test_mask_samples_and_expected_cost_gradient() -> None:
    mask = ExpertMask(2, 3).double()
    with torch.no_grad():
        mask.logits.copy_(torch.tensor([[0.3, -1.0, 2.0], [0.0, 0.5, -0.2]], dtype=torch.float64))
    sample = mask.sample(torch.Generator().manual_seed(0))
    assert ((sample > 0) & (sample < 1)).all()
    assert torch.autograd.gradcheck(
        lambda a: torch.sigmoid(a).sum() * 3.0 / 7.0, (mask.logits.detach().clone().requires_grad_(True),)
    )
    cost = mask.expected_cost_fraction(3.0, 7.0)
    cost.backward()
    s = torch.sigmoid(mask.logits.detach())
    assert mask.logits.grad is not None
    assert torch.allclose(mask.logits.grad, s * (1 - s) * 3.0 / 7.0)
    assert mask.kept() == [[1, 3], [2]]


def test_many_samples_keep_a_block_with_its_probability() -> None:
    mask = ExpertMask(1, 1)
    mask.temperature = 0.01
    with torch.no_grad():
        mask.logits.fill_(1.0)
    g = torch.Generator().manual_seed(2)
    with torch.no_grad():
        kept = torch.stack([mask.sample(g) for _ in range(4000)]).round().mean()
    assert float(kept) == pytest.approx(float(torch.sigmoid(torch.tensor(1.0))), abs=0.03)


def test_non_candidate_layers_are_never_sampled_or_kept() -> None:
    mask = ExpertMask(3, 2, candidates=[2])
    with torch.no_grad():
        mask.logits.fill_(4.0)
    sample = mask.sample(torch.Generator().manual_seed(0)).detach()
    assert float(sample[:2].abs().sum()) == 0.0 and bool((sample[2] > 0.5).all())
    assert mask.kept() == [[], [], [1, 2]]
    assert mask.decided() == pytest.approx(float(torch.sigmoid(torch.tensor(4.0))) - 0.5)


def test_temperature_anneals_geometrically_from_start_to_end() -> None:
    taus = [temperature_at(k, 11) for k in range(11)]
    assert taus[0] == pytest.approx(TAU_START) and taus[-1] == pytest.approx(TAU_END)
    ratios = [b / a for a, b in zip(taus, taus[1:], strict=False)]
    assert max(ratios) == pytest.approx(min(ratios)) and max(ratios) < 1


def test_the_mask_starts_high_on_the_cka_favoured_layers_only() -> None:
    start = torch.sigmoid(initial_logits([0.1, 0.2, 0.6], copies=2))
    assert torch.allclose(start, torch.tensor([[0.4, 0.4], [0.4, 0.4], [0.6, 0.6]]))
    mask = ExpertMask(3, 2, init=initial_logits([0.1, 0.2, 0.6], copies=2))
    assert torch.allclose(mask.keep_probability(), start)  # every layer is a candidate of the search


def test_candidates_are_the_layers_at_or_above_the_mean_drift() -> None:
    assert candidate_layers([0.1, 0.2, 0.6]) == [2]
    assert candidate_layers([0.3, 0.3]) == [0, 1]
    assert candidate_layers([0.1, 0.5, 0.4]) == [1, 2]


def test_the_probe_leaves_the_model_untouched_and_reports_zero_drift_without_steps() -> None:
    net, x = _net(), _x()
    before = {k: v.clone() for k, v in net.state_dict().items()}
    y = torch.randint(0, 10, (20,), generator=torch.Generator().manual_seed(3))
    assert cka_probe(net, x, y, x, 0.01, []) == pytest.approx([0.0, 0.0], abs=1e-9)
    drift = cka_probe(net, x, y, x, 0.05, [torch.arange(20)] * 5)
    assert all(d > 0 for d in drift)
    assert all(torch.equal(before[k], v) for k, v in net.state_dict().items())


def test_lwf_is_temperature_scaled_kl_on_the_old_classes_only() -> None:
    g = torch.Generator().manual_seed(4)
    new, old = torch.randn(6, 10, generator=g), torch.randn(6, 10, generator=g)
    assert float(lwf_loss(old, old, [0, 3])) == pytest.approx(0.0, abs=1e-6)
    assert float(lwf_loss(new, old, [])) == 0.0
    cols = [1, 4, 7]
    expected = 4.0 * F.kl_div(F.log_softmax(new[:, cols] / 2, 1), F.softmax(old[:, cols] / 2, 1), reduction="batchmean")
    assert float(lwf_loss(new, old, cols)) == pytest.approx(float(expected))
    changed = new.clone()
    changed[:, 9] += 5.0  # a new class's logit does not enter
    assert float(lwf_loss(changed, old, cols)) == pytest.approx(float(expected))
