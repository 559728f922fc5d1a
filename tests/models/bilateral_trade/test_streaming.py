"""The streamed paper learner (horizons to 2^26) against the per-round one it summarises."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from models.bilateral_trade.benchmarks import compute_benchmarks
from models.bilateral_trade.distributions import gft_table
from models.bilateral_trade.experiment import run_learner
from models.bilateral_trade.market import EXPLOIT
from models.bilateral_trade.schedule import LearnerSettings
from models.bilateral_trade.stream_market import StreamRecorder
from models.bilateral_trade.streaming import from_log, play_block, stream_learner
from tests.models.bilateral_trade.conftest import make_dist, make_pools

T = 1 << 14
SEEDS = 40


def _both(kind: str, horizon: int, seeds: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per-round and streamed paper learner over `seeds` seeds: final regret vs GBB, the regret of each
    phase and the rounds of each phase."""
    dist = make_dist(kind)
    bench = compute_benchmarks(dist, 200)
    checkpoints = np.array([horizon // 4, horizon // 2, horizon])
    out: dict[str, tuple[list[float], list[float]]] = {}
    for s in range(seeds):
        log = run_learner("gbb_one_bit_paper", dist, make_pools(dist, horizon, s), np.random.default_rng([s, 1]),
                          LearnerSettings(), bench.fixed_price_x, 0.37)
        runs = (from_log(log, checkpoints), stream_learner("gbb_one_bit_paper", dist, np.random.default_rng([s, 2]),
                                                           horizon, checkpoints, bench.fixed_price_x, 0.37))
        assert runs[1].min_profit() >= 0.0 and runs[1].record.t == horizon
        for side, run in enumerate(runs):
            values = {"final": run.final_regret(bench.gbb)} | run.regret_by_phase(bench.gbb)
            values |= {f"rounds {c}": float(n) for c, n in enumerate(run.record.phase_rounds)}
            for key, value in values.items():
                out.setdefault(key, ([], []))[side].append(value)
    return {key: (np.array(a), np.array(b)) for key, (a, b) in out.items()}


def _agree(samples: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """Every quantity's two means within 4 standard errors of their difference (plus a rounding slack)."""
    for key, (a, b) in samples.items():
        se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        assert abs(a.mean() - b.mean()) <= 4 * se + 1e-6 * max(abs(a.mean()), 1.0), (key, a.mean(), b.mean(), se)


def test_the_streamed_learner_agrees_with_the_per_round_one_in_distribution() -> None:
    """Two squares at 2^18 reaches all four phases (collection, exploration, the LP, the guard)."""
    samples = _both("two_squares", 1 << 18, SEEDS)
    assert samples["rounds 2"][1].min() > 0, "the LP phase ran"
    _agree(samples)


@pytest.mark.slow
def test_the_streamed_learner_agrees_on_two_markets_at_two_to_the_twenty() -> None:
    _agree(_both("two_markets", 1 << 20, 24))


def test_the_fixed_price_streamed_is_exact() -> None:
    dist = make_dist("two_markets")
    bench = compute_benchmarks(dist, 200)
    checkpoints = np.array([1000, 5000, T])
    run = stream_learner("fixed_price", dist, np.random.default_rng(0), T, checkpoints, bench.fixed_price_x, None)
    assert run.checkpoint_regret(bench.gbb) == pytest.approx(checkpoints * (bench.gbb - bench.fixed_price), rel=1e-9)
    assert run.final_profit() == 0.0 and run.record.t == T


def test_a_per_round_log_is_summarised_at_its_checkpoints() -> None:
    dist = make_dist("two_squares")
    bench = compute_benchmarks(dist, 200)
    log = run_learner("gbb_one_bit_paper", dist, make_pools(dist, T, 3), np.random.default_rng(3), LearnerSettings(),
                      bench.fixed_price_x, 0.37)
    checkpoints = np.array([7, 1000, 4096, T])
    run = from_log(log, checkpoints)
    gft, profit = np.cumsum(log.expected_gft), np.cumsum(log.profit)
    assert run.checkpoint_regret(bench.gbb) == pytest.approx(checkpoints * bench.gbb - gft[checkpoints - 1])
    assert run.checkpoint_profit() == pytest.approx(profit[checkpoints - 1])
    assert run.min_profit() == pytest.approx(min(0.0, profit.min()))
    assert sum(span["rounds"] for span in run.spans()) == T


def test_memory_is_set_by_the_learner_not_by_the_horizon() -> None:
    dist = make_dist("two_markets")
    bench = compute_benchmarks(dist, 200)
    tracemalloc.start()
    run = stream_learner("gbb_one_bit_paper", dist, np.random.default_rng(0), 1 << 22, np.array([1 << 22]),
                         bench.fixed_price_x, 0.37)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert run.record.t == 1 << 22 and run.min_profit() >= 0.0
    assert peak < 8 * (1 << 22) / 2, f"peak {peak / 2**20:.1f} MiB: a float array of T rounds is 32 MiB"


def test_a_block_from_counts_matches_the_same_rounds_played_one_by_one() -> None:
    """Fixed couples and weights, 2^20 rounds each way: expected GFT, profit and each couple's trade rate
    agree within 5 standard errors (the budget is large, so no round is halted)."""
    dist = make_dist("two_markets")
    p, q = np.array([0.2, 0.45, 0.5, 0.3]), np.array([0.6, 0.55, 0.45, 0.3])
    w = np.array([0.4, 0.3, 0.2, 0.1])
    table = gft_table(dist, p, q)
    rounds = 1 << 20
    blocks = StreamRecorder(rounds, np.array([rounds]), budget=1e6)
    pulls, trades = play_block(blocks, np.random.default_rng(0), rounds, (p, q), w,
                               (table["gft"], np.clip(table["trade"], 0.0, 1.0)))
    single = StreamRecorder(rounds, np.array([rounds]), budget=1e6)
    rng = np.random.default_rng(1)
    drawn = rng.choice(len(w), size=rounds, p=w)
    bits, played = single.play_rounds(dist, rng, p[drawn], q[drawn], EXPLOIT)
    assert played.all() and pulls.sum() == rounds
    rate_block = trades / pulls
    rate_single = np.bincount(drawn, weights=bits, minlength=len(w)) / np.bincount(drawn, minlength=len(w))
    assert np.all(np.abs(rate_block - rate_single) < 5 * np.sqrt(rate_single * (1 - rate_single) / pulls * 2) + 1e-12)
    assert blocks.gft == pytest.approx(single.gft, rel=5e-3)
    profit_sd = np.sqrt(rounds * float(w @ (q - p) ** 2))
    assert abs(blocks.budget - single.budget) < 5 * profit_sd * np.sqrt(2)
    assert blocks.min_profit <= blocks.budget
