"""Result of a Stein-guidance run: tuning curves, paired per-particle outcomes, samples and trajectories."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.grids import GridReport
from models.common.numbers import number

__all__ = ["CurvePoint", "Result", "SeedSummary", "Trajectories"]

UNGUIDED_LABEL = "Unguided prior (trivial reference)"


class CurvePoint(BaseModel):
    """One strength of a tuning grid (or of the exact law's curve): hit rate, on-manifold share, hit ratio."""

    scale: float
    hit_rate: float
    on_manifold_fraction: float
    success_rate: float | None  # hit and on the manifold (None on the exact curve, which gives the two shares)


class Trajectories(BaseModel):
    """Paths of a few particles (first two coordinates) of one method at its tuned strength."""

    times: list[float]
    paths: list[list[list[float]]]  # [particle][time] -> (x1, x2)
    final: list[list[float]]  # all final particles, first two coordinates


class SeedSummary(BaseModel):
    """What the claims need from one seed; lists are per particle, paired across methods (shared noise)."""

    seed: int
    strength: dict[str, float]  # tuned lambda (baselines) or SDG's tuned beta (SDG and its ablations)
    success: dict[str, list[float]]  # 1.0 where the particle hits and stays on the manifold; "unguided" too
    energy: dict[str, list[float]]  # per-particle energy-distance terms to exact draws of SDG's target law
    exact_energy: float  # an exact sample of the same size against the same draws (about 0)
    exact_success: float  # hit ratio of SDG's exact target law p^(1 - alpha) exp(beta r)
    unguided_on_manifold: list[float]  # 1.0 where an unguided particle is on the manifold
    grids: list[GridReport]

    def rate(self, name: str) -> float:
        return float(np.mean(self.success[name]))

    def distance(self, name: str) -> float:
        return float(np.mean(self.energy[name]))


def _csv(header: list[str], rows: Sequence[Sequence[object]]) -> Artifact:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return Artifact.csv(out.getvalue())


def _g(value: float) -> str:
    return f"{value:.6g}"


class Result(MethodResult):
    """Figures show the first seed; the claims and `per_seed` cover every seed."""

    seeds: list[int]
    per_seed: list[SeedSummary]
    dimension: int
    particles: int
    steps: int
    alpha: float
    methods: list[str]
    labels: dict[str, str]
    target: list[float]
    hit_radius: float
    log_density_threshold: float
    curves: dict[str, list[CurvePoint]]  # tuning grids of the tuned methods, first seed
    exact_posterior_curve: list[CurvePoint]  # p_0 exp(lambda r), self-normalised importance sampling
    trajectories: dict[str, Trajectories]
    density_axis: list[float]
    density_grid: list[list[float]]

    def metrics(self) -> dict[str, float | int | str]:
        first = self.per_seed[0]
        out: dict[str, float | int | str] = {
            "SDG's tuned beta": round(first.strength["sdg"], 3),
            "Exact target law p^(1-alpha) exp(beta r): hit ratio": round(first.exact_success, 3),
            "Unguided sampler: hit ratio": round(first.rate("unguided"), 3),
            "Unguided sampler: on-manifold fraction (should be ~0.99)": round(float(np.mean(first.unguided_on_manifold)), 3),
        }
        for name in self.methods:
            out[f"{self.labels[name]}: hit ratio"] = round(first.rate(name), 3)
        return out

    def tables(self) -> list[Table]:
        """Hit ratio at each method's tuned strength, and fidelity to SDG's target law (first seed)."""
        return [self._hit_table(), self._fidelity_table()]

    def _label(self, name: str) -> str:
        return self.labels.get(name, UNGUIDED_LABEL)

    def _hit_table(self) -> Table:
        first = self.per_seed[0]
        rows: list[dict[str, Cell]] = [
            {"method": self._label(n), "strength": first.strength.get(n), "hit": first.rate(n)}
            for n in [*self.methods, "unguided"]]
        rows.append({"method": "Exact target law p^(1-alpha) exp(beta r) (reference)", "strength": None,
                     "hit": first.exact_success})
        caption = (f"Seed {self.seeds[0]}, {self.particles} particles on the same noise for every method. A particle "
                   "counts when it lands within the hit radius of the target and its prior log density is above "
                   f"{number(self.log_density_threshold, 3)} (the prior's 99% region): the toy's docking hit ratio. "
                   "Strength: lambda for the baselines, SDG's tuned beta for SDG and its ablations.")
        return Table(title="Hit ratio at each method's tuned strength", caption=caption, rows=rows, columns=[
            Column(key="method", label="method", fmt="text"), Column(key="strength", label="strength", digits=3),
            Column(key="hit", label="hit ratio", digits=3)])

    def _fidelity_table(self) -> Table:
        first = self.per_seed[0]
        rows: list[dict[str, Cell]] = [{"method": self._label(n), "energy": float(np.mean(v))}
                                       for n, v in first.energy.items()]
        rows.append({"method": "Exact sampler, same sample size (noise floor)", "energy": first.exact_energy})
        caption = ("Unbiased energy distance between the samples and 2,000 exact draws of p^(1-alpha) exp(beta r) "
                   f"(alpha = {number(self.alpha, 2)}, SDG's tuned beta; exact rejection sampling): 0 is the same "
                   "law. Only SDG and its ablations at the same alpha target this law.")
        return Table(title="Fidelity to SDG's target law", caption=caption, rows=rows, columns=[
            Column(key="method", label="method", fmt="text"), Column(key="energy", label="energy distance", digits=4)])

    def artifacts(self) -> dict[str, Artifact]:
        outcomes = [[s.seed, name, _g(s.strength.get(name, 0.0)), _g(s.rate(name)),
                     _g(s.distance(name)) if name in s.energy else ""]
                    for s in self.per_seed for name in [*self.methods, "unguided"]]
        curves = [[name, _g(p.scale), _g(p.hit_rate), _g(p.on_manifold_fraction),
                   "" if p.success_rate is None else _g(p.success_rate)]
                  for name, points in [*self.curves.items(), ("exact_posterior", self.exact_posterior_curve)]
                  for p in points]
        samples = [[name, _g(x1), _g(x2)] for name, traj in self.trajectories.items() for x1, x2 in traj.final]
        paths = [[name, index, _g(t), _g(x1), _g(x2)] for name, traj in self.trajectories.items()
                 for index, path in enumerate(traj.paths) for t, (x1, x2) in zip(traj.times, path, strict=True)]
        return {
            "outcomes.csv": _csv(["seed", "method", "strength", "hit_ratio", "energy_distance"], outcomes),
            "tuning_curves.csv": _csv(["method", "strength", "hit_rate", "on_manifold_fraction", "hit_ratio"], curves),
            "final_samples.csv": _csv(["method", "x1", "x2"], samples),
            "trajectories.csv": _csv(["method", "particle", "t", "x1", "x2"], paths),
        }
