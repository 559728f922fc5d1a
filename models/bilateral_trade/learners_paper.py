"""The paper's GBB learner as published: Exp3 profit collection, 2K-line exploration, optimistic LP."""

from __future__ import annotations

import math

import numpy as np

from models.bilateral_trade.benchmarks import two_pair_optimum
from models.bilateral_trade.learner_info import LearnerInfo
from models.bilateral_trade.learners_gbb_estimates import line_estimates
from models.bilateral_trade.market import COLLECT, EXPLOIT, EXPLORE, Market
from models.bilateral_trade.schedule import Schedule

__all__ = ["EXP3_BATCH", "dyadic_couples", "lp_batch", "exp3_profit_collection", "gbb_one_bit_paper_learner"]

EXP3_BATCH = 1024  # rounds between two Exp3 weight updates (feedback delayed by at most one batch)
LP_MIN_BATCH, LP_GROWTH = 64, 0.05  # the optimistic LP's batches: at least 64 rounds, at most 5% of the phase so far


def lp_batch(remaining: int, elapsed: int, support_pulls: np.ndarray) -> int:
    """Rounds until the optimistic LP is solved again: until the least-pulled couple of its support has
    doubled its pulls (the rarely-switching form of UCB, which keeps its regret order), at least
    LP_MIN_BATCH and at most 5% of the rounds of the phase so far."""
    return min(remaining, max(LP_MIN_BATCH, min(int(LP_GROWTH * elapsed), int(support_pulls.min()))))


def dyadic_couples(k: int) -> np.ndarray:
    """WBB couples (p, p + g) with dyadic gaps g = 2^-m, m = 1..ceil(log2 K), and p on the grid
    of step g / 2: every profitable couple's gap is within a factor 2 of one of these gaps."""
    couples = []
    for m in range(1, max(1, math.ceil(math.log2(k))) + 1):
        gap = 2.0**-m
        starts = np.arange(2 ** (m + 1) - 1) * gap / 2
        couples.append(np.stack([starts, starts + gap], axis=1))
    return np.concatenate(couples)


def exp3_profit_collection(
    market: Market, rng: np.random.Generator, target: float, grid_points: int, batch: int = EXP3_BATCH
) -> tuple[float, float]:
    """Phase 1: Exp3 over the dyadic WBB couples until the budget reaches `target`.

    The textbook anytime Exp3 on losses (Bubeck and Cesa-Bianchi 2012, Thm 3.1): loss
    1 - (q - p) 1{trade} in [0, 1] (one-bit feedback reveals the realised profit), importance-weighted
    estimates, p_t proportional to exp(-eta_t L_hat) with eta_t = sqrt(2 ln N / (N t)). Returns the
    couple of smallest estimated loss. Every collection round is weakly budget balanced."""
    arms = dyadic_couples(grid_points)
    count = len(arms)
    cumulative_loss = np.zeros(count)
    rounds = 0
    while market.budget < target and market.remaining > 0:
        eta = math.sqrt(2.0 * math.log(count) / (count * (rounds + 1)))
        weights = np.exp(-eta * (cumulative_loss - cumulative_loss.min()))
        probs = weights / weights.sum()
        pulled = rng.choice(count, size=min(batch, market.remaining), p=probs)
        bits = market.play(arms[pulled, 0], arms[pulled, 1], COLLECT, fallback=(0.0, 1.0))
        pulled = pulled[: len(bits)]
        loss = 1.0 - bits * (arms[pulled, 1] - arms[pulled, 0])
        cumulative_loss += np.bincount(pulled, weights=loss / probs[pulled], minlength=count)
        rounds += len(bits)
    best = int(np.argmin(cumulative_loss))
    return float(arms[best, 0]), float(arms[best, 1])


def _explore(
    market: Market, rng: np.random.Generator, grid: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Phase 2: for every grid price, n column rounds (U, q_j) and n row rounds (p_i, V) with
    U, V ~ U[0, 1], in random order; returns (L_hat, R_hat) on the K x K grid from the rounds the
    budget allowed (see `line_estimates`)."""
    k = len(grid)
    seller_side = np.tile(np.repeat([True, False], n), k)
    line = np.repeat(np.arange(k), 2 * n)
    order = rng.permutation(len(line))
    seller_side, line = seller_side[order], line[order]
    random_price = rng.random(len(line))
    p = np.where(seller_side, random_price, grid[line])
    q = np.where(seller_side, grid[line], random_price)
    bits, played = market.play_or_halt(p, q, EXPLORE)
    done = len(bits)
    keep = played
    left, right, _, _ = line_estimates(
        grid, seller_side[:done][keep], line[:done][keep], random_price[:done][keep], bits[keep]
    )
    return left, right


def gbb_one_bit_paper_learner(
    market: Market, rng: np.random.Generator, schedule: Schedule
) -> LearnerInfo:
    """The one-bit GBB learner of Lunghi et al. (2026), with the orders the paper states and
    constant 1 (`paper_schedule`): K = ceil(T^(1/4)), n = ceil(sqrt(T)), beta = T^(3/4), delta = 1/T.

    1. Profit collection: anytime Exp3 over dyadic WBB couples until the budget reaches beta.
    2. Exploration: 2K lines of n rounds give L_hat, R_hat on all K^2 couples.
    3. Optimistic constrained phase: UCB of the profit of every couple from its own realised
       profits, textbook radius |q - p| sqrt(2 log T / N) (the range of no pulled couple is
       [min(0, q - p), max(0, q - p)]); solve max x.(L_hat + R_hat + UCB) s.t.
       x.UCB >= -budget / rounds left, sum x = 1, over the couples whose worst loss p - q the
       current budget covers, and draw each round's couple i.i.d. from x.
    No guard: a round whose subsidy the budget cannot cover posts the no-trade couple (0, 1)
    instead (`Market.play_or_halt`); those rounds are counted as guard rounds.
    """
    grid = schedule.grid
    k = len(grid)
    exp3_profit_collection(market, rng, schedule.budget_target, k)
    left, right = _explore(market, rng, grid, schedule.samples_per_line)
    margin = grid[None, :] - grid[:, None]
    pulls, total = np.zeros(k * k), np.zeros(k * k)
    low, high = np.minimum(margin, 0.0).ravel(), np.maximum(margin, 0.0).ravel()
    objective_base = (left + right).ravel()
    worst_loss = -margin.ravel()
    start, solves = market.t, 0
    while market.remaining > 0:
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = total / pulls
            radius = np.abs(margin.ravel()) * np.sqrt(2.0 * schedule.confidence_log / pulls)
        ucb = np.clip(np.where(pulls > 0, mean + radius, high), low, high)
        slack = market.budget / market.remaining
        # only couples whose worst loss p - q the budget covers (WBB couples always qualify)
        affordable = np.flatnonzero(worst_loss <= market.budget)
        _, support, weights = two_pair_optimum(
            objective_base[affordable] + ucb[affordable], ucb[affordable], slack
        )
        solves += 1
        chosen = affordable[support]
        batch = lp_batch(market.remaining, market.t - start, pulls[chosen])
        cells = rng.choice(chosen, size=batch, p=np.asarray(weights) / np.sum(weights))
        bits, played = market.play_or_halt(grid[cells // k], grid[cells % k], EXPLOIT)
        cells = cells[: len(bits)][played]
        pulls += np.bincount(cells, minlength=k * k)
        total += np.bincount(cells, weights=bits[played] * margin.ravel()[cells], minlength=k * k)
    return LearnerInfo(grid_points=k, lp_solves=solves, left=left, right=right)
