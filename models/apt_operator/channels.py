"""Channelised media: sinuous high-permeability channels in a low-permeability background (two facies).

The paper's subsurface settings have sharp permeability contrasts (channels, faults, its "discontinuous von
Karman" set). A `ChannelField` is defined in continuous coordinates, so it can be sampled on any mesh: a point is
in a channel when its distance across the channel's centre line (a sine wave along a direction theta) is below
half the width. ln k is +ln(contrast) / 2 in a channel and -ln(contrast) / 2 outside (geometric mean 1 when half
the area is channel), a jump of ln(contrast) across every channel edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["CONTRAST", "ChannelField", "draw_channels", "gaussian_wells"]

CONTRAST = 100.0  # k in a channel / k in the background
CHANNELS = (3, 5)  # channels per medium: from, to (inclusive)
WIDTH = (0.06, 0.10)  # channel width (domain units): 2-3 cells of the 32 x 32 grid
WELL_WIDTH = 0.05  # Gaussian well radius
RATES = np.array([1.0, -0.5, -0.5]) * 10.0  # one injector, two producers


def gaussian_wells(wells: np.ndarray, rates: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The source q(x, y): a Gaussian of radius WELL_WIDTH and integral `rate` at each well."""
    out = np.zeros(np.broadcast(x, y).shape)
    for (wx, wy), rate in zip(wells, rates, strict=True):
        out += rate * np.exp(-((x - wx) ** 2 + (y - wy) ** 2) / (2 * WELL_WIDTH**2)) / (2 * np.pi * WELL_WIDTH**2)
    return out


@dataclass(frozen=True)
class ChannelField:
    """One channelised medium: per channel (angle, offset, amplitude, wavelength, phase, width); the wells."""

    channels: np.ndarray  # (C, 6)
    wells: np.ndarray  # (W, 2) positions
    rates: np.ndarray  # (W,) injection (+) / production (-) rates, summing to zero
    contrast: float = CONTRAST

    def in_channel(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        x, y = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        inside = np.zeros(x.shape, dtype=bool)
        for theta, offset, amp, wavelength, phase, width in self.channels:
            u = (x - 0.5) * np.cos(theta) + (y - 0.5) * np.sin(theta)
            v = -(x - 0.5) * np.sin(theta) + (y - 0.5) * np.cos(theta)
            inside |= np.abs(v - offset - amp * np.sin(2 * np.pi * u / wavelength + phase)) < width / 2
        return inside

    def log_k(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        half = 0.5 * np.log(self.contrast)
        return np.where(self.in_channel(x, y), half, -half)

    def source(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return gaussian_wells(self.wells, self.rates, x, y)


def draw_channels(rng: np.random.Generator, contrast: float = CONTRAST) -> ChannelField:
    """3-5 sinuous channels around one random main direction (+-20 degrees), an injector and two producers."""
    count = int(rng.integers(CHANNELS[0], CHANNELS[1] + 1))
    main = rng.uniform(0, np.pi)
    channels = np.stack([main + rng.uniform(-np.pi / 9, np.pi / 9, count), rng.uniform(-0.45, 0.45, count),
                         rng.uniform(0.02, 0.08, count), rng.uniform(0.3, 0.8, count),
                         rng.uniform(0, 2 * np.pi, count), rng.uniform(*WIDTH, count)], 1)
    wells = rng.uniform(0.2, 0.8, size=(3, 2))
    return ChannelField(channels=channels, wells=wells, rates=RATES.copy(), contrast=contrast)
