"""Transport of the injected fluid by the steady Darcy flux: implicit first-order upwind finite volumes.

The saturation s of injected fluid (unit mobility ratio, so the flow is steady: a miscible displacement, i.e.
a tracer front) obeys phi ds/dt + div(u s) = q+ - q- s, u = -k grad p, with s = 1 in the injected fluid, s = 0
initially and in fluid entering through the boundary. Fluxes are the FV solver's own face fluxes (two-point,
harmonic-mean transmissibility), so the discrete scheme conserves mass exactly: the injected volume equals the
fluid in place plus what left through the boundary and the producers. Implicit upwind is monotone, so
0 <= s <= 1 at any time step (for fluxes that balance the sources, as the solver's do).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

__all__ = ["INJECTED_PORE_VOLUMES", "STEPS", "Transport", "face_fluxes", "transport"]

INJECTED_PORE_VOLUMES = 0.12  # injected volume at the final time, as a fraction of the (unit) pore volume
STEPS = 24  # implicit time steps


def face_fluxes(k: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Volumetric fluxes: along x (n-1, n) from cell (i, j) to (i+1, j), along y (n, n-1), and each cell's net
    outflow through the boundary (n, n) (p = 0 on the boundary; negative where fluid enters)."""
    tx = 2 * k[:-1, :] * k[1:, :] / (k[:-1, :] + k[1:, :])
    ty = 2 * k[:, :-1] * k[:, 1:] / (k[:, :-1] + k[:, 1:])
    out = np.zeros_like(p)
    out[0, :] += 2 * k[0, :] * p[0, :]
    out[-1, :] += 2 * k[-1, :] * p[-1, :]
    out[:, 0] += 2 * k[:, 0] * p[:, 0]
    out[:, -1] += 2 * k[:, -1] * p[:, -1]
    return tx * (p[:-1, :] - p[1:, :]), ty * (p[:, :-1] - p[:, 1:]), out


@dataclass(frozen=True)
class Transport:
    """Saturation at the final time and the volume balance of the run."""

    saturation: np.ndarray  # (n, n)
    injected: float  # total volume of injected fluid
    left: float  # injected fluid that left through the boundary or the producers
    in_place: float  # injected fluid in the domain at the end


def transport(k: np.ndarray, q: np.ndarray, p: np.ndarray, pore_volumes: float = INJECTED_PORE_VOLUMES,
              steps: int = STEPS) -> Transport:
    """Inject for the time that puts `pore_volumes` of fluid in (unit porosity), in `steps` implicit steps."""
    n = k.shape[0]
    h2 = 1.0 / n**2
    fx, fy, bout = face_fluxes(k, p)
    inj, prod = np.maximum(q, 0) * h2, np.maximum(-q, 0) * h2
    total = float(inj.sum())
    dt = pore_volumes / total / steps
    index = np.arange(n * n).reshape(n, n)
    outflow = np.maximum(bout, 0) + prod  # leaves the cell at the cell's own saturation
    rows, cols, vals = [], [], []
    for flux, a, b in ((fx, index[:-1, :], index[1:, :]), (fy, index[:, :-1], index[:, 1:])):
        up, down = np.where(flux > 0, a, b).ravel(), np.where(flux > 0, b, a).ravel()
        f = np.abs(flux).ravel()
        rows += [up, down]  # upwind: the flux leaves `up` at s_up and enters `down` at s_up
        cols += [up, up]
        vals += [f, -f]
    rows.append(index.ravel())
    cols.append(index.ravel())
    vals.append((h2 / dt + outflow).ravel())
    matrix = sp.csc_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n * n, n * n))
    lu = splu(matrix)
    s = np.zeros(n * n)
    left = 0.0
    for _ in range(steps):
        s = lu.solve(h2 / dt * s + inj.ravel())
        left += dt * float(outflow.ravel() @ s)
    return Transport(saturation=s.reshape(n, n), injected=total * dt * steps, left=left, in_place=float(h2 * s.sum()))
