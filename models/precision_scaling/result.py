"""Result of a low-precision scaling run: risk against model size and data, effective model sizes, fits."""

from __future__ import annotations

import io
from typing import Literal

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["Checks", "DataPoint", "EffectiveSize", "Fit", "Result", "RiskPoint", "SchemeName"]

SchemeName = Literal["full", "multiplicative", "additive"]
SCHEMES: tuple[SchemeName, ...] = ("full", "multiplicative", "additive")


class RiskPoint(BaseModel):
    """Excess risk at model size m after all N samples: seed mean, min and max; theory beside it."""

    m: int
    risk: float
    risk_min: float
    risk_max: float
    theory: float
    theory_infinite_data: float


class DataPoint(BaseModel):
    """Excess risk of the largest model after n samples (seed mean) and the theory."""

    n: int
    risk: float
    theory: float


class EffectiveSize(BaseModel):
    """m_eff = tr[S H S^T (S (H + diag q) S^T)^-1] (theory, averaged over the theory seeds) and
    m_from_risk: the full-precision model size with the same simulated risk (log-log interpolation of
    the full-precision curve, its power-law fit outside the simulated range)."""

    m: int
    m_eff: float
    m_from_risk: float | None


class Fit(BaseModel):
    """Power-law exponent of the simulated risk against M (all N) and against n (largest M)."""

    m_exponent: float | None
    m_exponent_low: float | None
    m_exponent_high: float | None
    n_exponent: float | None
    n_exponent_low: float | None
    n_exponent_high: float | None


class Checks(BaseModel):
    keeps_model_size: bool
    shrinks_model_size: bool
    detail: str


class Result(MethodResult):
    bits: int
    n_samples: int
    spectrum_exponent: float
    seeds: int
    theory_seeds: int
    risk: dict[SchemeName, list[RiskPoint]]
    ratio_largest_smallest: dict[SchemeName, float]
    effective_model_size: dict[SchemeName, list[EffectiveSize]]
    risk_vs_n: dict[SchemeName, list[DataPoint]]
    fits: dict[SchemeName, Fit]
    noise_variance_mean: dict[SchemeName, float]
    checks: Checks

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        largest = self.risk["full"][-1].m
        for scheme in SCHEMES:
            fit = self.fits[scheme]
            out[f"{scheme}: risk at M = {largest}"] = f"{self.risk[scheme][-1].risk:.3e}"
            out[f"{scheme}: risk(M max) / risk(M min)"] = round(self.ratio_largest_smallest[scheme], 4)
            out[f"{scheme}: effective model size at M = {largest}"] = round(self.effective_model_size[scheme][-1].m_eff, 1)
            out[f"{scheme}: exponent of risk vs M"] = "n/a" if fit.m_exponent is None else round(fit.m_exponent, 3)
            out[f"{scheme}: exponent of risk vs N"] = "n/a" if fit.n_exponent is None else round(fit.n_exponent, 3)
            out[f"{scheme}: mean quantisation noise variance per feature"] = f"{self.noise_variance_mean[scheme]:.2e}"
        return out

    def verdict(self) -> Verdict:
        c = self.checks
        if c.keeps_model_size and c.shrinks_model_size:
            return Verdict("Multiplicative keeps the model size, additive shrinks it", "success", c.detail)
        failed = []
        if not c.keeps_model_size:
            failed.append("multiplicative did not keep the full-precision model-size scaling")
        if not c.shrinks_model_size:
            failed.append("additive did not shrink the effective model size")
        return Verdict("Not reproduced: " + "; ".join(failed), "warning", c.detail)

    def artifacts(self) -> dict[str, Artifact]:
        return {"risk_vs_model_size.csv": Artifact.csv(self.model_csv()), "risk_vs_samples.csv": Artifact.csv(self.data_csv())}

    def model_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("scheme,m,risk_mean,risk_min,risk_max,theory,theory_infinite_data,m_eff,m_from_risk\n")
        for scheme in SCHEMES:
            for point, size in zip(self.risk[scheme], self.effective_model_size[scheme], strict=True):
                buffer.write(f"{scheme},{point.m},{point.risk:.6e},{point.risk_min:.6e},{point.risk_max:.6e},"
                             f"{point.theory:.6e},{point.theory_infinite_data:.6e},{size.m_eff:.4f},"
                             f"{'' if size.m_from_risk is None else f'{size.m_from_risk:.4f}'}\n")
        return buffer.getvalue()

    def data_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("scheme,n,risk_mean,theory\n")
        for scheme in SCHEMES:
            for point in self.risk_vs_n[scheme]:
                buffer.write(f"{scheme},{point.n},{point.risk:.6e},{point.theory:.6e}\n")
        return buffer.getvalue()
