"""Result of the best-case-ERM illustration: the overfitting ERM, exact losses, and the GD gaps vs the bounds."""

from __future__ import annotations

import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["BAND", "GdPoint", "Result"]

BAND = 1.05  # a point counts as between the bounds within 5% of either curve


class GdPoint(BaseModel):
    """Projected GD after `horizon` steps at rate `eta`: generalisation gap and the two reference bounds."""

    eta: float
    horizon: int
    gap: float
    lower_bound: float  # sqrt(eta T / m^1.5), the paper's lower-bound rate (constant 1)
    upper_bound: float  # eta T / m, the known upper-bound rate (constant 1)
    train_loss: float
    population_loss: float
    norm: float


class Result(MethodResult):
    samples: int
    dimension: int
    code_size: int
    coherence: float
    strong_convexity: float
    unseen_vectors: int
    expected_unseen: float
    erm_train_loss: float | None
    erm_regularised_train_loss: float | None
    min_train_loss: float
    erm_population_loss: float | None
    erm_population_excess: float | None
    excess_lower_bound: float
    gd: list[GdPoint]
    gd_slope: float | None
    gd_slope_low: float | None
    gd_slope_high: float | None
    gd_monotone: bool
    inner_product_values: list[float]  # distinct <u, w> over w != u for the bad ERM u (or code vector 0)
    inner_product_counts: list[int]

    def metrics(self) -> dict[str, float | int | str]:
        def show(value: float | None) -> float | str:
            return "n/a (no unseen code vector)" if value is None else round(value, 6)

        return {
            "Code: vectors x dimension": f"{self.code_size:,} x {self.dimension}",
            "Coherence max |<w, w'>|": round(self.coherence, 5),
            "Code vectors in no sample (expected K / 2^m)": f"{self.unseen_vectors} ({self.expected_unseen:.1f})",
            "Training loss of the bad ERM (Feldman part)": show(self.erm_train_loss),
            "Minimal training loss": self.min_train_loss,
            "Bad ERM's training loss with lambda/2 ||x||^2": show(self.erm_regularised_train_loss),
            "Population excess of the bad ERM (exact)": show(self.erm_population_excess),
            "Lower bound 1/4 - coherence": round(self.excess_lower_bound, 5),
            "GD: log-log slope of gap vs eta T": "n/a" if self.gd_slope is None else round(self.gd_slope, 3),
        }

    def erm_holds(self) -> bool | None:
        if self.erm_train_loss is None or self.erm_population_excess is None:
            return None
        return abs(self.erm_train_loss - self.min_train_loss) < 1e-12 and self.erm_population_excess >= self.excess_lower_bound

    def between(self) -> list[bool | None]:
        """Per GD point: lower_bound / 1.05 <= gap <= 1.05 upper_bound, or None where eta T < sqrt(m): there the
        lower-bound curve lies above the upper-bound curve (both have constant 1), so no point can be between."""
        return [
            None if p.lower_bound > p.upper_bound else p.lower_bound / BAND <= p.gap <= BAND * p.upper_bound
            for p in self.gd
        ]

    def gd_holds(self) -> bool | None:
        """The gap grows with eta T (monotone) and every point with eta T >= sqrt(m) lies between the curves."""
        judged = [b for b in self.between() if b is not None]
        if not judged:
            return None
        return self.gd_monotone and all(judged)

    def verdict(self) -> Verdict:
        erm, gd = self.erm_holds(), self.gd_holds()
        erm_text = (
            "no code vector was missed by every sample, so this bad ERM does not exist here"
            if erm is None
            else f"the bad ERM has training loss {self.erm_train_loss:.4f} (minimum {self.min_train_loss}) and population "
            f"excess {self.erm_population_excess:.4f} >= {self.excess_lower_bound:.4f}"
        )
        judged = [(p, b) for p, b in zip(self.gd, self.between(), strict=True) if b is not None]
        below = sum(p.gap < p.lower_bound / BAND for p, _ in judged)
        above = sum(p.gap > BAND * p.upper_bound for p, _ in judged)
        largest = max(self.gd, key=lambda p: p.eta * p.horizon, default=None)
        slope = "n/a" if self.gd_slope is None else f"{self.gd_slope:.2f}"
        gd_text = (
            f"GD: of the {len(judged)} (eta, T) points with eta T >= sqrt(m), {sum(b for _, b in judged)} lie between "
            f"sqrt(eta T / m^1.5) and eta T / m ({below} below, {above} above); the gap is "
            f"{'monotone' if self.gd_monotone else 'not monotone'} in eta T, log-log slope {slope}"
            + ("" if largest is None else f", and at the largest eta T the iterate has norm {largest.norm:.2f}")
        )
        detail = f"{erm_text}; {gd_text}."
        if erm and gd:
            return Verdict("ERM overfits; GD gap between the bounds", "success", detail)
        if erm is None and gd is None:
            return Verdict("Not testable with these settings", "info", detail)
        failed = [name for name, ok in (("overfitting ERM", erm), ("GD gap", gd)) if ok is False or ok is None]
        return Verdict("Not reproduced: " + ", ".join(failed), "warning", detail)

    def artifacts(self) -> dict[str, Artifact]:
        buffer = io.StringIO()
        buffer.write("eta,horizon,eta_T,gap,lower_bound,upper_bound,train_loss,population_loss,norm\n")
        for p in self.gd:
            buffer.write(f"{p.eta},{p.horizon},{p.eta * p.horizon:g},{p.gap:.6e},{p.lower_bound:.6e},{p.upper_bound:.6e},"
                         f"{p.train_loss:.6f},{p.population_loss:.6f},{p.norm:.6f}\n")
        return {"gd_gaps.csv": Artifact.csv(buffer.getvalue())}
