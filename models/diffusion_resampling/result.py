"""Result of a diffusion-resampling run: moment errors, shift derivatives, gradients, estimates, checks."""

from __future__ import annotations

import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = [
    "Check",
    "DerivativePoint",
    "EstimationSummary",
    "GradientSummary",
    "MomentPoint",
    "Result",
]


class MomentPoint(BaseModel):
    """RMSE over repeats of the resampled moments against the exact posterior (rmse = mean and cov)."""

    n: int
    rmse: float
    mean_rmse: float
    cov_rmse: float


class DerivativePoint(BaseModel):
    """d(resampled mean_1)/d(theta) for a shift theta e_1 of every particle; the exact value is 1."""

    n: int
    value: float
    std: float
    estimator: str


class GradientSummary(BaseModel):
    """Particle-filter dl/dtheta minus the Kalman value: bias, spread and RMSE over the filters."""

    bias: float
    std: float
    rmse: float
    mean_log_likelihood: float
    samples: list[float]


class EstimationSummary(BaseModel):
    """Gradient ascent through the filter: theta per iteration for each filter, and the end point."""

    final_theta: float
    error_to_mle: float
    path: list[list[float]]


class Check(BaseModel):
    """One of the paper's "must show" claims, evaluated on this run."""

    claim: str
    holds: bool | None
    detail: str


class Result(MethodResult):
    particles: list[int]
    resamplers: list[str]
    labels: dict[str, str]
    moment_error: dict[str, list[MomentPoint]]
    importance_error: list[MomentPoint]
    mean_shift_derivative: dict[str, list[DerivativePoint]]
    theta_eval: float
    kalman_log_likelihood: float
    kalman_gradient: float
    gradient: dict[str, GradientSummary]
    true_theta: float
    kalman_mle: float
    estimation: dict[str, EstimationSummary]
    filter_steps: int
    filter_particles: int
    checks: list[Check]

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {
            f"Kalman dl/dtheta at theta = {self.theta_eval}": round(self.kalman_gradient, 4),
            "Kalman MLE of theta": round(self.kalman_mle, 4),
        }
        largest = self.particles[-1]
        for name in self.resamplers:
            label = self.labels[name]
            out[f"{label}: moment RMSE at N = {largest}"] = round(self.moment_error[name][-1].rmse, 4)
            out[f"{label}: d mean / d shift at N = {largest}"] = round(self.mean_shift_derivative[name][-1].value, 4)
            out[f"{label}: gradient bias"] = round(self.gradient[name].bias, 4)
            out[f"{label}: gradient std"] = round(self.gradient[name].std, 4)
            if name in self.estimation:
                out[f"{label}: estimated theta"] = round(self.estimation[name].final_theta, 4)
        return out

    def verdict(self) -> Verdict:
        decided = [c for c in self.checks if c.holds is not None]
        failed = [c for c in decided if not c.holds]
        if not decided:
            return Verdict("Not evaluated", "info", "Select diffusion, soft and multinomial to evaluate the claims.")
        detail = "; ".join(f"{c.claim}: {c.detail}" for c in (failed or decided))
        if failed:
            return Verdict(f"{len(failed)} of {len(decided)} claims did not reproduce", "warning", detail)
        return Verdict(f"All {len(decided)} claims reproduce", "success", detail)

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "moment_error.csv": Artifact.csv(self._moment_csv()),
            "mean_shift_derivative.csv": Artifact.csv(self._derivative_csv()),
            "gradient.csv": Artifact.csv(self._gradient_csv()),
            "estimation.csv": Artifact.csv(self._estimation_csv()),
        }

    def _moment_csv(self) -> str:
        out = io.StringIO()
        out.write("resampler,n,rmse,mean_rmse,cov_rmse\n")
        rows = [("importance (before resampling)", p) for p in self.importance_error]
        rows += [(name, p) for name in self.resamplers for p in self.moment_error[name]]
        for name, p in rows:
            out.write(f"{name},{p.n},{p.rmse:.6g},{p.mean_rmse:.6g},{p.cov_rmse:.6g}\n")
        return out.getvalue()

    def _derivative_csv(self) -> str:
        out = io.StringIO()
        out.write("resampler,n,value,std,estimator\n")
        for name in self.resamplers:
            for p in self.mean_shift_derivative[name]:
                out.write(f"{name},{p.n},{p.value:.6g},{p.std:.6g},{p.estimator}\n")
        return out.getvalue()

    def _gradient_csv(self) -> str:
        out = io.StringIO()
        out.write("resampler,filter,gradient,kalman_gradient\n")
        for name in self.resamplers:
            for index, value in enumerate(self.gradient[name].samples):
                out.write(f"{name},{index},{value:.6g},{self.kalman_gradient:.6g}\n")
        return out.getvalue()

    def _estimation_csv(self) -> str:
        out = io.StringIO()
        out.write("resampler,iteration,filter,theta,kalman_mle\n")
        for name, summary in self.estimation.items():
            for iteration, thetas in enumerate(summary.path):
                for index, theta in enumerate(thetas):
                    out.write(f"{name},{iteration},{index},{theta:.6g},{self.kalman_mle:.6g}\n")
        return out.getvalue()
