"""Result of a bilateral trade run: benchmarks, per-learner regret summaries and the figure data."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, MethodResult

__all__ = [
    "BenchmarkSummary",
    "DistributionSummary",
    "LearnerCurves",
    "LearnerSummary",
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
    kind: str
    label: str
    density_bound: float | None = Field(
        description="Sup of the joint density; None when infinite (atoms or copula corners)."
    )
    discrete: bool


class BenchmarkSummary(BaseModel):
    """Per-round GFT of each benchmark (Lunghi et al. 2026)."""

    first_best: float
    fixed_price: float
    fixed_price_x: float
    wbb: float
    wbb_grid: float
    gbb: float
    gbb_method: str
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


class LearnerSummary(BaseModel):
    """Final numbers of one learner, averaged over seeds (profit minimum over seeds and rounds)."""

    label: str
    final_regret_vs_gbb: float
    final_regret_vs_wbb: float
    regret_slope_vs_gbb: float | None
    regret_slope_vs_wbb: float | None
    min_cumulative_profit: float
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
    checkpoints: list[int]
    curves: dict[str, LearnerCurves]
    scan_horizons: list[int]
    heatmap_learner: str | None
    heatmap_edges: list[float]
    heatmap_counts: list[list[float]]
    valuation_sample: list[tuple[float, float]]

    def metrics(self) -> dict[str, float | int | str]:
        b = self.benchmarks
        out: dict[str, float | int | str] = {
            "First-best GFT per round": round(b.first_best, 6),
            "Best fixed price (WBB) GFT per round": round(b.fixed_price, 6),
            "GBB optimum GFT per round": round(b.gbb, 6),
            "GBB / fixed price": round(b.gbb_over_fixed, 4) if b.gbb_over_fixed is not None else "n/a",
            "Density bound": "infinite"
            if self.distribution.density_bound is None
            else round(self.distribution.density_bound, 3),
        }
        for name, s in self.learners.items():
            out[f"{name}: regret vs GBB at T (GFT units)"] = round(s.final_regret_vs_gbb, 2)
            out[f"{name}: log-log slope vs GBB"] = (
                "n/a" if s.regret_slope_vs_gbb is None else round(s.regret_slope_vs_gbb, 3)
            )
            out[f"{name}: min cumulative profit"] = round(s.min_cumulative_profit, 6)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {"regret.csv": Artifact.csv(self.regret_csv())}

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
