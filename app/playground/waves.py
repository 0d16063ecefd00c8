"""FFT waves for a pool's drawn surface: small wind waves from a Phillips spectrum
(Tessendorf, "Simulating Ocean Water", 2001), added to the drawing only.  They do
not touch the bodies nor the water's volume: a pool's ``step`` never reads them.

Over a pool of nx × ny columns of size dx (periodic over Lx = nx·dx, Ly = ny·dx), each
wave vector k = 2π·(p/Lx, q/Ly) (p, q the FFT's frequencies) has the amplitude

    h̃₀(k) = (ξ_r + i·ξ_i)/√2 · √P(k),   P(k) = A·exp(-1/(k·ℓ)²)/k⁴ · (k̂·ŵ)²,  ℓ = |w|²/g,

ξ two standard normals from ``seed``, w the wind (m/s, along x and y), ŵ its
direction, A ``amplitude``; P(0) = 0.  At time t each runs at ω = √(g·k) (deep water):

    h̃(k, t) = h̃₀(k)·e^{iωt} + conj(h̃₀(-k))·e^{-iωt},   h(x, t) = Σ_k h̃(k, t)·e^{ik·x},

real by construction (h̃(-k, t) = conj h̃(k, t)); the sum is one inverse FFT.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Waves:
    """A Phillips spectrum: ``amplitude`` A (1/m², finite, >= 0: the surface's RMS
    grows as √A; the default's is 3.2 mm over the duck pond's 60 x 60 columns of 5 cm),
    ``wind`` (m/s, two finite numbers, not both 0), ``seed`` (a whole number).
    ``ValueError`` naming the field otherwise."""

    amplitude: float = 1e-4
    wind: tuple[float, float] = (2.0, 0.5)
    seed: int = 0

    def __post_init__(self):
        if isinstance(self.amplitude, bool) or not isinstance(self.amplitude, (int, float)) \
                or not math.isfinite(self.amplitude) or self.amplitude < 0:
            raise ValueError(f"amplitude must be a finite number >= 0, got {self.amplitude!r}")
        wind = np.asarray(self.wind, float) if np.ndim(self.wind) == 1 else np.zeros(0)
        if wind.shape != (2,) or not np.all(np.isfinite(wind)) or not np.any(wind):
            raise ValueError(f"wind must be two finite numbers, not both 0, got {self.wind!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ValueError(f"seed must be a whole number, got {self.seed!r}")

    def spectrum(self, cells: tuple[int, int], cell_size: float, g: float) -> tuple[np.ndarray, np.ndarray]:
        """h̃₀(k) over the grid's wave vectors (FFT order, (nx, ny) complex) and ω(k)."""
        nx, ny = cells
        kx = 2 * math.pi * np.fft.fftfreq(nx, cell_size)[:, None]
        ky = 2 * math.pi * np.fft.fftfreq(ny, cell_size)[None, :]
        k = np.hypot(kx, ky)
        wind = np.asarray(self.wind, float)
        speed = float(np.linalg.norm(wind))
        ell = speed * speed / g if g > 0 else math.inf
        with np.errstate(divide="ignore", invalid="ignore"):
            along = (kx * wind[0] + ky * wind[1]) / (k * speed)
            power = self.amplitude * np.exp(-1.0 / (k * ell) ** 2) / k ** 4 * along ** 2
        power = np.where(k > 0, power, 0.0)
        noise = np.random.default_rng(self.seed).standard_normal((2, nx, ny))
        return (noise[0] + 1j * noise[1]) / math.sqrt(2) * np.sqrt(power), np.sqrt(g * k)

    def heights(self, cells: tuple[int, int], cell_size: float, time: float, g: float = 9.81) -> np.ndarray:
        """The waves' heights over each column at ``time`` (s), (nx, ny), mean 0."""
        start, omega = self.spectrum(cells, cell_size, g)
        mirrored = np.conj(np.roll(start[::-1, ::-1], 1, axis=(0, 1)))  # h̃₀(-k) in FFT order
        now = start * np.exp(1j * omega * time) + mirrored * np.exp(-1j * omega * time)
        return np.fft.ifft2(now).real * (cells[0] * cells[1])
