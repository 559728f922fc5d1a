"""Result of a Stein-guidance run: curves per method, the matched comparison, samples and trajectories."""

from __future__ import annotations

import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult
from models.common.grids import GridReport

__all__ = ["CurvePoint", "MatchedComparison", "Result", "SeedSummary", "Trajectories"]


class CurvePoint(BaseModel):
    scale: float
    hit_rate: float
    on_manifold_fraction: float


class MatchedComparison(BaseModel):
    """On-manifold fractions of every method at one common reward hit rate."""

    hit_rate: float
    on_manifold: dict[str, float | None]  # None: the method's sweep never reached this hit rate
    exact_posterior: float


class Trajectories(BaseModel):
    """Paths of a few particles (first two coordinates) at the scale nearest the matched hit rate."""

    scale: float
    times: list[float]
    paths: list[list[list[float]]]  # [particle][time] -> (x1, x2)
    final: list[list[float]]  # all final particles at that scale, first two coordinates


class SeedSummary(BaseModel):
    """What the claims need from one seed: energy distances per scale and the matched comparison."""

    seed: int
    energy_distance: dict[str, list[float]]  # method -> per guidance scale, to exact draws at that scale
    dps_tuned: list[float] | None  # DPS at its best scale on the sweep, for each target scale
    dps_tuned_scale: list[float] | None
    dps_grids: list[GridReport] = []  # DPS's tuning grid for each target scale (it brackets the optimum)
    exact_floor: list[float]  # an independent exact sample of the same size: the noise floor (about 0)
    matched_hit_rate: float
    on_manifold_at_match: dict[str, float | None]
    exact_at_match: float
    unguided_on_manifold: float


class Result(MethodResult):
    """Figures and tables show the first seed; the claims and `per_seed` cover every seed."""

    seeds: list[int]
    per_seed: list[SeedSummary]
    guidance_scales: list[float]
    dimension: int
    particles: int
    steps: int
    methods: list[str]
    labels: dict[str, str]
    target: list[float]
    hit_radius: float
    log_density_threshold: float
    unguided_on_manifold: float
    curves: dict[str, list[CurvePoint]]
    exact_posterior_curve: list[CurvePoint]
    at_matched_hit_rate: MatchedComparison
    trajectories: dict[str, Trajectories]
    density_axis: list[float]
    density_grid: list[list[float]]

    def metrics(self) -> dict[str, float | int | str]:
        m = self.at_matched_hit_rate
        out: dict[str, float | int | str] = {
            "Matched reward hit rate": round(m.hit_rate, 3),
            "Exact posterior: on-manifold fraction at that rate": round(m.exact_posterior, 3),
            "Unguided sampler: on-manifold fraction (should be ~0.99)": round(self.unguided_on_manifold, 3),
            "On-manifold threshold (log prior density)": round(self.log_density_threshold, 3),
        }
        for name, fraction in m.on_manifold.items():
            out[f"{self.labels[name]}: on-manifold fraction"] = "not reached" if fraction is None else round(fraction, 3)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        curves = io.StringIO()
        curves.write("method,scale,hit_rate,on_manifold_fraction\n")
        rows = [(name, p) for name in self.methods for p in self.curves[name]]
        rows += [("exact_posterior", p) for p in self.exact_posterior_curve]
        for name, p in rows:
            curves.write(f"{name},{p.scale:g},{p.hit_rate:.6g},{p.on_manifold_fraction:.6g}\n")
        samples = io.StringIO()
        samples.write("method,scale,x1,x2\n")
        for name, traj in self.trajectories.items():
            for x1, x2 in traj.final:
                samples.write(f"{name},{traj.scale:g},{x1:.6g},{x2:.6g}\n")
        paths = io.StringIO()
        paths.write("method,particle,t,x1,x2\n")
        for name, traj in self.trajectories.items():
            for index, path in enumerate(traj.paths):
                for t, (x1, x2) in zip(traj.times, path, strict=True):
                    paths.write(f"{name},{index},{t:.6g},{x1:.6g},{x2:.6g}\n")
        matched = io.StringIO()
        matched.write("method,hit_rate,on_manifold_fraction\n")
        m = self.at_matched_hit_rate
        for name, fraction in m.on_manifold.items():
            matched.write(f"{name},{m.hit_rate:.6g},{'' if fraction is None else f'{fraction:.6g}'}\n")
        matched.write(f"exact_posterior,{m.hit_rate:.6g},{m.exact_posterior:.6g}\n")
        fidelity = io.StringIO()
        fidelity.write("seed,method,scale,energy_distance\n")
        for summary in self.per_seed:
            named = {**summary.energy_distance, "exact_sample": summary.exact_floor}
            if summary.dps_tuned is not None:
                named["dps_best_scale"] = summary.dps_tuned
            for name, values in named.items():
                for scale, value in zip(self.guidance_scales, values, strict=True):
                    fidelity.write(f"{summary.seed},{name},{scale:g},{value:.6g}\n")
        return {
            "energy_distance.csv": Artifact.csv(fidelity.getvalue()),
            "curves.csv": Artifact.csv(curves.getvalue()),
            "matched.csv": Artifact.csv(matched.getvalue()),
            "final_samples.csv": Artifact.csv(samples.getvalue()),
            "trajectories.csv": Artifact.csv(paths.getvalue()),
        }
