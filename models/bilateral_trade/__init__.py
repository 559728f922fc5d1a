"""Online bilateral trade under global budget balance with one-/two-bit feedback (Lunghi et al. 2026)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown

from .figures import figures
from .learners import LEARNERS
from .learners_gbb import PRACTICAL_DEPARTURES
from .params import STREAMED, Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def _example(kind: dict[str, Any], log2_horizon: int, seeds: int, learners: list[str], **extra: Any) -> dict[str, Any]:
    return {"distribution": dict(kind), "horizon": 1 << log2_horizon, "seeds": seeds, "learners": learners, **extra}


def examples() -> dict[str, dict[str, Any]]:
    """Named example inputs: the paper's separating distributions and two sanity checks."""
    every = list(LEARNERS)
    gbb = ["fixed_price", "wbb_one_bit", "gbb_one_bit", "gbb_one_bit_paper", "gbb_full"]
    wbb = ["fixed_price", "wbb_one_bit", "wbb_two_bit"]
    markets, squares = {"kind": "two_markets"}, {"kind": "two_squares", "eta": 0.01, "width": 0.05}
    uniform = {"kind": "uniform"}
    return {
        "Two separated markets, T = 2^20, 5 seeds (the default, ~20 s)": _example(markets, 20, 5, every),
        "Two small squares (bounded-density factor two), T = 2^20, 5 seeds (~20 s)": _example(squares, 20, 5, gbb),
        "Reproduce the paper: two small squares, T = 2^25, 3 seeds (paper's learner vs fixed price, ~3 min)":
            _example(squares, 25, 3, list(STREAMED)),
        "Reproduce the paper: two separated markets, T = 2^25, 3 seeds (~3 min)":
            _example(markets, 25, 3, list(STREAMED)),
        "Quick look: two separated markets, T = 2^16, 3 seeds (~2 s)": _example(markets, 16, 3, every),
        "Factor-two atoms, eta = 0.01 (GBB is 1.92 x the best fixed price; density unbounded)": _example(
            {"kind": "factor_two", "eta": 0.01}, 16, 3,
            ["fixed_price", "wbb_one_bit", "gbb_one_bit", "gbb_one_bit_paper"], grid_size=101),
        "Independent uniform (GBB = fixed price = 1/8)": _example(uniform, 16, 3, gbb),
        "WBB feedback: one bit vs two bits, independent uniform, T = 2^18": _example(uniform, 18, 5, wbb),
        "Gaussian copula, rho = -0.5 (density unbounded)": _example({"kind": "gaussian_copula", "rho": -0.5}, 16, 3, gbb),
    }


def _input_summary(params: Params) -> str:
    """A short input summary for the history table, e.g. 'two_markets, T = 2^20, 5 seeds'."""
    horizon = params.horizon
    shown = f"2^{horizon.bit_length() - 1}" if horizon & (horizon - 1) == 0 else f"{horizon:,}"
    return f"{params.distribution.kind}, T = {shown}, {params.seeds} seeds"


def _page_resources() -> dict[str, Any]:
    """The learner labels and colours (one home: the registry) and the practical learner's departures."""
    return {
        "learners": {name: {"label": spec.label, "colour": spec.colour} for name, spec in LEARNERS.items()},
        "departures": [d.__dict__ for d in PRACTICAL_DEPARTURES],
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="bilateral_trade",
    nav_title="Bilateral trade",
    title="Online bilateral trade: from fixed prices to distributions",
    paper=Paper(
        title="A Stronger Benchmark for Online Bilateral Trade: From Fixed Prices to Distributions",
        authors="Anna Lunghi, Mattia Piccinato, Matteo Castiglioni, Alberto Marchesi",
        url="https://arxiv.org/abs/2602.05681",
    ),
    summary=(
        "A broker posts a price to a seller and one to a buyer each round and only learns whether they "
        "traded; allowing it to subsidise some trades with the profit of others (global budget balance) "
        "can double the gain from trade. Compare learners that keep every round balanced with the "
        "paper's one-bit learner, whose regret against this stronger benchmark grows like T^(3/4)."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Core demos",
    about=ABOUT,
    examples=examples,
    order=3,
    tags=("online learning", "mechanism design", "linear programming"),
    page_resources=_page_resources,
    input_summary=_input_summary,
    smoke_params={"horizon": 4096, "seeds": 2, "grid_size": 21},
)
