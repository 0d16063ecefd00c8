"""FFT waves (``playground.waves``): the inverse FFT is the Tessendorf sum, the surface
is real with mean 0, no wave runs across the wind, and the pool's water never reads
them (drawn only)."""

import math

import numpy as np
import pytest

from sweeplab.playground.pool import Pool
from sweeplab.playground.waves import Waves

G = 9.81


def test_the_heights_are_the_sum_over_wave_vectors_at_each_column():
    """h(x, t) = Σ_k h̃(k, t)·e^{ik·x}, h̃(k, t) = h̃₀(k)e^{iωt} + conj(h̃₀(-k))e^{-iωt},
    summed term by term on a 4 x 6 grid against the FFT's answer."""
    waves, cells, size, time = Waves(amplitude=1e-3, wind=(1.5, -0.7), seed=5), (4, 6), 0.3, 1.7
    start, omega = waves.spectrum(cells, size, G)
    kx = 2 * math.pi * np.fft.fftfreq(cells[0], size)
    ky = 2 * math.pi * np.fft.fftfreq(cells[1], size)
    expected = np.zeros(cells, complex)
    for p in range(cells[0]):
        for q in range(cells[1]):
            now = start[p, q] * np.exp(1j * omega[p, q] * time) + np.conj(start[-p, -q]) * np.exp(
                -1j * omega[p, q] * time)
            for i in range(cells[0]):
                for j in range(cells[1]):
                    expected[i, j] += now * np.exp(1j * (kx[p] * i * size + ky[q] * j * size))
    assert np.max(np.abs(expected.imag)) < 1e-12 * np.max(np.abs(expected.real))
    assert waves.heights(cells, size, time, G) == pytest.approx(expected.real, rel=1e-9, abs=1e-15)


def test_the_surface_has_mean_zero_and_no_wave_across_the_wind():
    waves = Waves(amplitude=1e-4, wind=(3.0, 0.0))
    heights = waves.heights((32, 16), 0.1, 2.5, G)
    assert abs(float(np.mean(heights))) < 1e-15 * float(np.max(np.abs(heights)))
    start, _ = waves.spectrum((32, 16), 0.1, G)
    assert not np.any(start[0, :])  # k along y alone: across the wind
    assert np.any(heights)


def test_waves_are_off_by_default_and_never_move_the_water():
    calm, wavy = Pool((8, 8), 0.1, 0.2), Pool((8, 8), 0.1, 0.2, waves=Waves())
    assert calm.waves is None and np.array_equal(calm.drawn_heights(3.0), calm.heights())
    for pool in (calm, wavy):
        pool.water[3, 3] += 0.01
        for _ in range(30):
            pool.step(1 / 60)
    assert np.array_equal(calm.heights(), wavy.heights())
    assert not np.array_equal(wavy.drawn_heights(0.5), wavy.heights())


@pytest.mark.parametrize("arguments, name", [
    (dict(amplitude=-1e-9), "amplitude"), (dict(amplitude=math.nan), "amplitude"), (dict(wind=(0.0, 0.0)), "wind"),
    (dict(wind=(1.0, math.inf)), "wind"), (dict(wind=(1.0,)), "wind"), (dict(seed=1.5), "seed"),
])
def test_bad_waves_raise_naming_the_field(arguments, name):
    with pytest.raises(ValueError, match=name):
        Waves(**arguments)
    with pytest.raises(ValueError, match="waves"):
        Pool((2, 2), 0.1, 0.1, waves="rough")  # type: ignore[arg-type]
