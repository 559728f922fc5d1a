"""Result of a diffusion-resampling run: moment errors, shift derivatives, gradients, estimates, checks."""

from __future__ import annotations

import csv
import io

from pydantic import BaseModel

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = [
    "BenchmarkScores",
    "Convergence",
    "DerivativePoint",
    "EstimationSummary",
    "GradientSummary",
    "MomentPoint",
    "PairedComparison",
    "Result",
    "SeedSummary",
    "Tuning",
    "TuningCell",
]


class MomentPoint(BaseModel):
    """RMSE over repeats of the resampled moments against the exact posterior (rmse = mean and cov)."""

    n: int
    rmse: float
    mean_rmse: float
    cov_rmse: float


class DerivativePoint(BaseModel):
    """d(resampled mean_1)/dy over the repeats: mean, and RMSE to the exact posterior's derivative."""

    n: int
    value: float
    rmse: float
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


class PairedComparison(BaseModel):
    """RMSE(diffusion) - RMSE(rival) of the filter gradient, with its paired bootstrap 95% interval."""

    rival: str
    point: float
    low: float
    high: float


class Convergence(BaseModel):
    """Diffusion's moment RMSE at the largest N with the chosen Euler steps and with twice as many."""

    n: int
    steps: int
    rmse: float
    doubled_rmse: float
    relative_change: float


class TuningCell(BaseModel):
    """One grid point of a resampler's knob(s) and its mean landscape error on the tuning data sets."""

    point: list[float]
    landscape: float


class Tuning(BaseModel):
    """A resampler's grid (the reference's, extended past an edge where the best lay there) and its best point."""

    method: str
    axes: list[str]
    cells: list[TuningCell]
    best: list[float]
    at_edge: bool
    extended: bool


class BenchmarkScores(BaseModel):
    """The reference's three LGSSM metrics of one tuned resampler, one value per data set."""

    landscape: list[float]
    filtering_kl: list[float]
    estimation: list[float]
    estimate: list[float]


class SeedSummary(BaseModel):
    """What the claims need from one seed."""

    seed: int
    benchmark: dict[str, BenchmarkScores]
    gradient_rmse: dict[str, float]
    gradient_max_error: dict[str, float]
    gradient_errors: dict[str, list[float]]
    comparisons: dict[str, PairedComparison]
    moment_ratio: float | None
    derivative_ratio: float | None
    convergence: Convergence | None


class Result(MethodResult):
    """Figures and tables show the first seed; the claims and `per_seed` cover every seed."""

    seeds: list[int]
    per_seed: list[SeedSummary]
    particles: list[int]
    resamplers: list[str]
    labels: dict[str, str]
    tunings: dict[str, Tuning]
    thetas: list[float]
    kalman_landscape: list[float]
    landscape: dict[str, list[float]]
    observations: int
    data_sets: int
    moment_error: dict[str, list[MomentPoint]]
    importance_error: list[MomentPoint]
    derivative: dict[str, list[DerivativePoint]]
    importance_derivative: list[DerivativePoint]
    exact_derivative: float
    theta_eval: float
    kalman_log_likelihood: float
    kalman_gradient: float
    gradient: dict[str, GradientSummary]
    true_theta: float
    kalman_mle: float
    estimation: dict[str, EstimationSummary]
    filter_steps: int
    filter_particles: int
    filters: int

    def tables(self) -> list[Table]:
        """The benchmark (means over data sets and seeds), experiment 1's moments, the secondary gradients."""
        return [self._benchmark_table(), self._moment_table(), Table(
            title=f"Secondary: dl/dtheta at theta = {self.theta_eval} (Kalman: {number(self.kalman_gradient, 3)})",
            columns=[Column(key="seed", label="seed"), *(Column(key=n, label=self.labels[n], digits=3)
                                                         for n in self.per_seed[0].gradient_rmse)],
            rows=[{"seed": s.seed, **s.gradient_rmse} for s in self.per_seed],
            caption=f"RMSE of each resampler's gradient to the Kalman gradient over {self.filters} filters, per seed "
            "(the filters of every resampler share their propagation noise, so the comparison is paired).")]

    def _benchmark_table(self) -> Table:
        rows: list[dict[str, Cell]] = []
        for name in self.resamplers:
            per = [s.benchmark[name] for s in self.per_seed]
            row: dict[str, Cell] = {"resampler": self.labels[name]}
            for key in ("landscape", "filtering_kl", "estimation"):
                values = [v for p in per for v in getattr(p, key)]
                row[key] = sum(values) / len(values)
            tuning = self.tunings.get(name)
            row["chosen"] = "—" if tuning is None else ", ".join(
                f"{axis} = {number(v, 3)}" for axis, v in zip(tuning.axes, tuning.best, strict=True)) + (
                " (grid edge)" if tuning.at_edge else "")
            rows.append(row)
        return Table(title=f"The paper's LGSSM benchmark: {self.observations} observations, {self.data_sets} data sets "
                     "per seed, every resampler tuned on its grid", rows=rows,
                     columns=[Column(key="resampler", label="resampler", fmt="text"),
                              Column(key="landscape", label="landscape error", unit="nats", digits=3),
                              Column(key="filtering_kl", label="filtering KL", unit="nats", digits=3),
                              Column(key="estimation", label="|theta_hat - 0.5|", digits=3),
                              Column(key="chosen", label="chosen on its grid", fmt="text")],
                     caption="Means over every data set and seed; each metric against the Kalman filter (lower is "
                     "better). The claims compare diffusion with the strongest differentiable rival per data set (paired).")

    def _moment_table(self) -> Table:
        named = [("Weighted set (no resampling)", self.importance_error, self.importance_derivative)]
        named += [(self.labels[n], self.moment_error[n], self.derivative[n]) for n in self.resamplers]
        columns = [Column(key="resampler", label="resampler", fmt="text")]
        for point in self.importance_error:
            columns += [Column(key=f"moment_{point.n}", label=f"moment RMSE, N = {point.n}", digits=3),
                        Column(key=f"derivative_{point.n}", label=f"d mean/dy RMSE, N = {point.n}", digits=3)]
        rows: list[dict[str, Cell]] = [
            {"resampler": label, **{f"moment_{m.n}": m.rmse for m in moments},
             **{f"derivative_{d.n}": d.rmse for d in derivatives}} for label, moments, derivatives in named]
        caption = (f"First seed. Exact d(mean_1)/dy = {number(self.exact_derivative, 3)}. Multinomial and systematic: "
                   "central finite difference with common random numbers.")
        conv = self.per_seed[0].convergence
        if conv is not None:
            caption += (f" ODE convergence check (seed {self.seeds[0]}): at N = {conv.n} the diffusion resampler's "
                        f"moment RMSE is {number(conv.rmse, 3)} with {conv.steps} Euler steps and "
                        f"{number(conv.doubled_rmse, 3)} with {2 * conv.steps} (change "
                        f"{number(100 * conv.relative_change, 2)}%). With 8 steps it is about twice the weighted set's.")
        return Table(title="Experiment 1: resampled moments and d(mean)/dy against the exact posterior",
                     columns=columns, rows=rows, caption=caption)

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {
            f"{self.labels[n]}: landscape error (mean over data sets and seeds)": round(
                sum(sum(s.benchmark[n].landscape) / len(s.benchmark[n].landscape) for s in self.per_seed)
                / len(self.per_seed), 3) for n in self.resamplers}
        out |= {
            f"Kalman dl/dtheta at theta = {self.theta_eval}": round(self.kalman_gradient, 4),
            "Kalman MLE of theta": round(self.kalman_mle, 4),
        }
        largest = self.particles[-1]
        for name in self.resamplers:
            label = self.labels[name]
            out[f"{label}: moment RMSE at N = {largest}"] = round(self.moment_error[name][-1].rmse, 4)
            out[f"{label}: d mean / dy RMSE at N = {largest}"] = round(self.derivative[name][-1].rmse, 4)
            out[f"{label}: gradient bias"] = round(self.gradient[name].bias, 4)
            out[f"{label}: gradient std"] = round(self.gradient[name].std, 4)
            if name in self.estimation:
                out[f"{label}: estimated theta"] = round(self.estimation[name].final_theta, 4)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "moment_error.csv": Artifact.csv(self._moment_csv()),
            "observation_derivative.csv": Artifact.csv(self._derivative_csv()),
            "gradient.csv": Artifact.csv(self._gradient_csv()),
            "estimation.csv": Artifact.csv(self._estimation_csv()),
            "benchmark.csv": Artifact.csv(self._benchmark_csv()),
            "tuning.csv": Artifact.csv(self._tuning_csv()),
        }

    def _benchmark_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["seed", "resampler", "data_set", "landscape_error", "filtering_kl", "theta_hat", "estimation_error"])
        for summary in self.per_seed:
            for name, scores in summary.benchmark.items():
                for d, row in enumerate(zip(scores.landscape, scores.filtering_kl, scores.estimate, scores.estimation,
                                            strict=True)):
                    writer.writerow([summary.seed, name, d, *(f"{v:.6g}" for v in row)])
        return out.getvalue()

    def _tuning_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["resampler", "knobs", "point", "mean_landscape_error", "chosen", "best_at_edge"])
        for name, tuning in self.tunings.items():
            for cell in tuning.cells:
                writer.writerow([name, " x ".join(tuning.axes), " x ".join(f"{v:g}" for v in cell.point),
                                 f"{cell.landscape:.6g}", cell.point == tuning.best, tuning.at_edge])
        return out.getvalue()

    @staticmethod
    def _table(header: list[str], rows: list[list[object]]) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows([[f"{v:.6g}" if isinstance(v, float) else v for v in row] for row in rows])
        return out.getvalue()

    def _moment_csv(self) -> str:
        named = [("importance (before resampling)", p) for p in self.importance_error]
        named += [(name, p) for name in self.resamplers for p in self.moment_error[name]]
        return self._table(["resampler", "n", "rmse", "mean_rmse", "cov_rmse"],
                           [[name, p.n, p.rmse, p.mean_rmse, p.cov_rmse] for name, p in named])

    def _derivative_csv(self) -> str:
        named = [("importance (before resampling)", p) for p in self.importance_derivative]
        named += [(name, p) for name in self.resamplers for p in self.derivative[name]]
        return self._table(["resampler", "n", "mean", "rmse_to_exact", "estimator", "exact"],
                           [[name, p.n, p.value, p.rmse, p.estimator, self.exact_derivative] for name, p in named])

    def _gradient_csv(self) -> str:
        return self._table(["resampler", "filter", "gradient", "kalman_gradient"],
                           [[name, i, v, self.kalman_gradient] for name in self.resamplers
                            for i, v in enumerate(self.gradient[name].samples)])

    def _estimation_csv(self) -> str:
        return self._table(["resampler", "iteration", "filter", "theta", "kalman_mle"],
                           [[name, it, i, theta, self.kalman_mle] for name, summary in self.estimation.items()
                            for it, thetas in enumerate(summary.path) for i, theta in enumerate(thetas)])
