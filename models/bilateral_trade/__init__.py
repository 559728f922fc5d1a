"""Online bilateral trade under global budget balance with one-/two-bit feedback (Lunghi et al. 2026)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named example inputs: the paper's separating distributions and two sanity checks."""
    four = ["fixed_price", "wbb_one_bit", "gbb_one_bit", "gbb_full"]
    wbb = ["fixed_price", "wbb_one_bit", "wbb_two_bit"]
    return {
        "Two separated markets (GBB beats every fixed price)": {
            "distribution": {"kind": "two_markets"},
            "horizon": 65536,
            "seeds": 3,
            "learners": four,
        },
        "Factor-two atoms, eta = 0.01 (GBB is 1.92 x the best fixed price)": {
            "distribution": {"kind": "factor_two", "eta": 0.01},
            "horizon": 65536,
            "seeds": 3,
            "learners": ["fixed_price", "wbb_one_bit", "gbb_one_bit"],
            "grid_size": 101,
        },
        "Two small squares (bounded-density factor two)": {
            "distribution": {"kind": "two_squares", "eta": 0.01, "width": 0.05},
            "horizon": 65536,
            "seeds": 3,
            "learners": four,
        },
        "Independent uniform (GBB = fixed price = 1/8)": {
            "distribution": {"kind": "uniform"},
            "horizon": 32768,
            "seeds": 3,
            "learners": four,
        },
        "WBB feedback: one bit vs two bits, independent uniform, T = 2^18": {
            "distribution": {"kind": "uniform"},
            "horizon": 1 << 18,
            "seeds": 5,
            "learners": wbb,
        },
        "Gaussian copula, rho = -0.5": {
            "distribution": {"kind": "gaussian_copula", "rho": -0.5},
            "horizon": 32768,
            "seeds": 3,
            "learners": four,
        },
        "Long run: T = 2^20, 5 seeds, one-bit GBB learner": {
            "distribution": {"kind": "two_markets"},
            "horizon": 1 << 20,
            "seeds": 5,
            "learners": ["wbb_one_bit", "gbb_one_bit"],
        },
    }


ABOUT = r"""
Each round a seller with value $s$ and a buyer with value $b$ arrive, $(s, b)$ drawn i.i.d. from an
unknown joint distribution $D$ on $[0,1]^2$. The broker posts $p$ to the seller and $q$ to the buyer;
they trade iff $s \le p$ and $b \ge q$. The gain from trade is $(b - s)\,1\{\text{trade}\}$ and the
broker's profit is $(q - p)\,1\{\text{trade}\}$. **Weak budget balance (WBB)** asks $p \le q$ every
round; **global budget balance (GBB)** only asks the cumulative profit to stay $\ge 0$, which lets the
broker subsidise some trades with the profit of others and can double the GFT. With **one-bit
feedback** the broker sees only whether a trade happened.

The paper's learner (regret $\tilde O(T^{3/4})$ against the best GBB distribution over price couples,
when $D$ has a bounded density):

1. **Profit collection**: post profitable WBB couples until the budget reaches a target $\beta$.
2. **Exploration** on a $K \times K$ price grid, $K \approx T^{1/4}$: post one uniformly random price
   and one grid price. Because $L(p,q) = E[(p - s)1\{\text{trade}\}] = \int_0^p P(s \le u, b \ge q)\,du$,
   a trade bit at $(U, q_j)$ updates the whole column $L(\cdot, q_j)$; likewise $(p_i, V)$ updates the
   row $R(p_i, \cdot)$ of $R(p,q) = E[(b - q)1\{\text{trade}\}]$. So $2K$ lines cover all $K^2$ couples.
3. **Optimistic constrained phase**: $\text{GFT} = L + R + \text{profit}$ cell by cell; solve the LP
   $\max_x \sum x\,(\hat L + \hat R + \overline{\text{profit}})$ s.t. $\sum x\,\overline{\text{profit}} \ge -\text{budget}/\text{rounds left}$,
   $\sum x = 1$, with upper confidence bounds on the profit (its optimum has at most two couples);
   post the couples in proportion to $x$, observe the realised profits, re-solve in growing batches.
4. A **guard** never posts a subsidised couple whose loss the current budget cannot cover (it posts a
   profitable WBB couple first), so the realised cumulative profit is never negative.

Benchmarks are exact where possible (first best, best fixed price, and the GBB optimum for discrete
$D$); otherwise the GBB optimum is the LP over a $K \times K$ grid solved with HiGHS (a lower bound,
raised to the exact best fixed price when that is larger). Regret is
$T \cdot \text{OPT} - \sum_t E[\text{GFT}(p_t, q_t)]$, the expected GFT of the posted couples.

**Two-bit WBB learner** (explore-then-commit over fixed prices, in the spirit of Cesa-Bianchi et al.
2021). With *two-bit feedback* the broker sees $1\{s \le p\}$ and $1\{b \ge q\}$ separately (never
$s$ or $b$). It explores with exactly the one-bit learner's couples (for each grid price $x$: $n$
rounds at $(Ux, x)$ and $n$ at $(x, x + U(1-x))$, all with $p \le q$), but from them estimates
$F(x) = P(s \le x)$, $G(x) = P(b \ge x)$ at every grid price (the bit of the side posted at $x$) and
$I_S(x) = \int_0^x F = E[(x-s)^+]$, $I_B(x) = \int_x^1 G = E[(b-x)^+]$ at **every** grid price from
**every** round (the random side's bit, reweighted by the known density of the random prices).
*If $s$ and $b$ are independent*, $\text{GFT}(x) = G(x) I_S(x) + F(x) I_B(x)$, which is far less noisy
than the one-bit estimate. It is not assumed blindly: the same rounds give the one-bit estimate
(valid for any $D$), a z-test at level 1% compares the two at every grid price, and on rejection
the learner uses the one-bit estimate (then it commits exactly like the one-bit learner). Without
rejection the product estimate is kept inside the one-bit confidence interval, so a dependence the
test misses costs at most twice the one-bit confidence radius. The integrals and point values need
no independence; only the product form does. It commits to the best estimated grid price.

*Implementation choices* (advanced settings): the profit-collection couple is the most profitable
of a few coarse WBB couples; the profit UCB of a cell is also capped using the exploration data
($P(\text{trade})$ is monotone, so secants of $\hat L$ and $\hat R$ bound it); confidence radii are
Bernstein-type with a multiplier of 0.25 by default; the full-feedback reference re-solves the
empirical LP with a lower confidence bound on the profit.
"""

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
)
