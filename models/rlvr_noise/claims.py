"""The paper's claims (Rad et al., "Rate or Fate?"), declared once and measured per seed in run.py.

The abstract gives no figures, so every claim's paper column is qualitative. Tolerances:
* rate law: each hitting time within 15% of the rate law's integral (issue 26);
* diffusion at J = 0: the measured variance within 15% of t * D; with 1,024 runs the sampling error of
  a variance is sqrt(2 / 1024) = 4.4%, so 15% is more than three standard errors;
* J = 0 line of the phase diagram: each cell's mean within 4 standard errors of the start (8 runs per cell).
"""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS", "DIFFUSION_TOLERANCE", "LINE_Z", "NEUTRAL_Z", "RATE_TOLERANCE"]

RATE_TOLERANCE = 0.15
DIFFUSION_TOLERANCE = 0.15
NEUTRAL_Z = 3.0  # the J = 0 mean stays within this many standard errors of the diffusion's prediction
LINE_Z = 4.0

CLAIMS = (
    Claim("sign", "J > 0 drives the incorrect mass to extinction, J < 0 makes it take over (mean field and "
          "GRPO bandit)", paper=QUALITATIVE,
          quantity="share of J != 0 in the sweep where both models move the mass with the sign of -J",
          op=">=", target=1.0, floor="J values on both sides of 0"),
    Claim("phase", "On the (FPR, FNR) plane the line J = 0 (FPR + FNR = 1) separates learning from collapse "
          "(GRPO bandit)", paper=QUALITATIVE,
          quantity="share of grid cells off the line whose mean mass moved with the sign of -J",
          op=">=", target=1.0),
    Claim("rate_mean_field", "Rate, not fate: the time to learn is the rate law "
          "t = (m / 2ηJ) ∫ σ(x) / (x²(1-x)²) dx, proportional to σ / J (mean-field GRPO step)",
          paper=QUALITATIVE, quantity="largest |steps to mass 0.05 / rate-law time - 1| over J > 0",
          op="<=", target=RATE_TOLERANCE),
    Claim("rate_bandit", "Rate, not fate: finite-sample GRPO follows the same rate law", paper=QUALITATIVE,
          quantity="largest |steps to mass 0.05 (bandit mean) / rate-law time - 1| over J > 0",
          op="<=", target=RATE_TOLERANCE),
    Claim("neutral", "At J = 0 the drift is neutral: the mass diffuses with the variance of the diffusion limit",
          paper=QUALITATIVE, quantity="Var[x_t] of 1,024 GRPO runs at J = 0 / diffusion limit t·D(x0)",
          op="within", target=1.0, tolerance=DIFFUSION_TOLERANCE,
          floor=f"mean within {NEUTRAL_Z:g} standard errors of the diffusion's prediction"),
    Claim("phase_line", "Cells on the J = 0 line of the phase diagram stay at the start", paper=QUALITATIVE,
          quantity="largest |mean mass - start| / standard error over the line's cells",
          op="<=", target=LINE_Z, headline=False),
)
