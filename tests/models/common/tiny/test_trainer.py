"""The budgeted trainer: it learns, stops on steps or on time, is reproducible, leaves frozen weights alone."""

from __future__ import annotations

import itertools

import torch

from models.common.tiny import train_budgeted


def _regression(seed: int) -> tuple[torch.nn.Module, object]:
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(64, 3, generator=gen)
    y = x @ torch.tensor([1.0, -2.0, 0.5])
    torch.manual_seed(seed)
    model = torch.nn.Linear(3, 1)

    def loss_of_step(step: int) -> torch.Tensor:
        return torch.mean((model(x).squeeze(1) - y) ** 2)

    return model, loss_of_step


def test_it_fits_a_linear_map() -> None:
    model, loss = _regression(0)
    log = train_budgeted(model, loss, max_steps=400, lr=0.05)  # type: ignore[arg-type]
    assert log.steps == 400 and log.stopped_by == "steps"
    assert log.losses[-1] < 1e-3 < log.losses[0]


def test_same_seed_same_losses() -> None:
    model_a, loss_a = _regression(1)
    a = train_budgeted(model_a, loss_a, max_steps=20)  # type: ignore[arg-type]
    model_b, loss_b = _regression(1)
    b = train_budgeted(model_b, loss_b, max_steps=20)  # type: ignore[arg-type]
    assert a.losses == b.losses


def test_time_budget_stops_training() -> None:
    ticks = itertools.count()
    model, loss = _regression(2)
    log = train_budgeted(model, loss, max_steps=1000, time_budget_s=5.0,  # type: ignore[arg-type]
                         clock=lambda: float(next(ticks)))
    assert log.stopped_by == "time"
    assert 0 < log.steps < 10


def test_frozen_parameters_do_not_move() -> None:
    model, loss = _regression(3)
    model.bias.requires_grad_(False)
    before = model.bias.detach().clone()
    train_budgeted(model, loss, max_steps=30, lr=0.1)  # type: ignore[arg-type]
    assert torch.equal(model.bias, before)


def test_progress_is_monotone_and_reaches_one() -> None:
    seen: list[float] = []
    model, loss = _regression(4)
    train_budgeted(model, loss, max_steps=120, report_every=10,  # type: ignore[arg-type]
                   progress=lambda f, m="": seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0
