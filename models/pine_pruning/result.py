"""Result of PINE pruning: per seed, the alpha curve, whole-space and accuracy pruning, the full ensemble."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number
from models.pine_pruning.claims import CHECK_ALPHA

__all__ = ["AccuracyPruning", "CurvePoint", "FaithfulSummary", "Result", "SeedRun", "WeightVector"]

COMPETITORS = {"pine": "PINE (α = 0.1)", "whole_space": "whole-space faithful (FIPE-style, MILP oracle)",
               "accuracy": "accuracy pruning (reduce-error)", "full": "full ensemble"}


class FaithfulSummary(BaseModel):
    """A faithful pruning (region or whole space): size, agreement, and the oracle's evidence."""

    trees_kept: int
    test_agreement: float = Field(description="fraction of test points where the pruned class equals the full one")
    test_accuracy: float
    rounds: int
    converged: bool = Field(description="the MILP oracle proved the returned weights equivalent")
    fell_back: bool = Field(description="the full ensemble was returned (nothing prunable, or no proof in time)")
    oracle_calls: int
    oracle_seconds: float
    seconds: float
    constraint_points: int
    fresh_points: int = Field(description="fresh region (or box) points of the sampling re-check")
    fresh_disagreements: int
    trees_per_round: list[int]
    searched_per_round: list[int]
    milp_per_round: list[int]


class CurvePoint(FaithfulSummary):
    """PINE at one conformal level alpha."""

    alpha: float
    threshold: float = Field(description="Chow-Liu log-likelihood threshold of the region")
    test_coverage: float = Field(description="fraction of test points inside the region (target >= 1 - alpha)")


class AccuracyPruning(BaseModel):
    trees_kept: int
    test_agreement: float
    test_accuracy: float


class SeedRun(BaseModel):
    seed: int
    full_test_accuracy: float
    curve: list[CurvePoint]
    whole_space: FaithfulSummary
    accuracy_pruning: AccuracyPruning

    def at_check_alpha(self) -> CurvePoint:
        return min(self.curve, key=lambda p: abs(p.alpha - CHECK_ALPHA))

    def increases(self) -> int:
        kept = [p.trees_kept for p in sorted(self.curve, key=lambda p: p.alpha)]
        return sum(1 for a, b in zip(kept, kept[1:], strict=False) if b > a)


class WeightVector(BaseModel):
    method: str
    weights: list[float]


class Result(MethodResult):
    dataset: str
    ensemble: str
    features: int
    classes: int
    total_trees: int = Field(description="regression trees of the boosted ensemble (stages x K for K > 2), or forest trees")
    train_size: int
    calibration_size: int
    test_size: int
    solver: str
    per_seed: list[SeedRun]
    weights: list[WeightVector] = Field(description="first seed")
    seconds: float

    def _mean(self, values: list[float]) -> float:
        return sum(values) / len(values)

    def metrics(self) -> dict[str, float | int | str]:
        runs = self.per_seed
        pine = [r.at_check_alpha() for r in runs]
        return {
            "Ensemble": f"{self.ensemble.replace('_', ' ')}, {self.total_trees} trees",
            "Full ensemble: test accuracy": round(self._mean([r.full_test_accuracy for r in runs]), 4),
            f"PINE α = {pine[0].alpha:g}: trees kept (mean)": round(self._mean([p.trees_kept for p in pine]), 1),
            f"PINE α = {pine[0].alpha:g}: test agreement (mean)": round(self._mean([p.test_agreement for p in pine]), 4),
            "Whole space: trees kept (mean)": round(self._mean([r.whole_space.trees_kept for r in runs]), 1),
            "Accuracy pruning: trees kept (mean)": round(self._mean([r.accuracy_pruning.trees_kept for r in runs]), 1),
            "Accuracy pruning: test agreement (mean)":
                round(self._mean([r.accuracy_pruning.test_agreement for r in runs]), 4),
            "Prunings proved by the MILP oracle": f"{sum(p.converged for r in runs for p in [*r.curve, r.whole_space])}"
                                                  f" of {sum(len(r.curve) + 1 for r in runs)}",
            "Oracle MILP time (s, all prunings)":
                round(sum(p.oracle_seconds for r in runs for p in [*r.curve, r.whole_space]), 1),
            "Seeds": len(runs),
            "Run time (s)": round(self.seconds, 1),
        }

    def tables(self) -> list[Table]:
        """Every pruning of every seed, and the conformal regions of the first seed."""
        return [self._prunings(), self._regions()]

    @staticmethod
    def _faithful(seed: int, method: str, p: FaithfulSummary) -> dict[str, Cell]:
        proved = ("yes" if p.converged else "no") + (" (full ensemble returned)" if p.fell_back else "")
        return {"seed": seed, "method": method, "kept": p.trees_kept, "agreement": p.test_agreement,
                "accuracy": p.test_accuracy, "rounds": p.rounds, "proved": proved, "calls": p.oracle_calls,
                "time": p.oracle_seconds, "fresh": f"{p.fresh_disagreements} of {p.fresh_points}"}

    def _prunings(self) -> Table:
        rows: list[dict[str, Cell]] = []
        for s in self.per_seed:
            rows.extend(self._faithful(s.seed, f"PINE α = {number(p.alpha, 3)}", p)
                        for p in sorted(s.curve, key=lambda p: p.alpha))
            rows.append(self._faithful(s.seed, "whole-space faithful (MILP oracle)", s.whole_space))
            a = s.accuracy_pruning
            rows.append({"seed": s.seed, "method": "accuracy pruning (reduce-error)", "kept": a.trees_kept,
                         "agreement": a.test_agreement, "accuracy": a.test_accuracy})
        caption = ("'proved by the MILP': the exact oracle found no point of the region (whole space: of the input "
                   "space) where the returned ensemble's class differs. 'fresh disagreements': a sampling re-check "
                   "after the proof.")
        return Table(title=f"Prunings per seed ({self.ensemble.replace('_', ' ')}, {self.total_trees} trees)",
                     caption=caption, rows=rows, columns=[
                         Column(key="seed", label="seed"), Column(key="method", label="method", fmt="text"),
                         Column(key="kept", label="trees kept"),
                         Column(key="agreement", label="test agreement", digits=3),
                         Column(key="accuracy", label="test accuracy", digits=3), Column(key="rounds", label="rounds"),
                         Column(key="proved", label="proved by the MILP", fmt="text"),
                         Column(key="calls", label="MILP calls"), Column(key="time", label="MILP time", unit="s", digits=2),
                         Column(key="fresh", label="fresh disagreements", fmt="text")])

    def _regions(self) -> Table:
        rows: list[dict[str, Cell]] = [
            {"alpha": p.alpha, "level": 1 - p.alpha, "coverage": p.test_coverage, "threshold": p.threshold,
             "points": p.constraint_points} for p in sorted(self.per_seed[0].curve, key=lambda p: p.alpha)]
        return Table(title="Conformal regions (first seed)", rows=rows, columns=[
            Column(key="alpha", label="α", digits=3), Column(key="level", label="1 - α", digits=3),
            Column(key="coverage", label="test coverage", digits=3),
            Column(key="threshold", label="log-likelihood threshold", digits=4),
            Column(key="points", label="program points")])

    def artifacts(self) -> dict[str, Artifact]:
        curve = io.StringIO()
        curve.write("seed,method,alpha,trees_kept,test_agreement,test_accuracy,test_coverage,rounds,converged,"
                    "fell_back,oracle_calls,oracle_seconds,fresh_points,fresh_disagreements\n")
        for r in self.per_seed:
            for name, p in [*(("pine", q) for q in r.curve), ("whole_space", r.whole_space)]:
                alpha = getattr(p, "alpha", "")
                coverage = f"{p.test_coverage:.6f}" if isinstance(p, CurvePoint) else ""
                curve.write(f"{r.seed},{name},{alpha},{p.trees_kept},{p.test_agreement:.6f},{p.test_accuracy:.6f},"
                            f"{coverage},{p.rounds},{p.converged},{p.fell_back},{p.oracle_calls},"
                            f"{p.oracle_seconds:.3f},{p.fresh_points},{p.fresh_disagreements}\n")
            a = r.accuracy_pruning
            curve.write(f"{r.seed},accuracy_pruning,,{a.trees_kept},{a.test_agreement:.6f},{a.test_accuracy:.6f}"
                        ",,,,,,,,\n")
        weights = io.StringIO()
        weights.write("tree," + ",".join(v.method for v in self.weights) + "\n")
        for t in range(self.total_trees):
            weights.write(f"{t}," + ",".join(f"{v.weights[t]:.6g}" for v in self.weights) + "\n")
        return {"prunings.csv": Artifact.csv(curve.getvalue()), "weights.csv": Artifact.csv(weights.getvalue())}
