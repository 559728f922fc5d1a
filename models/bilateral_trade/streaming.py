"""The paper's learner (`gbb_one_bit_paper`) streamed: horizons up to 2^26 in memory set by its state.

The learner's decisions are those of `learners_paper` (same schedule, Exp3 over dyadic WBB couples, 2K
exploration lines, optimistic LP re-solved when its least-pulled couple has doubled its pulls, `lp_batch`); only the market is
simulated by sufficient statistics where that is exact in distribution:

* within an Exp3 batch or an LP batch the couples are i.i.d. from fixed weights and valuations are i.i.d.
  from D, so the pulls of each couple are multinomial and its trades binomial with P(s <= p, b >= q); the
  learner only reads those counts (the Exp3 loss sums, the couples' profit sums);
* an LP batch goes by counts only when the budget covers every subsidy in it even if all of them trade
  (then `play_or_halt` never halts); otherwise it is played round by round with the exact guard;
* exploration is played round by round (its random prices U, V are needed one by one), in chunks whose
  task counts are multivariate hypergeometric draws from the tasks left, i.e. a uniform random order.

The test `test_streaming.py` checks the streamed learner against the per-round one in distribution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.bilateral_trade.benchmarks import two_pair_optimum
from models.bilateral_trade.distributions import EPS, ValuationDistribution, gft_table
from models.bilateral_trade.experiment import LearnerRun
from models.bilateral_trade.learners_paper import EXP3_BATCH, dyadic_couples, lp_batch
from models.bilateral_trade.market import COLLECT, EXPLOIT, EXPLORE
from models.bilateral_trade.params import STREAMED
from models.bilateral_trade.schedule import Schedule, paper_schedule
from models.bilateral_trade.stream_market import StreamRecorder

__all__ = ["STREAMED", "StreamRun", "from_log", "play_block", "stream_learner"]

_CHUNK = 1 << 16


@dataclass
class StreamRun:
    """One streamed learner over one horizon: values at the checkpoint rounds and per-phase sums."""

    name: str
    record: StreamRecorder
    grid_points: int
    product_form: bool | None = None

    def checkpoint_regret(self, benchmark: float) -> np.ndarray:
        return self.record.checkpoints * benchmark - np.asarray(self.record.gft_at)

    def checkpoint_profit(self) -> np.ndarray:
        return np.asarray(self.record.profit_at)

    def final_regret(self, benchmark: float) -> float:
        return float(self.record.horizon * benchmark - self.record.gft)

    def regret_by_phase(self, benchmark: float) -> dict[str, float]:
        r = self.record
        keys = ("collection", "exploration", "exploitation", "guard")
        return {key: float(r.phase_rounds[c] * benchmark - r.phase_gft[c]) for c, key in enumerate(keys)}

    def final_profit(self) -> float:
        return self.record.budget

    def min_profit(self) -> float:
        return self.record.min_profit

    def mean_gft(self) -> float:
        return self.record.gft / self.record.horizon

    def guard_rounds(self) -> float:
        return float(self.record.phase_rounds[3])

    def spans(self) -> list[dict[str, object]]:
        return self.record.spans()

    def heatmap(self) -> list[list[float]]:
        return self.record.heat.tolist()


def from_log(outcome: LearnerRun, checkpoints: np.ndarray) -> StreamRun:
    """The same summary of a per-round run (its arrays fed to a recorder checkpoint by checkpoint)."""
    record = StreamRecorder(len(outcome.expected_gft), np.asarray(checkpoints, dtype=np.int64))
    start = 0
    while start < record.horizon:
        stop = start + record.room()
        record.record_rounds(outcome.expected_gft[start:stop], outcome.profit[start:stop], outcome.phase[start:stop],
                       outcome.seller_price[start:stop], outcome.buyer_price[start:stop])
        start = stop
    return StreamRun(outcome.name, record, outcome.grid_points, outcome.product_form)


def _pieces(record: StreamRecorder, rounds: int) -> list[int]:
    """`rounds` split at the checkpoints."""
    out, left, t = [], rounds, record.t
    for cp in record.checkpoints[record.checkpoints > t]:
        if left <= 0:
            break
        take = min(left, int(cp) - t)
        out.append(take)
        left, t = left - take, t + take
    return out


def _collect(record: StreamRecorder, dist: ValuationDistribution, rng: np.random.Generator, target: float,
             k: int) -> None:
    """Phase 1: the textbook anytime Exp3 of `exp3_profit_collection`, batch by batch from counts."""
    arms = dyadic_couples(k)
    gap = arms[:, 1] - arms[:, 0]
    table = gft_table(dist, arms[:, 0], arms[:, 1])
    count, cumulative_loss, rounds = len(arms), np.zeros(len(arms)), 0
    while record.budget < target and record.remaining > 0:
        eta = math.sqrt(2.0 * math.log(count) / (count * (rounds + 1)))
        weights = np.exp(-eta * (cumulative_loss - cumulative_loss.min()))
        probs = weights / weights.sum()
        size = min(EXP3_BATCH, record.remaining)
        for piece in _pieces(record, size):
            pulls = rng.multinomial(piece, probs)
            trades = rng.binomial(pulls, np.clip(table["trade"], 0.0, 1.0))
            record.add_block(piece, float(pulls @ table["gft"]), float(trades @ gap), COLLECT, arms[:, 0],
                             arms[:, 1], pulls)
            pulled = pulls > 0  # an arm of probability 0 is never pulled (and adds nothing)
            cumulative_loss[pulled] += (pulls - trades * gap)[pulled] / probs[pulled]
        rounds += size


def _explore(record: StreamRecorder, dist: ValuationDistribution, rng: np.random.Generator, grid: np.ndarray,
             n: int) -> tuple[np.ndarray, np.ndarray]:
    """Phase 2: n column tasks (U, q_j) and n row tasks (p_i, V) per grid price in a uniform random order;
    L_hat and R_hat accumulated chunk by chunk (the sums of `line_estimates`)."""
    k = len(grid)
    left_hits, right_hits = np.zeros((k + 1, k)), np.zeros((k, k + 1))
    col_count, row_count = np.zeros(k), np.zeros(k)
    tasks_left = np.full(2 * k, n, dtype=np.int64)  # task 2j: column j (seller side), 2j + 1: row j
    while tasks_left.sum() > 0 and record.remaining > 0:
        m = int(min(_CHUNK, tasks_left.sum(), record.remaining))
        drawn = rng.multivariate_hypergeometric(tasks_left, m)
        tasks_left -= drawn
        task = rng.permutation(np.repeat(np.arange(2 * k), drawn))
        seller_side, line = task % 2 == 0, task // 2
        price = rng.random(m)
        p = np.where(seller_side, price, grid[line])
        q = np.where(seller_side, grid[line], price)
        bits, played = record.play_rounds(dist, rng, p, q, EXPLORE)
        cols, rows = seller_side & played, ~seller_side & played
        np.add.at(left_hits, (np.searchsorted(grid, price[cols] - EPS, side="left"), line[cols]), bits[cols])
        col_count += np.bincount(line[cols], minlength=k)
        last = np.searchsorted(grid, price[rows] + EPS, side="right") - 1
        np.add.at(right_hits, (line[rows], last + 1), bits[rows])
        row_count += np.bincount(line[rows], minlength=k)
    left = np.cumsum(left_hits[:k], axis=0) / np.maximum(col_count, 1)[None, :]
    right = np.cumsum(right_hits[:, ::-1], axis=1)[:, ::-1][:, 1:] / np.maximum(row_count, 1)[:, None]
    return left, right


def play_block(record: StreamRecorder, rng: np.random.Generator, rounds: int, couples: tuple[np.ndarray, np.ndarray],
               weights: np.ndarray, values: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """`rounds` i.i.d. rounds posting couple i = (p_i, q_i) with probability weights_i, from counts: pulls
    multinomial, trades binomial with each couple's trade probability (values = (GFT, P(trade)) per couple).
    Exact in distribution when no round can be halted. Returns (pulls, trades) per couple."""
    p, q = couples
    gft, trade_prob = values
    n = rng.multinomial(rounds, weights)
    trades = rng.binomial(n, trade_prob)
    margin = q - p
    record.add_block(rounds, float(n @ gft), float(trades @ margin), EXPLOIT, p, q, n,
                     worst_loss=float(trades @ np.maximum(-margin, 0.0)))
    return n, trades


def _exploit(record: StreamRecorder, dist: ValuationDistribution, rng: np.random.Generator, schedule: Schedule,
             objective_base: np.ndarray) -> int:
    """Phase 3: the optimistic LP of `gbb_one_bit_paper_learner`, its batches from counts when no halt can
    happen, else round by round. Returns the number of LP solves."""
    grid, k = schedule.grid, schedule.grid_points
    margin = (grid[None, :] - grid[:, None]).ravel()
    p_cell, q_cell = np.repeat(grid, k), np.tile(grid, k)
    table = gft_table(dist, p_cell, q_cell)
    trade_prob = np.clip(table["trade"], 0.0, 1.0)
    pulls, total = np.zeros(k * k), np.zeros(k * k)
    low, high, worst_loss = np.minimum(margin, 0.0), np.maximum(margin, 0.0), -margin
    start, solves = record.t, 0
    while record.remaining > 0:
        with np.errstate(divide="ignore", invalid="ignore"):
            radius = np.abs(margin) * np.sqrt(2.0 * schedule.confidence_log / pulls)
            ucb = np.clip(np.where(pulls > 0, total / pulls + radius, high), low, high)
        affordable = np.flatnonzero(worst_loss <= record.budget)
        _, support, weights = two_pair_optimum(objective_base[affordable] + ucb[affordable], ucb[affordable],
                                               record.budget / record.remaining)
        solves += 1
        cells = affordable[support]
        batch = lp_batch(record.remaining, record.t - start, pulls[cells])
        w = np.asarray(weights, dtype=float) / float(np.sum(weights))
        loss = float(max(worst_loss[cells].max(), 0.0))
        if record.budget - batch * loss >= 1e-9:  # no round of the batch can be halted
            for piece in _pieces(record, batch):
                n, trades = play_block(record, rng, piece, (p_cell[cells], q_cell[cells]), w,
                                       (table["gft"][cells], trade_prob[cells]))
                pulls[cells] += n
                total[cells] += trades * margin[cells]
        else:
            drawn = rng.choice(cells, size=batch, p=w)
            bits, played = record.play_rounds(dist, rng, p_cell[drawn], q_cell[drawn], EXPLOIT)
            drawn = drawn[: len(bits)][played]
            pulls += np.bincount(drawn, minlength=k * k)
            total += np.bincount(drawn, weights=bits[played] * margin[drawn], minlength=k * k)
    return solves


def stream_learner(name: str, dist: ValuationDistribution, rng: np.random.Generator, horizon: int,
                   checkpoints: np.ndarray, best_price: float, grid_offset: float | None) -> StreamRun:
    """Run a streamed learner (`STREAMED`) for `horizon` rounds, recording at `checkpoints`."""
    record = StreamRecorder(horizon, np.asarray(checkpoints, dtype=np.int64))
    if name == "fixed_price":  # p = q = x* every round: GFT(x*, x*) per round, no profit
        fixed = float(gft_table(dist, np.array([best_price]), np.array([best_price]))["gft"][0])
        for piece in _pieces(record, horizon):
            record.add_block(piece, fixed * piece, 0.0, EXPLOIT, np.array([best_price]), np.array([best_price]),
                             np.array([piece]))
        return StreamRun(name, record, grid_points=1)
    if name != "gbb_one_bit_paper":
        raise ValueError(f"learner {name!r} is not streamed (only {', '.join(STREAMED)})")
    schedule = paper_schedule(horizon, grid_offset)
    _collect(record, dist, rng, schedule.budget_target, schedule.grid_points)
    left, right = _explore(record, dist, rng, schedule.grid, schedule.samples_per_line)
    _exploit(record, dist, rng, schedule, (left + right).ravel())
    return StreamRun(name, record, grid_points=schedule.grid_points)
