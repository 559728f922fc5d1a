"""Result of a bilateral trade run: benchmarks, per-learner regret summaries and the figure data."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.bilateral_trade.learners import GBB_LEARNERS
from models.common.contract import Answer, Artifact, Cell, Column, MethodResult, Table

__all__ = [
    "BenchmarkSummary",
    "DistributionSummary",
    "LearnerCurves",
    "LearnerSummary",
    "PhaseRegret",
    "PhaseSpan",
    "PriceCouple",
    "Result",
]


class PriceCouple(BaseModel):
    """One price couple of a GBB solution: seller price p, buyer price q, its weight and values."""

    p: float
    q: float
    weight: float
    gft: float
    profit: float


class DistributionSummary(BaseModel):
    """The valuation distribution and its badges: bounded density, and whether T^(3/4) applies."""

    kind: str
    label: str
    density_bound: float | None = Field(
        description="Sup of the joint density; None when infinite (atoms or copula corners)."
    )
    discrete: bool
    guarantee_applies: bool = Field(
        description="The paper's O~(T^(3/4)) regret guarantee needs a bounded joint density."
    )
    badge: str


class BenchmarkSummary(BaseModel):
    """Per-round GFT of each benchmark (Lunghi et al. 2026); gbb = gbb_lower <= GBB <= gbb_upper."""

    first_best: float
    fixed_price: float
    fixed_price_x: float
    wbb: float
    wbb_grid: float
    gbb: float
    gbb_method: str
    gbb_lower: float
    gbb_upper: float
    gbb_lower_method: str
    gbb_upper_method: str
    gbb_multiplier: float | None
    gbb_lp: float
    lp_grid_size: int
    lp_support: list[PriceCouple]
    gbb_exact: float | None
    exact_support: list[PriceCouple]
    gbb_over_fixed: float | None
    fixed_le_gbb: bool
    gbb_le_first_best: bool
    gbb_le_twice_fixed: bool


class PhaseSpan(BaseModel):
    phase: str
    start: int
    end: int
    rounds: int


class PhaseRegret(BaseModel):
    """Regret against GBB accumulated in each phase (mean over seeds); the four add up to the total."""

    collection: float
    exploration: float
    exploitation: float
    guard: float


class LearnerSummary(BaseModel):
    """Final numbers of one learner, averaged over seeds (profit minimum over seeds and rounds)."""

    label: str
    family: str
    final_regret_vs_gbb: float
    final_regret_vs_wbb: float
    regret_slope_vs_gbb: float | None = Field(description="Median over seeds of the log-log slope.")
    regret_slope_iqr: tuple[float, float] | None = Field(description="[q25, q75] of the per-seed slopes.")
    regret_slopes_per_seed: list[float | None]
    regret_slope_vs_wbb: float | None
    regret_by_phase: PhaseRegret
    crossing_round: int | None = Field(
        description="Round from which the seed-mean regret stays below the best fixed price's; None if never."
    )
    win_horizon: float | None = Field(
        description="Horizon at which the fit through the largest four horizons meets the fixed price's regret."
    )
    win_horizon_at_rate: float | None = Field(
        description="Horizon at which it would meet the fixed price's regret if its regret grew like T^(3/4) from T."
    )
    min_cumulative_profit: float
    min_profit_per_seed: list[float] = Field(default_factory=list, description="Per seed, over rounds and horizons.")
    final_cumulative_profit: float
    average_gft: float
    grid_points: int
    guard_rounds: float
    phases: list[PhaseSpan]
    notes: str = ""


class LearnerCurves(BaseModel):
    """Curves at the checkpoint rounds, one list per seed; scan = final regret per horizon (mean)."""

    regret_vs_gbb: list[list[float]]
    regret_vs_wbb: list[list[float]]
    cumulative_profit: list[list[float]]
    scan_regret_vs_gbb: list[float]
    scan_regret_vs_wbb: list[float]
    scan_per_seed_vs_gbb: list[list[float]]
    scan_per_seed_vs_wbb: list[list[float]]
    scan_profit: list[list[float]]


class Result(MethodResult):
    distribution: DistributionSummary
    benchmarks: BenchmarkSummary
    learners: dict[str, LearnerSummary]
    horizon: int
    seeds: int
    grid_offsets: list[float] = Field(description="The learners' random grid offset u of each seed.")
    checkpoints: list[int]
    curves: dict[str, LearnerCurves]
    scan_horizons: list[int]
    heatmap_learner: str | None
    heatmap_edges: list[float]
    heatmap_counts: list[list[float]]
    valuation_sample: list[tuple[float, float]]

    def answer(self) -> Answer:
        """Where the paper's learner (else the practical one) stands against the best fixed price at T."""
        gap = self.benchmarks.gbb - self.benchmarks.fixed_price
        name = next((n for n in ("gbb_one_bit_paper", *GBB_LEARNERS) if n in self.learners), None)
        if name is None:
            return Answer("No GBB one-bit learner run", "info", "select gbb_one_bit or gbb_one_bit_paper")
        if gap <= 1e-9:
            return Answer("GBB = best fixed price here", "info",
                           "this distribution gives a distribution over couples no advantage over one fixed price")
        s = self.learners[name]
        fixed = gap * self.horizon
        detail = (f"{s.label}: regret {s.final_regret_vs_gbb:,.0f} vs the best fixed price's {fixed:,.0f} at "
                  f"T = {self.horizon:,}")
        if s.crossing_round is not None and s.final_regret_vs_gbb < fixed:
            return Answer(f"{s.label} beats the best fixed price from round {s.crossing_round:,}", "success", detail)
        return Answer(f"{s.label} is still above the best fixed price at T = {self.horizon:,}", "warning",
                       detail + f" ({s.final_regret_vs_gbb / fixed:.2f} x)")

    def tables(self) -> list[Table]:
        """The benchmark checks, the optimal distribution over price couples, and the learners at T."""
        b = self.benchmarks
        checks = Table(title="Benchmark checks", columns=[Column(key="check", label="check", fmt="text"),
                                                          Column(key="holds", label="holds", fmt="mark")],
                       rows=[{"check": "fixed price <= GBB", "holds": b.fixed_le_gbb},
                             {"check": "GBB <= first best", "holds": b.gbb_le_first_best},
                             {"check": "GBB <= 2 x fixed price", "holds": b.gbb_le_twice_fixed}])
        support = Table(title="The optimal distribution over price couples",
                        columns=[Column(key=key, label=key) for key in PriceCouple.model_fields],
                        rows=[c.model_dump() for c in (b.exact_support or b.lp_support)],
                        caption="The optimal distribution over price couples (at most two): the subsidised couple "
                        "(q < p) trades more, the profitable one pays for it.")
        fixed = (b.gbb - b.fixed_price) * self.horizon
        rows: list[dict[str, Cell]] = [{
            "learner": s.label, "regret": s.final_regret_vs_gbb,
            "times_fixed": s.final_regret_vs_gbb / fixed if fixed > 0 else None, "slope": s.regret_slope_vs_gbb,
            "iqr": None if s.regret_slope_iqr is None else f"{s.regret_slope_iqr[0]:.3f}-{s.regret_slope_iqr[1]:.3f}",
            "crossing": "not by T" if s.crossing_round is None else str(s.crossing_round),
            "wins": " / ".join("—" if v is None else f"{v:.2g}" for v in (s.win_horizon, s.win_horizon_at_rate)),
            "profit": s.min_cumulative_profit, "guard": int(s.guard_rounds), "grid": s.grid_points}
            for s in self.learners.values()]
        learners = Table(
            title="Learners at T", rows=rows,
            columns=[Column(key="learner", label="learner", fmt="text"), Column(key="regret", label="regret vs GBB"),
                     Column(key="times_fixed", label="x fixed price", digits=3),
                     Column(key="slope", label="slope (median)", digits=3), Column(key="iqr", label="slope IQR", fmt="text"),
                     Column(key="crossing", label="below fixed price from round", fmt="text"),
                     Column(key="wins", label="wins from T (fit / 3/4 rate)", fmt="text"),
                     Column(key="profit", label="lowest cumulative profit"), Column(key="guard", label="guard rounds"),
                     Column(key="grid", label="grid K")],
            caption=f"T = {self.horizon:,}, {self.seeds} seeds, random grid offsets. Regret = T x gbb_lower - sum of the expected GFT of the posted couples. The paper proves slope 3/4 "
            "for its one-bit GBB learner when D has a bounded density.")
        return [checks, support, learners]

    def metrics(self) -> dict[str, float | int | str]:
        b = self.benchmarks
        out: dict[str, float | int | str] = {
            "First-best GFT per round": round(b.first_best, 6),
            "Best fixed price (WBB) GFT per round": round(b.fixed_price, 6),
            "GBB optimum GFT per round, lower bound": round(b.gbb_lower, 6),
            "GBB optimum GFT per round, upper bound": round(b.gbb_upper, 6),
            "GBB / fixed price": round(b.gbb_over_fixed, 4) if b.gbb_over_fixed is not None else "n/a",
            "Density bound": "infinite"
            if self.distribution.density_bound is None
            else round(self.distribution.density_bound, 3),
        }
        for name, s in self.learners.items():
            out[f"{name}: regret vs GBB at T (GFT units)"] = round(s.final_regret_vs_gbb, 2)
            out[f"{name}: log-log slope vs GBB (median over seeds)"] = (
                "n/a" if s.regret_slope_vs_gbb is None else round(s.regret_slope_vs_gbb, 3)
            )
            out[f"{name}: min cumulative profit"] = round(s.min_cumulative_profit, 6)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {"regret.csv": Artifact.csv(self.regret_csv()), "phases.csv": Artifact.csv(self.phase_csv())}

    def phase_csv(self) -> str:
        """Rows (learner, phase, regret vs GBB, rounds of seed 0): the stacked bar of the page."""
        buffer = io.StringIO()
        buffer.write("learner,phase,regret_vs_gbb\n")
        for name, s in self.learners.items():
            for phase, value in s.regret_by_phase.model_dump().items():
                buffer.write(f"{name},{phase},{value:.6f}\n")
        return buffer.getvalue()

    def regret_csv(self) -> str:
        """Rows (horizon T, round, learner, seed, regret vs GBB, regret vs WBB, cumulative profit):
        the curves of the run at T and the final values of every horizon of the doubling grid."""
        buffer = io.StringIO()
        buffer.write("T,round,learner,seed,regret_vs_gbb,regret_vs_wbb,cumulative_profit\n")
        for name, c in self.curves.items():
            for seed in range(self.seeds):
                for k, t in enumerate(self.checkpoints):
                    buffer.write(
                        f"{self.horizon},{t},{name},{seed},{c.regret_vs_gbb[seed][k]:.6f},"
                        f"{c.regret_vs_wbb[seed][k]:.6f},{c.cumulative_profit[seed][k]:.6f}\n"
                    )
                for h, horizon in enumerate(self.scan_horizons[:-1]):
                    buffer.write(
                        f"{horizon},{horizon},{name},{seed},{c.scan_per_seed_vs_gbb[seed][h]:.6f},"
                        f"{c.scan_per_seed_vs_wbb[seed][h]:.6f},{c.scan_profit[seed][h]:.6f}\n"
                    )
        return buffer.getvalue()
