"""Result of PINE pruning: the alpha curve, whole-space and accuracy pruning, the full forest, weights."""

from __future__ import annotations

import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["AccuracyPruning", "CurvePoint", "FaithfulSummary", "FullEnsemble", "Result", "WeightVector"]

AGREEMENT_BAR = 0.9  # the "Must show": test agreement >= 0.9 at alpha = 0.1
CHECK_ALPHA = 0.1


class FaithfulSummary(BaseModel):
    """A faithful pruning (region or whole box): size, agreement, and the evidence behind 'faithful'."""

    trees_kept: int
    test_agreement: float  # fraction of test points where the pruned vote equals the forest's
    test_accuracy: float
    rounds: int
    converged: bool  # the last oracle search found no disagreement
    optimal: bool  # every solve finished within its time limit (MILP: proved optimal)
    exact_on_constraints: bool  # the pruned vote equals the forest's on every point of the program
    constraint_points: int
    searched_points: int
    fresh_points: int  # fresh region (or box) points of the re-check
    fresh_disagreements: int
    trees_per_round: list[int]
    disagreements_per_round: list[int]


class CurvePoint(FaithfulSummary):
    """PINE at one conformal level alpha."""

    alpha: float
    threshold: float  # Chow-Liu log-likelihood threshold of the region
    test_coverage: float  # fraction of test points inside the region (target >= 1 - alpha)
    region_test_agreement: float  # agreement on the test points inside the region


class AccuracyPruning(BaseModel):
    trees_kept: int
    test_agreement: float
    test_accuracy: float


class FullEnsemble(BaseModel):
    trees: int
    test_accuracy: float


class WeightVector(BaseModel):
    method: str
    weights: list[float]


class Result(MethodResult):
    dataset: str
    features: int
    classes: int
    train_size: int
    calibration_size: int
    test_size: int
    solver: str
    chow_liu_parent: list[int]
    full_ensemble: FullEnsemble
    curve: list[CurvePoint]
    whole_space: FaithfulSummary
    accuracy_pruning: AccuracyPruning
    weights: list[WeightVector]

    def at_check_alpha(self) -> CurvePoint | None:
        return next((p for p in self.curve if abs(p.alpha - CHECK_ALPHA) < 1e-9), None)

    def monotone(self) -> bool:
        kept = [p.trees_kept for p in sorted(self.curve, key=lambda p: p.alpha)]
        return all(b <= a for a, b in zip(kept, kept[1:], strict=False))

    def metrics(self) -> dict[str, float | int | str]:
        point = self.at_check_alpha()
        out: dict[str, float | int | str] = {
            "Full forest: trees": self.full_ensemble.trees,
            "Full forest: test accuracy": round(self.full_ensemble.test_accuracy, 4),
            "Whole-space faithful: trees kept": self.whole_space.trees_kept,
            "Whole-space faithful: test agreement": round(self.whole_space.test_agreement, 4),
            "Accuracy pruning: trees kept": self.accuracy_pruning.trees_kept,
            "Accuracy pruning: test agreement": round(self.accuracy_pruning.test_agreement, 4),
            "Trees kept non-increasing in alpha": "yes" if self.monotone() else "no",
        }
        if point is not None:
            out["PINE alpha = 0.1: trees kept"] = point.trees_kept
            out["PINE alpha = 0.1: test agreement"] = round(point.test_agreement, 4)
            out["PINE alpha = 0.1: test coverage of the region"] = round(point.test_coverage, 4)
            out["PINE alpha = 0.1: disagreements on fresh region points"] = \
                f"{point.fresh_disagreements} of {point.fresh_points}"
        return out

    def verdict(self) -> Verdict:
        point = self.at_check_alpha()
        kept = ", ".join(f"{p.trees_kept} at alpha {p.alpha:g}" for p in sorted(self.curve, key=lambda p: p.alpha))
        unconverged = [f"alpha {p.alpha:g}" for p in self.curve if not p.converged]
        if not self.whole_space.converged:
            unconverged.append("whole space")
        search = ("" if not unconverged else
                  f" The oracle still found disagreements in its last round for {', '.join(unconverged)}, so those "
                  "prunings are not faithful yet (more rounds needed).")
        if point is None:
            return Verdict("alpha = 0.1 not in the sweep", "info",
                           f"Trees kept: {kept}; whole space {self.whole_space.trees_kept}.{search}")
        fewer = point.trees_kept < self.whole_space.trees_kept
        agree = point.test_agreement >= AGREEMENT_BAR
        detail = (f"Trees kept: {kept} ({'non-increasing' if self.monotone() else 'not monotone'} in alpha). At alpha "
                  f"0.1: test agreement {point.test_agreement:.3f} (bar {AGREEMENT_BAR}), {point.trees_kept} trees vs "
                  f"{self.whole_space.trees_kept} for whole-space faithful pruning; fresh region re-check: "
                  f"{point.fresh_disagreements} disagreements in {point.fresh_points} points.{search}")
        holds = self.monotone() and fewer and agree
        if holds and not unconverged:
            return Verdict("PINE: fewer trees, faithful in-distribution", "success", detail)
        failed = [name for name, ok in (("monotone in alpha", self.monotone()), ("fewer trees than whole space", fewer),
                                        ("agreement >= 0.9", agree), ("oracle converged", not unconverged)) if not ok]
        return Verdict("Not reproduced here: " + ", ".join(failed), "warning", detail)

    def artifacts(self) -> dict[str, Artifact]:
        curve = io.StringIO()
        curve.write("alpha,threshold,trees_kept,test_agreement,region_test_agreement,test_coverage,test_accuracy,"
                    "rounds,converged,fresh_points,fresh_disagreements\n")
        for p in self.curve:
            curve.write(f"{p.alpha},{p.threshold:.6f},{p.trees_kept},{p.test_agreement:.6f},"
                        f"{p.region_test_agreement:.6f},{p.test_coverage:.6f},{p.test_accuracy:.6f},{p.rounds},"
                        f"{p.converged},{p.fresh_points},{p.fresh_disagreements}\n")
        methods = io.StringIO()
        methods.write("method,trees_kept,test_agreement,test_accuracy\n")
        methods.write(f"full_ensemble,{self.full_ensemble.trees},1.0,{self.full_ensemble.test_accuracy:.6f}\n")
        for p in self.curve:
            methods.write(f"pine_alpha_{p.alpha:g},{p.trees_kept},{p.test_agreement:.6f},{p.test_accuracy:.6f}\n")
        w = self.whole_space
        methods.write(f"whole_space,{w.trees_kept},{w.test_agreement:.6f},{w.test_accuracy:.6f}\n")
        a = self.accuracy_pruning
        methods.write(f"accuracy_pruning,{a.trees_kept},{a.test_agreement:.6f},{a.test_accuracy:.6f}\n")
        weights = io.StringIO()
        weights.write("tree," + ",".join(v.method for v in self.weights) + "\n")
        for t in range(self.full_ensemble.trees):
            weights.write(f"{t}," + ",".join(f"{v.weights[t]:.6g}" for v in self.weights) + "\n")
        return {"alpha_curve.csv": Artifact.csv(curve.getvalue()), "methods.csv": Artifact.csv(methods.getvalue()),
                "weights.csv": Artifact.csv(weights.getvalue())}
