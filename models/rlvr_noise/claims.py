"""The paper's claims (Rad et al., "Rate or Fate?"), declared once and measured per seed in run.py.

Paper passages (the abstract of arXiv 2601.04411 and the official project page, cognichip/Noisy-RL):
- `sign`: abstract, "a sharp noise threshold": J > 0 learns, J < 0 anti-learns (project page, "Phase transition")
- `phase`: project page, "phase heatmaps over (FP, FN) with the diagonal FP + FN = 1 as the boundary"
- `rate_bandit`: abstract, "rate, not fate": noise changes the time to learn (README: time ~ 1/J), not the end
- `neutral`: abstract, J = 0 "neutral": no drift, pure noise (project page)
- `decoupling`: project page, "the dynamics decouple into inner competition among correct modes and an outer mean-field ODE for the total bad-mode mass"
- `winner`: project page, "whichever good mode has a slight initial advantage captures all the probability mass"

The abstract gives no figures, so every claim's paper column is qualitative. Tolerances:
* rate law: each hitting time within 15% of the rate law's integral (issue 26); the decoupling uses the same;
* diffusion at J = 0: the measured variance within 15% of t * D; with 1,024 runs the sampling error of
  a variance is sqrt(2 / 1024) = 4.4%, so 15% is more than three standard errors;
* J = 0 line of the phase diagram: each cell's mean within 4 standard errors of the start (8 runs per cell);
* winner: the favoured mode holds at least 90% of the correct class at the end ("captures all").
"""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS", "DIFFUSION_TOLERANCE", "LINE_Z", "NEUTRAL_Z", "RATE_TOLERANCE", "WINNER_SHARE"]

RATE_TOLERANCE = 0.15
DIFFUSION_TOLERANCE = 0.15
NEUTRAL_Z = 3.0  # the J = 0 mean stays within this many standard errors of the diffusion's prediction
LINE_Z = 4.0
WINNER_SHARE = 0.9

_UNTRAINED = "untrained policy (the mass stays at its start)"
_RATE_WHY = "the paper gives no figure; 15% is the tolerance issue 26 set for the rate law, above the finite-G bias"

CLAIMS = (
    Claim("sign", "J > 0 drives the incorrect mass to extinction, J < 0 makes it take over (mean field and "
          "GRPO bandit)", paper=QUALITATIVE,
          quantity="share of J != 0 in the sweep where both models move the mass with the sign of -J",
          op=">=", target=1.0, floor="J values on both sides of 0", units="J values", null=_UNTRAINED,
          why="the claim is a sign: every J of the sweep must move the mass the right way"),
    Claim("phase", "On the (FPR, FNR) plane the line J = 0 (FPR + FNR = 1) separates learning from collapse "
          "(GRPO bandit)", paper=QUALITATIVE,
          quantity="share of grid cells off the line whose mean mass moved with the sign of -J",
          op=">=", target=1.0, units="grid cells", null=_UNTRAINED,
          why="the claim is a sign: every cell off the J = 0 line must move the right way"),
    Claim("rate_mean_field", "Rate, not fate: the time to learn is the rate law "
          "t = (m / 2ηJ) ∫ σ(x) / (x²(1-x)²) dx, proportional to σ / J (mean-field GRPO step)",
          paper=QUALITATIVE, quantity="largest |steps to mass 0.05 / rate-law time - 1| over J > 0",
          op="<=", target=RATE_TOLERANCE, headline=False, exact=True),
    Claim("rate_bandit", "Rate, not fate: finite-sample GRPO follows the same rate law", paper=QUALITATIVE,
          quantity="largest |steps to mass 0.05 (bandit mean) / rate-law time - 1| over J > 0",
          op="<=", target=RATE_TOLERANCE, why=_RATE_WHY,
          null="a J-blind time (the mean of the bandit's hitting times for every J)"),
    Claim("neutral", "At J = 0 the drift is neutral: the mass diffuses with the variance of the diffusion limit",
          paper=QUALITATIVE, quantity="Var[x_t] of 1,024 GRPO runs at J = 0 / diffusion limit t·D(x0)",
          op="within", target=1.0, tolerance=DIFFUSION_TOLERANCE,
          floor=f"mean within {NEUTRAL_Z:g} standard errors of the diffusion's prediction", null="no diffusion (variance 0)",
          units="GRPO runs",
          why="15% is more than three sampling standard errors of a variance over 1,024 runs (4.4%)"),
    Claim("decoupling", "With unequal masses inside the correct class, the incorrect mass still follows the "
          "one-dimensional law, on the clock set by the concentration inside each class (GRPO bandit)",
          paper=QUALITATIVE, quantity="concentration-clock time at mass 0.05 / rate-law time - 1 (mean over runs)",
          op="within", target=0.0, tolerance=RATE_TOLERANCE, floor="every GRPO run reached 0.05",
          units="GRPO runs", null="the same law read on the step clock",
          why="the rate law's 15%; the unequal start moves the step clock by 30-50%, so the two readings separate"),
    Claim("winner", "Inside the correct class the initially favoured mode takes the class (replicator with "
          "fitness proportional to the share; GRPO bandit)", paper=QUALITATIVE,
          quantity="favoured mode's share of the correct class at the end", op=">=", target=WINNER_SHARE,
          units="GRPO runs", null="the same runs at J = 0",
          why="'captures all the probability mass': 90% of the class, far above the start and the J = 0 runs"),
    Claim("decoupling_mean_field", "Check: the mean field of every logit equals the equal-split map on the "
          "concentration clock", paper=QUALITATIVE, quantity="max over steps |x(t) - x_equal(tau(t))|", op="<=",
          target=0.01, headline=False, exact=True),
    Claim("phase_line", "Cells on the J = 0 line of the phase diagram stay at the start", paper=QUALITATIVE,
          quantity="largest |mean mass - start| / standard error over the line's cells",
          op="<=", target=LINE_Z, headline=False),
)
