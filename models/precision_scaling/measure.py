"""Per-seed measurements behind the claims: matched noise, effective model size and effective data size.

All at the largest model size M of the run, on each seed's own problem and rounding:

* noise: the measured mean variance per feature of Q(x) - x, for each scheme, and their ratio;
* m_eff / M with m_eff = tr[S H S^T (S (H + diag q) S^T)^-1], q the measured per-feature noise
  variances (exact for unbiased rounding that is independent across coordinates, our choice of
  summary; the paper's own definition is not reproduced here);
* R_inf: the population risk of the scheme's infinite-data optimum (exact, no approximation);
* N_eff / N: the number of full-precision samples n at which the full-precision run's finite-data
  excess R_full(n) - R_inf,full equals the scheme's R_q(N) - R_inf,q, read off the seed's own
  full-precision curve (log-log interpolation; beyond N, the power law of its last four points).
  Subtracting each run's own R_inf separates the additive error from the data-size effect;
  N_eff,total is the same read-off of the total risks, additive error included.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from models.common.claims import Measurement
from models.common.sweeps import fit_power_law
from models.precision_scaling.claims import CLAIMS, REGIME_FACTOR
from models.precision_scaling.result import PerSeed, SchemeName
from models.precision_scaling.simulation import Problem, SgdRun
from models.precision_scaling.sizefit import fit_model_size
from models.precision_scaling.theory import theory

__all__ = ["effective_data_size", "measurements", "per_seed"]


def effective_data_size(record: list[int], full_excess: np.ndarray, excess: float) -> float | None:
    """The n at which the full-precision excess curve (decreasing in n) reaches `excess`; None if it cannot."""
    n, curve = np.asarray(record, float), np.asarray(full_excess, float)
    if excess <= 0 or np.any(curve <= 0):
        return None
    log_n, log_e = np.log(n), np.log(curve)
    if np.all(np.diff(log_e) < 0) and log_e[-1] <= np.log(excess) <= log_e[0]:
        return float(np.exp(np.interp(np.log(excess), log_e[::-1], log_n[::-1])))
    fit = fit_power_law(n[-4:], curve[-4:])
    if fit is None or fit.exponent >= 0:
        return None
    return float((excess / fit.prefactor) ** (1.0 / fit.exponent))


def _size_fits(s: int, p: Problem, runs: Mapping[SchemeName, SgdRun]) -> dict[str, dict[str, float]]:
    """kappa and E of each scheme from the simulated risks over M, and kappa from the exact infinite-data risks."""
    sizes = runs["full"].sizes
    r_inf = {name: np.array([theory(p.sketch_of(m), p.spectrum, p.target, r.noise_variance[s], p.label_noise,
                                    float(r.step_sizes[s, k]), r.record[-1:]).infinite_data_risk
                             for k, m in enumerate(sizes)]) for name, r in runs.items()}
    out: dict[str, dict[str, float]] = {"kappa": {}, "error": {}, "kappa_inf": {}}
    for name in ("multiplicative", "additive"):
        fit = fit_model_size(sizes, runs["full"].risk[s, :, -1], runs[name].risk[s, :, -1])
        out["kappa"][name], out["error"][name] = fit.kappa, fit.additive_error
        out["kappa_inf"][name] = fit_model_size(sizes, r_inf["full"], r_inf[name]).kappa
    return out


def per_seed(seeds: list[int], problems: list[Problem], runs: Mapping[SchemeName, SgdRun]) -> list[PerSeed]:
    """The claims' quantities for every seed at the largest M, and the model-size fits over all M."""
    out = []
    k = len(runs["full"].sizes) - 1
    m = runs["full"].sizes[k]
    for s, (seed, p) in enumerate(zip(seeds, problems, strict=True)):
        fits = _size_fits(s, p, runs)
        swamping = float((p.spectrum > runs["additive"].noise_variance[s].mean()).sum())
        sketch = p.sketch_of(m)
        points = {name: theory(sketch, p.spectrum, p.target, r.noise_variance[s], p.label_noise,
                               float(r.step_sizes[s, k]), r.record[-1:]) for name, r in runs.items()}
        full = runs["full"]
        full_excess = full.risk[s, k, :] - points["full"].infinite_data_risk
        noise, m_frac, n_frac, r_inf, risk, n_total = {}, {}, {}, {}, {}, {}
        for name in ("multiplicative", "additive"):
            r = runs[name]
            noise[name] = float(r.noise_variance[s].mean())
            m_frac[name] = points[name].effective_size / m
            r_inf[name] = points[name].infinite_data_risk
            risk[name] = float(r.risk[s, k, -1])
            n_eff = effective_data_size(full.record, full_excess, risk[name] - r_inf[name])
            n_frac[name] = None if n_eff is None else n_eff / full.record[-1]
            total = effective_data_size(full.record, full.risk[s, k, :], risk[name])
            n_total[name] = None if total is None else total / full.record[-1]
        out.append(PerSeed(seed=seed, m=m, n=full.record[-1], noise_variance=noise,
                           noise_ratio=noise["multiplicative"] / noise["additive"], m_eff_fraction=m_frac,
                           n_eff_fraction=n_frac, n_eff_total_fraction=n_total, infinite_data_risk={**r_inf, "full": points["full"].infinite_data_risk},
                           risk={**risk, "full": float(full.risk[s, k, -1])}, kappa=fits["kappa"],
                           fit_additive_error=fits["error"], kappa_infinite_data=fits["kappa_inf"],
                           swamping_index=swamping))
    return out


def measurements(rows: list[PerSeed]) -> dict[str, list[Measurement]]:
    """Each claim's Measurement per seed (see claims.py)."""
    out: dict[str, list[Measurement]] = {c.id: [] for c in CLAIMS}
    for row in rows:
        matched = 0.5 <= row.noise_ratio <= 2.0
        regime = row.m >= REGIME_FACTOR * row.swamping_index
        note = f"noise variance {row.noise_variance['multiplicative']:.2e} (mult.) / {row.noise_variance['additive']:.2e} (add.)"
        out["matched_noise"].append(Measurement(float(np.log2(row.noise_ratio)), note=note))
        for name in ("multiplicative", "additive"):
            fit_note = (f"E = {row.fit_additive_error[name]:.2e}; kappa on the exact infinite-data risks "
                        f"{row.kappa_infinite_data[name]:.3f}; swamping index {row.swamping_index:.0f}, M max {row.m}")
            out[f"{name}_model_size"].append(Measurement(
                row.kappa[name], floor_ok=matched and regime, note=fit_note,
                null=1.0 if name == "additive" else None))
            out[f"trace_{name}"].append(Measurement(row.m_eff_fraction[name], floor_ok=matched,
                                                    note=f"m_eff {row.m_eff_fraction[name] * row.m:.1f} of M = {row.m}"))
            frac = row.n_eff_fraction[name]
            out[f"{name}_data_size"].append(Measurement(1.0 if frac is None else frac, floor_ok=frac is not None,
                                                        note=_data_note(row, name), null=1.0))
        ratio = min(row.infinite_data_risk[s] for s in ("multiplicative", "additive")) / row.infinite_data_risk["full"]
        out["additive_error"].append(Measurement(ratio, note=f"full precision {row.infinite_data_risk['full']:.4f}"))
    return out


def _data_note(row: PerSeed, name: str) -> str:
    total = row.n_eff_total_fraction[name]
    return (f"risk {row.risk[name]:.4f} (full {row.risk['full']:.4f}), infinite-data {row.infinite_data_risk[name]:.4f}; "
            f"on total risks N_eff / N = {'n/a' if total is None else f'{total:.2f}'}")
