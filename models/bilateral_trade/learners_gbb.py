"""GBB learners: the paper's three-phase one-bit algorithm and a full-feedback reference (their estimates
of L, R, profit and P(trade) in learners_gbb_estimates.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.bilateral_trade.benchmarks import two_pair_optimum
from models.bilateral_trade.distributions import EPS
from models.bilateral_trade.learner_info import LearnerInfo
from models.bilateral_trade.learners_gbb_estimates import (
    ProfitStats,
    line_estimates,
    line_radius,
    trade_bounds,
)
from models.bilateral_trade.market import COLLECT, EXPLOIT, EXPLORE, Market
from models.bilateral_trade.schedule import LearnerSettings, Schedule

__all__ = [
    "PRACTICAL_DEPARTURES",
    "Departure",
    "ProfitStats",
    "gbb_full_learner",
    "gbb_one_bit_learner",
    "line_estimates",
    "line_radius",
    "trade_bounds",
]


@dataclass(frozen=True)
class Departure:
    """One way the practical learner `gbb_one_bit` differs from `gbb_one_bit_paper`, and why."""

    step: str
    paper: str
    practical: str
    reason: str


PRACTICAL_DEPARTURES = (
    Departure(
        "profit collection",
        "anytime Exp3 over ~120 dyadic WBB couples",
        "32 rounds on each of <= 15 coarse WBB grid couples, then the empirically best one",
        "a few arms need far fewer rounds than Exp3 over many: the budget is collected about 20x faster",
    ),
    Departure(
        "budget target beta",
        "T^(3/4) (32,768 at T = 2^20)",
        "0.1 x the exploration length 2Kn (3,277 at T = 2^20), collection capped at T / 4",
        "the guard below keeps the budget non-negative anyway; every collection round costs regret",
    ),
    Departure(
        "exploration length",
        "n = sqrt(T) rounds per row and column",
        "n = 0.5 sqrt(T)",
        "halves the exploration cost; the line estimates stay within their radius (tested)",
    ),
    Departure(
        "confidence radii",
        "textbook |q - p| sqrt(2 log T / N) per couple",
        "empirical Bernstein, multiplied by 0.25",
        "textbook radii keep ~K^2/2 subsidised couples optimistic for ~30 / P(trade)^2 pulls each",
    ),
    Departure(
        "profit upper bound",
        "from the couple's own realised profits only",
        "also capped by secants of L_hat and R_hat (P(trade) is monotone in p and q)",
        "rules out most subsidised couples from the exploration data, without pulling each of them",
    ),
    Departure(
        "order of the rounds",
        "each round's couple drawn i.i.d. from the LP solution",
        "each couple's share rounded, the profitable couple's rounds spread among the subsidised one's",
        "the budget a subsidy needs is usually earned just before it: fewer guard rounds",
    ),
    Departure(
        "budget safety",
        "none needed w.h.p. for its beta (here: only affordable couples in the LP, no-trade if short)",
        "guard: a subsidy the budget cannot cover waits while the best collected WBB couple is posted",
        "with the small beta the budget would run out; the guard keeps GBB exact",
    ),
)


def _collect_profit(
    market: Market, grid: np.ndarray, stats: ProfitStats, target: float
) -> tuple[float, float]:
    """Phase 1: realised profit is observable, so try each coarse WBB couple 32 times, then keep
    posting the empirically most profitable one (re-ranked after every batch) until the budget
    reaches beta or a quarter of the horizon is used; returns the most profitable couple seen."""
    k = len(grid)
    coarse = np.unique(np.round(np.linspace(0, k - 1, min(k, 6))).astype(int))
    arms = np.array([(i, j) for i in coarse for j in coarse if i < j])
    cells = arms[:, 0] * k + arms[:, 1]
    width = grid[arms[:, 1]] - grid[arms[:, 0]]
    pulls, total = np.zeros(len(arms)), np.zeros(len(arms))
    cap = market.t + market.remaining // 4
    plan = np.tile(np.arange(len(arms)), 32)  # round robin first
    while market.budget < target and market.remaining > 0 and market.t < cap:
        p, q = grid[arms[plan, 0]], grid[arms[plan, 1]]
        bits = market.play(p, q, COLLECT, fallback=(0.0, 1.0))
        done = plan[: len(bits)]
        np.add.at(pulls, done, 1.0)
        np.add.at(total, done, bits * width[done])
        stats.add(cells[done], bits)
        mean = total / np.maximum(pulls, 1)
        batch = max(64, int(0.125 * pulls.sum()))
        plan = np.full(batch, int(np.argmax(mean)))
    mean = total / np.maximum(pulls, 1)
    best = int(np.argmax(mean)) if pulls.any() else len(arms) - 1
    if mean[best] <= 0:
        best = int(np.argmax(width))
    return float(grid[arms[best, 0]]), float(grid[arms[best, 1]])


def _batch_plan(
    support: np.ndarray, weights: np.ndarray, profit: np.ndarray, batch: int, rng: np.random.Generator
) -> np.ndarray:
    """The batch's couples: each support cell about weight x batch times (randomised rounding), the
    profitable cell's rounds spread evenly among the subsidised one's, so the budget a subsidy
    needs has usually been earned just before it (fewer guard top-ups than an i.i.d. order)."""
    weights = weights / weights.sum()
    counts = np.floor(weights * batch).astype(int)
    short = batch - int(counts.sum())
    if short > 0:
        counts += np.bincount(rng.choice(len(support), size=short, p=weights), minlength=len(support))
    if len(support) == 1:
        return np.full(batch, support[0])
    earner = int(np.argmax(profit[support]))
    # cell c's j-th round sits at (j + 1/2) / count_c in the batch; the earner goes first on ties
    keys = np.concatenate(
        [(np.arange(c) + 0.5) / max(c, 1) + (0.0 if i == earner else 1e-9) for i, c in enumerate(counts)]
    )
    cells = np.repeat(support, counts)
    return cells[np.argsort(keys, kind="stable")]


def gbb_one_bit_learner(
    market: Market, rng: np.random.Generator, schedule: Schedule, settings: LearnerSettings
) -> LearnerInfo:
    """The paper's GBB learner under one-bit feedback (Lunghi et al. 2026).

    1. Profit collection: post profitable WBB couples until the budget reaches beta.
    2. Exploration: 2K lines of n rounds each, one uniformly random price per round, give L_hat
       and R_hat on the whole K x K grid (see `line_estimates`).
    3. Optimistic constrained phase: in batches, solve max x.(L_hat + R_hat + UCB profit) s.t.
       x.UCB profit >= -budget / rounds left, sum x = 1 (two-couple support); post its couples in
       proportion to x, observe the realised profits (one-bit feedback suffices), repeat.
    The market's GBB guard keeps the realised cumulative profit non-negative throughout.
    """
    grid = schedule.grid
    k, n = len(grid), schedule.samples_per_line
    stats = ProfitStats(grid, schedule.confidence_log, settings.confidence_scale)
    fallback = _collect_profit(market, grid, stats, schedule.budget_target)

    seller_side = np.tile(np.repeat([True, False], n), k)
    line = np.repeat(np.arange(k), 2 * n)
    order = rng.permutation(len(line))
    seller_side, line = seller_side[order], line[order]
    random_price = rng.random(len(line))
    p = np.where(seller_side, random_price, grid[line])
    q = np.where(seller_side, grid[line], random_price)
    bits = market.play(p, q, EXPLORE, fallback=fallback)
    done = len(bits)
    left, right, col_count, row_count = line_estimates(
        grid, seller_side[:done], line[:done], random_price[:done], bits
    )
    fewest = float(min(col_count.min(), row_count.min()))
    trade_lower, trade_upper = trade_bounds(
        grid, left, right, fewest, schedule.confidence_log, settings.confidence_scale
    )

    start, elapsed, solves = market.t, 0, 0
    while market.remaining > 0:
        ucb_profit = stats.upper(trade_lower, trade_upper)
        objective = left + right + ucb_profit  # the L, R radii are equal on every cell: a constant shift
        slack = market.budget / market.remaining  # spend the collected budget evenly
        _, support, weights = two_pair_optimum(objective.ravel(), ucb_profit.ravel(), slack)
        solves += 1
        batch = min(market.remaining, max(64, int(settings.batch_growth * elapsed)))
        cells = _batch_plan(np.asarray(support), np.asarray(weights), ucb_profit.ravel(), batch, rng)
        bits = market.play(
            grid[cells // k], grid[cells % k], EXPLOIT, fallback=fallback, max_rounds=4 * batch
        )
        stats.add(cells[: len(bits)], bits)
        elapsed = market.t - start
    return LearnerInfo(grid_points=k, lp_solves=solves, fallback=fallback, left=left, right=right)


def gbb_full_learner(
    market: Market, rng: np.random.Generator, schedule: Schedule, settings: LearnerSettings
) -> LearnerInfo:
    """Full-feedback GBB reference (in the spirit of Bernasconi et al. 2024): observes (s, b) each
    round, re-solves the grid LP on the empirical GFT and a lower confidence bound on the profit,
    spending the collected budget as slack, and samples couples from the two-couple solution."""
    grid = schedule.grid
    k = len(grid)
    margin = grid[None, :] - grid[:, None]
    histogram = {key: np.zeros((k + 1, k + 1)) for key in ("count", "seller", "buyer")}
    observed = 0

    def absorb(start: int, stop: int) -> None:
        s, b = market.observed_values(start, stop)
        row = np.searchsorted(grid, s - EPS, side="left")  # trades for p_i >= s: rows >= row
        col = np.searchsorted(grid, b + EPS, side="right") - 1  # trades for q_j <= b: cols <= col
        cell = row * (k + 1) + col + 1
        size = (k + 1) * (k + 1)
        for key, weights in (("count", None), ("seller", s), ("buyer", b)):
            histogram[key] += np.bincount(cell, weights=weights, minlength=size).reshape(k + 1, k + 1)

    first = min(market.remaining, 64)
    market.play(np.full(first, 0.5), np.full(first, 0.5), COLLECT, fallback=(0.5, 0.5))
    absorb(0, market.t)
    observed = market.t
    while market.remaining > 0:
        tables = {}
        for key, hist in histogram.items():
            summed = np.cumsum(np.cumsum(hist[:, ::-1], axis=1)[:, ::-1], axis=0)  # rows <= i, cols >= j+1
            tables[key] = summed[:k, 1:] / observed
        profit = margin * tables["count"]
        gft = tables["buyer"] - tables["seller"]
        lower = profit - np.abs(margin) * settings.confidence_scale * math.sqrt(
            schedule.confidence_log / (2 * observed)
        )
        _, support, weights = two_pair_optimum(gft.ravel(), lower.ravel(), market.budget / market.remaining)
        best_profit = int(np.argmax(profit))
        fallback = (float(grid[best_profit // k]), float(grid[best_profit % k]))
        if fallback[1] < fallback[0] or profit.ravel()[best_profit] <= 0:
            fallback = (0.0, 1.0)
        batch = min(market.remaining, max(64, int(settings.batch_growth * observed)))
        cells = _batch_plan(np.asarray(support), np.asarray(weights), lower.ravel(), batch, rng)
        start = market.t
        market.play(grid[cells // k], grid[cells % k], EXPLOIT, fallback=fallback)
        absorb(start, market.t)
        observed = market.t
    return LearnerInfo(grid_points=k)
