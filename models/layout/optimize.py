"""Two-stage gradient optimisation (torch, CPU or CUDA) with global-to-local reparameterisation."""

from __future__ import annotations

from collections.abc import Callable

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
    n = problem.n
    owner = problem.decomposition
    anchor = np.array([owner.anchor_of(i) for i in range(n)]) if reparam else np.arange(n)
    is_member = torch.tensor(anchor != np.arange(n))
    anchor_t = torch.tensor(anchor)
    pose = torch.tensor(start, dtype=torch.float64)
    pose[:, 3] = torch.deg2rad(pose[:, 3])
    # local coordinates of members relative to their anchor
    ax, ay, at = pose[anchor_t, 0], pose[anchor_t, 1], pose[anchor_t, 3]
    dx, dy = pose[:, 0] - ax, pose[:, 1] - ay
    lx = torch.cos(at) * dx + torch.sin(at) * dy
    ly = -torch.sin(at) * dx + torch.cos(at) * dy
    init = torch.stack([
        torch.where(is_member, lx, pose[:, 0]),
        torch.where(is_member, ly, pose[:, 1]),
        torch.where(is_member, pose[:, 3] - at, pose[:, 3]),
    ], dim=1)
    params = torch.nn.Parameter(init.clone())
    pinned = torch.zeros(n, dtype=torch.bool)
    pin_yaw = torch.zeros(n, dtype=torch.float64)
    for i, yaw in problem.pins.items():
        pinned[i] = True
        pin_yaw[i] = np.radians(yaw)
    z = torch.tensor(problem.z, dtype=torch.float64)
    sizes = torch.tensor(problem.sizes, dtype=torch.float64)
    supports = torch.tensor(problem.supports, dtype=torch.long).T if problem.supports else torch.zeros(2, 0, dtype=torch.long)
    free_yaw = ~pinned

    def globalize(p: torch.Tensor) -> torch.Tensor:
        own_yaw = torch.where(pinned & ~is_member, pin_yaw, p[:, 2])
        gx_a, gy_a, gt_a = p[anchor_t, 0], p[anchor_t, 1], own_yaw[anchor_t]
        gx = torch.where(is_member, gx_a + torch.cos(gt_a) * p[:, 0] - torch.sin(gt_a) * p[:, 1], p[:, 0])
        gy = torch.where(is_member, gy_a + torch.sin(gt_a) * p[:, 0] + torch.cos(gt_a) * p[:, 1], p[:, 1])
        gt = torch.where(is_member, gt_a + p[:, 2], own_yaw)
        gt = torch.where(pinned, pin_yaw, gt)
        return torch.stack([gx, gy, z, gt], dim=1).unsqueeze(0)

    opt = torch.optim.Adam([params], lr=lr)
    total = max(stage1 + stage2, 1)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=total, eta_min=lr * 0.1)
    history: list[float] = []
    best_core, best_step = float("inf"), 0
    for step in range(total):
        opt.zero_grad(set_to_none=True)
        g = globalize(params)
        loss = relation_residuals(g, sizes, problem.compiled, problem.room).sum()
        if step < stage1 and float(loss.detach()) < 1e-9:
            stage1 = step  # relations already hold: go on to stage 2
        if step >= stage1:
            alpha = min(1.0, 0.2 + 0.8 * (step - stage1) / max(1, int(0.6 * stage2)))
            physical = (5.0 * collision_residuals(g, sizes, problem.pairs).sum()
                        + 5.0 * room_residuals(g, sizes, problem.room).sum()
                        + 0.5 * support_residuals(g, sizes, supports).sum()
                        + 5.0 * opening_residuals(g, sizes, problem.zones, problem.blocked).sum())
            loss = loss + alpha * physical
            core = float(loss.detach())
            if alpha >= 1.0 and core < 1e-9:
                history.append(0.0)
                break
            if alpha >= 1.0:
                if core < 0.99 * best_core:
                    best_core, best_step = core, step
                elif step - best_step >= 60:
                    history.append(core)
                    break
                if done is not None and step % 40 == 0:
                    with torch.no_grad():
                        current = _degrees(globalize(params)[0].numpy().copy())
                    if done(current):
                        history.append(core)
                        break
            # tidiness, not feasibility: things on a support line up with it, free yaws drift faintly to
            # the room's axes; both stay out of the stopping test above
            tidy = 0.01 * (1.0 - torch.cos(4.0 * g[0, free_yaw, 3])).sum()
            if supports.shape[1]:
                tidy = tidy + 0.1 * (1.0 - torch.cos(4.0 * (g[0, supports[0], 3] - g[0, supports[1], 3]))).sum()
            loss = loss + tidy
        history.append(float(loss.detach()))
        if loss.requires_grad:
            loss.backward()
            opt.step()
        sched.step()
        if tick is not None and step % 25 == 0:
            tick(step / total)
    with torch.no_grad():
        out = _degrees(globalize(params)[0].numpy().copy())
    return out, history


def _degrees(poses: np.ndarray) -> np.ndarray:
    """Poses with yaw in radians -> yaw in degrees in [-180, 180)."""
    poses[:, 3] = np.degrees(poses[:, 3])
    poses[:, 3] = (poses[:, 3] + 180.0) % 360.0 - 180.0
    return poses
