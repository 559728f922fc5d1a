"""Result of a low-precision scaling run: risk against model size and data, effective model sizes, fits."""

from __future__ import annotations

import io
from typing import Literal

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = ["DataPoint", "EffectiveSize", "Fit", "PerSeed", "Result", "RiskPoint", "SchemeName"]

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


class PerSeed(BaseModel):
    """One seed's claim quantities at the largest M (see measure.py); dicts keyed by scheme."""

    seed: int
    m: int
    n: int
    noise_variance: dict[str, float]
    noise_ratio: float
    m_eff_fraction: dict[str, float]
    n_eff_fraction: dict[str, float | None]
    n_eff_total_fraction: dict[str, float | None]
    infinite_data_risk: dict[str, float]
    risk: dict[str, float]
    kappa: dict[str, float] = Field(description="effective model size / M from the fit to the simulated risks")
    fit_additive_error: dict[str, float] = Field(description="E of the same fit")
    kappa_infinite_data: dict[str, float] = Field(description="kappa of the fit to the exact infinite-data risks")
    swamping_index: float = Field(description="#{i: lambda_i > additive noise variance}: where additive noise "
                                              "starts to swamp the spectrum")


class Result(MethodResult):
    multiplicative_bits: int
    additive_bits: int
    noise_level: float = 0.0
    additive_bits_matched: bool
    noise_variance_closed_form: dict[SchemeName, float]
    per_seed: list[PerSeed]
    seconds: float
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

    def tables(self) -> list[Table]:
        """The claims' quantities per seed at the largest model, then the seed means per precision."""
        first = self.per_seed[0]
        source = (f"Noise: the paper's models at level {self.noise_level:g}." if self.noise_level else
                  f"Rounding: multiplicative {self.multiplicative_bits} mantissa bit(s), additive {self.additive_bits} bits.")
        per_seed = Table(
            title=f"Per seed at M = {first.m}, N = {first.n:,}", columns=list(_SEED_COLUMNS),
            rows=[_seed_row(r) for r in self.per_seed],
            caption="kappa: R_q(M) = E + R_full(kappa M) fitted to the simulated risks over every M (1: only an "
            "additive error; below 1: a smaller model); the same fit on the exact infinite-data risks beside it. "
            "Swamping index: #{i: lambda_i > additive noise variance}. N_eff: full-precision samples with the same "
            "finite-data risk once each run's infinite-data risk is removed; 'on total risk' keeps it in. " + source)
        last_m = self.effective_model_size["full"][-1].m
        means = Table(
            title=f"Seed means, N = {self.n_samples:,}",
            columns=[Column(key="precision", label="precision", fmt="text"),
                     Column(key="risk", label=f"risk at M = {last_m}", digits=4),
                     Column(key="theory", label=f"infinite-data risk at M = {last_m} (theory)", digits=4),
                     Column(key="m_exponent", label="exponent vs M", digits=3),
                     Column(key="n_exponent", label="exponent vs N", digits=3),
                     Column(key="m_eff", label="m_eff (theory)", digits=3),
                     Column(key="m_from_risk", label="m from risk (simulation)", digits=3),
                     Column(key="noise", label="noise variance per feature", digits=3)],
            rows=[{"precision": scheme, "risk": self.risk[scheme][-1].risk,
                   "theory": self.risk[scheme][-1].theory_infinite_data, "m_exponent": self.fits[scheme].m_exponent,
                   "n_exponent": self.fits[scheme].n_exponent, "m_eff": self.effective_model_size[scheme][-1].m_eff,
                   "m_from_risk": self.effective_model_size[scheme][-1].m_from_risk,
                   "noise": self.noise_variance_mean[scheme]} for scheme in SCHEMES],
            caption="m from risk: the full-precision model size that reaches the same simulated risk "
            "(interpolated; outside the simulated range, the power-law fit).")
        return [per_seed, means]

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        largest = self.risk["full"][-1].m
        for scheme in SCHEMES:
            fit = self.fits[scheme]
            out[f"{scheme}: risk at M = {largest}"] = f"{self.risk[scheme][-1].risk:.3e}"
            out[f"{scheme}: risk(M max) / risk(M min)"] = round(self.ratio_largest_smallest[scheme], 4)
            out[f"{scheme}: trace m_eff at M = {largest} (a check)"] = round(self.effective_model_size[scheme][-1].m_eff, 1)
            if scheme != "full":
                kappas = [r.kappa[scheme] for r in self.per_seed]
                out[f"{scheme}: kappa = M_eff / M from the risk fit (seed mean)"] = round(sum(kappas) / len(kappas), 3)
            out[f"{scheme}: exponent of risk vs M"] = "n/a" if fit.m_exponent is None else round(fit.m_exponent, 3)
            out[f"{scheme}: exponent of risk vs N"] = "n/a" if fit.n_exponent is None else round(fit.n_exponent, 3)
            out[f"{scheme}: mean quantisation noise variance per feature"] = f"{self.noise_variance_mean[scheme]:.2e}"
        out["noise variance ratio, multiplicative / additive"] = round(
            self.noise_variance_mean["multiplicative"] / self.noise_variance_mean["additive"], 3)
        out["run time (s)"] = round(self.seconds, 1)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {"risk_vs_model_size.csv": Artifact.csv(self.model_csv()), "risk_vs_samples.csv": Artifact.csv(self.data_csv()),
                "per_seed.csv": Artifact.csv(self.seed_csv())}

    def seed_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("seed,m,n,noise_mult,noise_add,noise_ratio,m_eff_over_m_mult,m_eff_over_m_add,n_eff_over_n_mult,"
                     "n_eff_over_n_add,r_inf_full,r_inf_mult,r_inf_add,risk_full,risk_mult,risk_add,kappa_mult,kappa_add,"
                     "fit_error_mult,fit_error_add,kappa_inf_mult,kappa_inf_add,swamping_index\n")
        for r in self.per_seed:
            n_eff = ["" if r.n_eff_fraction[s] is None else f"{r.n_eff_fraction[s]:.4f}" for s in ("multiplicative", "additive")]
            buffer.write(f"{r.seed},{r.m},{r.n},{r.noise_variance['multiplicative']:.4e},{r.noise_variance['additive']:.4e},"
                         f"{r.noise_ratio:.4f},{r.m_eff_fraction['multiplicative']:.4f},{r.m_eff_fraction['additive']:.4f},"
                         f"{n_eff[0]},{n_eff[1]},"
                         + ",".join(f"{r.infinite_data_risk[s]:.6e}" for s in SCHEMES) + ","
                         + ",".join(f"{r.risk[s]:.6e}" for s in SCHEMES) + ","
                         + ",".join(f"{d[s]:.4f}" for d in (r.kappa, r.fit_additive_error, r.kappa_infinite_data)
                                    for s in ("multiplicative", "additive"))
                         + f",{r.swamping_index:.0f}\n")
        return buffer.getvalue()

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


def _pair(values: dict[str, float] | dict[str, float | None], digits: int = 3) -> str:
    """'multiplicative / additive' of one quantity."""
    return f"{number(values['multiplicative'], digits)} / {number(values['additive'], digits)}"


_SEED_COLUMNS = (
    Column(key="seed", label="seed"), Column(key="noise_mult", label="noise var. mult.", digits=3),
    Column(key="noise_add", label="noise var. add.", digits=3), Column(key="ratio", label="ratio mult. / add.", digits=3),
    Column(key="kappa_mult", label="kappa mult. (risk fit)", digits=3),
    Column(key="kappa_add", label="kappa add. (risk fit)", digits=3),
    Column(key="kappa_inf", label="kappa on R_inf, mult. / add.", fmt="text"),
    Column(key="error", label="additive error E, mult. / add.", fmt="text"),
    Column(key="swamping", label="swamping index", digits=3),
    Column(key="m_eff", label="trace m_eff / M, mult. / add. (check)", fmt="text"),
    Column(key="n_eff_mult", label="N_eff / N mult.", digits=3), Column(key="n_eff_add", label="N_eff / N add.", digits=3),
    Column(key="n_eff_total", label="N_eff / N on total risk, mult. / add.", fmt="text"))


def _seed_row(r: PerSeed) -> dict[str, Cell]:
    return {"seed": r.seed, "noise_mult": r.noise_variance["multiplicative"], "noise_add": r.noise_variance["additive"],
            "ratio": r.noise_ratio, "kappa_mult": r.kappa["multiplicative"], "kappa_add": r.kappa["additive"],
            "kappa_inf": _pair(r.kappa_infinite_data), "error": _pair(r.fit_additive_error),
            "swamping": r.swamping_index, "m_eff": _pair(r.m_eff_fraction),
            "n_eff_mult": r.n_eff_fraction["multiplicative"], "n_eff_add": r.n_eff_fraction["additive"],
            "n_eff_total": _pair(r.n_eff_total_fraction, 2)}
