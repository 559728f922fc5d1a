"""The paper's three "must show" claims (issue 16), evaluated on one run's numbers."""

from __future__ import annotations

from models.diffusion_resampling.result import Check, DerivativePoint, GradientSummary, MomentPoint

__all__ = ["DERIVATIVE_N", "DERIVATIVE_TOLERANCE", "NOISIER_FACTOR", "evaluate_claims"]

DERIVATIVE_N = 512
DERIVATIVE_TOLERANCE = 0.15
NOISIER_FACTOR = 10.0  # "far noisier": the finite-difference spread is at least this many times larger


def _moment_claim(moment_error: dict[str, list[MomentPoint]]) -> Check:
    claim = "moment error falls with N"
    first = next(iter(moment_error.values()))
    if len(first) < 2:
        return Check(claim=claim, holds=None, detail="needs at least two particle counts")
    falls = {name: points[-1].rmse < points[0].rmse for name, points in moment_error.items()}
    detail = ", ".join(
        f"{name} {points[0].rmse:.3f} -> {points[-1].rmse:.3f}" for name, points in moment_error.items()
    )
    return Check(claim=claim, holds=all(falls.values()), detail=f"RMSE N = {first[0].n} -> {first[-1].n}: {detail}")


def _derivative_claim(derivatives: dict[str, list[DerivativePoint]]) -> Check:
    claim = f"d mean / d shift = 1 within {DERIVATIVE_TOLERANCE} for diffusion, multinomial far noisier"
    if "diffusion" not in derivatives or "multinomial" not in derivatives:
        return Check(claim=claim, holds=None, detail="needs the diffusion and multinomial resamplers")
    points = {p.n: p for p in derivatives["diffusion"]}
    n = DERIVATIVE_N if DERIVATIVE_N in points else max(points)
    diffusion = points[n]
    multinomial = {p.n: p for p in derivatives["multinomial"]}[n]
    close = abs(diffusion.value - 1.0) <= DERIVATIVE_TOLERANCE
    noisier = multinomial.std >= NOISIER_FACTOR * max(diffusion.std, 1e-12) and multinomial.std > 0.05
    detail = (
        f"at N = {n}: diffusion {diffusion.value:.4f} (std {diffusion.std:.2g}), multinomial finite "
        f"difference {multinomial.value:.3f} (std {multinomial.std:.3f})"
        + ("" if n == DERIVATIVE_N else f"; N = {DERIVATIVE_N} was not run, used the largest N")
    )
    return Check(claim=claim, holds=close and noisier, detail=detail)


def _gradient_claim(gradient: dict[str, GradientSummary]) -> Check:
    claim = "diffusion's dl/dtheta is closer to Kalman's than soft resampling's"
    if "diffusion" not in gradient or "soft" not in gradient:
        return Check(claim=claim, holds=None, detail="needs the diffusion and soft resamplers")
    d, s = gradient["diffusion"], gradient["soft"]
    detail = (
        f"RMSE to the Kalman gradient: diffusion {d.rmse:.3f} (bias {d.bias:+.3f}, std {d.std:.3f}), "
        f"soft {s.rmse:.3f} (bias {s.bias:+.3f}, std {s.std:.3f})"
    )
    return Check(claim=claim, holds=d.rmse < s.rmse, detail=detail)


def evaluate_claims(
    moment_error: dict[str, list[MomentPoint]],
    derivatives: dict[str, list[DerivativePoint]],
    gradient: dict[str, GradientSummary],
) -> list[Check]:
    return [_moment_claim(moment_error), _derivative_claim(derivatives), _gradient_claim(gradient)]
