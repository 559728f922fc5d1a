"""Two-stage gradient optimisation (torch, CPU or CUDA) with global-to-local reparameterisation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from models.layout.losses import (
    collision_residuals,
    opening_residuals,
    relation_residuals,
    room_residuals,
    support_residuals,
)
from models.layout.problem import Problem

__all__ = ["optimise"]


def optimise(
    problem: Problem,
    start: np.ndarray,
    reparam: bool,
    stage1: int,
    stage2: int,
    lr: float = 0.03,
    tick: Callable[[float], None] | None = None,
    done: Callable[[np.ndarray], bool] | None = None,
) -> tuple[np.ndarray, list[float]]:
    """Refine a layout (N, 4: x, y, z, yaw deg); return it with the loss after each step.

    Stage 1 minimises the relation residuals alone; stage 2 adds rotated-box overlap, wall and support
    penalties whose weight ramps from 0.2 to 1 (R^3L's supportive optimisation). With `reparam`, members of a cluster
    are optimised in their anchor's coordinates and the anchor carries the cluster (global-to-local
    reparameterisation); otherwise every object is optimised in room coordinates.

    Stage 2 stops early once the penalties are at full weight and either `done` (the exact checks, run
    every 40 steps) accepts the layout, or the feasibility loss has not dropped by 1% in 60 steps.
    """
    frame = _Frame.build(problem, reparam)
    params = torch.nn.Parameter(frame.localize(start).clone())
    sizes = torch.tensor(problem.sizes, dtype=torch.float64)
    supports = torch.tensor(problem.supports, dtype=torch.long).T if problem.supports else torch.zeros(2, 0, dtype=torch.long)
    free_yaw = ~frame.pinned
    opt = torch.optim.Adam([params], lr=lr)
    total = max(stage1 + stage2, 1)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=total, eta_min=lr * 0.1)
    history: list[float] = []
    plateau = _Plateau()
    for step in range(total):
        opt.zero_grad(set_to_none=True)
        g = frame.globalize(params)
        loss = relation_residuals(g, sizes, problem.compiled, problem.room).sum()
        if step < stage1 and float(loss.detach()) < 1e-9:
            stage1 = step  # relations already hold: go on to stage 2
        if step >= stage1:
            alpha = min(1.0, 0.2 + 0.8 * (step - stage1) / max(1, int(0.6 * stage2)))
            loss = loss + alpha * _physical(g, sizes, supports, problem)
            core = float(loss.detach())
            if alpha >= 1.0 and (core < 1e-9 or plateau.stalled(core, step) or _accepted(done, step, frame, params)):
                history.append(0.0 if core < 1e-9 else core)
                break
            loss = loss + _tidy(g, free_yaw, supports)
        history.append(float(loss.detach()))
        if loss.requires_grad:
            loss.backward()
            opt.step()
        sched.step()
        if tick is not None and step % 25 == 0:
            tick(step / total)
    with torch.no_grad():
        out = _degrees(frame.globalize(params)[0].numpy().copy())
    return out, history


@dataclass
class _Frame:
    """Global-to-local reparameterisation: members live in their anchor's coordinates (every object is its
    own anchor without it) and pinned yaws stay fixed."""

    anchor: torch.Tensor
    is_member: torch.Tensor
    pinned: torch.Tensor
    pin_yaw: torch.Tensor
    z: torch.Tensor

    @classmethod
    def build(cls, problem: Problem, reparam: bool) -> _Frame:
        n = problem.n
        owner = problem.decomposition
        anchor = np.array([owner.anchor_of(i) for i in range(n)]) if reparam else np.arange(n)
        pinned = torch.zeros(n, dtype=torch.bool)
        pin_yaw = torch.zeros(n, dtype=torch.float64)
        for i, yaw in problem.pins.items():
            pinned[i] = True
            pin_yaw[i] = np.radians(yaw)
        return cls(torch.tensor(anchor), torch.tensor(anchor != np.arange(n)), pinned, pin_yaw,
                   torch.tensor(problem.z, dtype=torch.float64))

    def localize(self, start: np.ndarray) -> torch.Tensor:
        """The parameters (N, 3: x, y, yaw rad) of a layout (N, 4: x, y, z, yaw deg)."""
        is_member = self.is_member
        pose = torch.tensor(start, dtype=torch.float64)
        pose[:, 3] = torch.deg2rad(pose[:, 3])
        # local coordinates of members relative to their anchor
        ax, ay, at = pose[self.anchor, 0], pose[self.anchor, 1], pose[self.anchor, 3]
        dx, dy = pose[:, 0] - ax, pose[:, 1] - ay
        lx = torch.cos(at) * dx + torch.sin(at) * dy
        ly = -torch.sin(at) * dx + torch.cos(at) * dy
        return torch.stack([
            torch.where(is_member, lx, pose[:, 0]),
            torch.where(is_member, ly, pose[:, 1]),
            torch.where(is_member, pose[:, 3] - at, pose[:, 3]),
        ], dim=1)

    def globalize(self, p: torch.Tensor) -> torch.Tensor:
        """Room poses (1, N, 4: x, y, z, yaw rad) of the parameters."""
        is_member, pinned, pin_yaw = self.is_member, self.pinned, self.pin_yaw
        own_yaw = torch.where(pinned & ~is_member, pin_yaw, p[:, 2])
        gx_a, gy_a, gt_a = p[self.anchor, 0], p[self.anchor, 1], own_yaw[self.anchor]
        gx = torch.where(is_member, gx_a + torch.cos(gt_a) * p[:, 0] - torch.sin(gt_a) * p[:, 1], p[:, 0])
        gy = torch.where(is_member, gy_a + torch.sin(gt_a) * p[:, 0] + torch.cos(gt_a) * p[:, 1], p[:, 1])
        gt = torch.where(is_member, gt_a + p[:, 2], own_yaw)
        gt = torch.where(pinned, pin_yaw, gt)
        return torch.stack([gx, gy, self.z, gt], dim=1).unsqueeze(0)


@dataclass
class _Plateau:
    """Whether the feasibility loss has not dropped by 1% in 60 steps."""

    best_core: float = float("inf")
    best_step: int = 0

    def stalled(self, core: float, step: int) -> bool:
        if core < 0.99 * self.best_core:
            self.best_core, self.best_step = core, step
            return False
        return step - self.best_step >= 60


def _accepted(done: Callable[[np.ndarray], bool] | None, step: int, frame: _Frame, params: torch.Tensor) -> bool:
    """The exact checks, every 40 steps, on the current layout."""
    if done is None or step % 40 != 0:
        return False
    with torch.no_grad():
        current = _degrees(frame.globalize(params)[0].numpy().copy())
    return done(current)


def _physical(g: torch.Tensor, sizes: torch.Tensor, supports: torch.Tensor, problem: Problem) -> torch.Tensor:
    """Stage 2's penalties: rotated-box overlap, room, support and door/window zones."""
    return (5.0 * collision_residuals(g, sizes, problem.pairs).sum()
            + 5.0 * room_residuals(g, sizes, problem.room).sum()
            + 0.5 * support_residuals(g, sizes, supports).sum()
            + 5.0 * opening_residuals(g, sizes, problem.zones, problem.blocked).sum())


def _tidy(g: torch.Tensor, free_yaw: torch.Tensor, supports: torch.Tensor) -> torch.Tensor:
    """Tidiness, not feasibility: things on a support line up with it, free yaws drift faintly to the room's
    axes; both stay out of the stopping test."""
    tidy = 0.01 * (1.0 - torch.cos(4.0 * g[0, free_yaw, 3])).sum()
    if supports.shape[1]:
        tidy = tidy + 0.1 * (1.0 - torch.cos(4.0 * (g[0, supports[0], 3] - g[0, supports[1], 3]))).sum()
    return tidy


def _degrees(poses: np.ndarray) -> np.ndarray:
    """Poses with yaw in radians -> yaw in degrees in [-180, 180)."""
    poses[:, 3] = np.degrees(poses[:, 3])
    poses[:, 3] = (poses[:, 3] + 180.0) % 360.0 - 180.0
    return poses
