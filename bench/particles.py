"""The particle fluid's cost per step: 10,000 particles in a box at dt = 1/60 s, beside
a plain NumPy/SciPy SPH of the same size measured in the same run.

No fluid engine in the registry installs here as a peer: pybullet has no fluid, and
PySPH (1.0b2) ships no wheel (it builds with Cython and compiles its kernels at run
time).  The reference is therefore the same model written the usual vectorised way,
``numpy_step``: neighbour pairs from ``scipy.spatial.cKDTree.query_pairs``, the
same kernels, equation of state, viscosity and substeps as ``playground.particles``,
summed with ``np.add.at``, and the box's walls as a clamp of the positions (no sweeps:
its collision is the cheapest there is, so the ratio flatters it).

The fluid: a block of 20 x 25 x 20 particles at the rest spacing 5 cm, dropped into
a 2 x 1.25 m box (a floor and four walls, planes), run ``--settle`` steps, then timed
over ``--steps``.  Prints wall and CPU milliseconds a step for both, the ratio, and
where sweeplab's step goes: the SPH entry (``sph.fluid_accelerations``), the sweeps
(``particle_sweeps.earliest_hits``) and the rest (integration, bounces, coupling).
The load average is printed with it: on a shared machine the numbers follow it.
``--quick``: 1,000 particles, a few steps (a smoke test that the bench runs).
Not a test.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from scipy.spatial import cKDTree

from sweeplab.physics import Plane
from sweeplab.playground import particle_sweeps, particles, sph
from sweeplab.playground.particles import Particles
from sweeplab.playground.world import World

DT = 1 / 60


def box_walls(width: float, depth: float) -> dict:
    """A floor and four walls around [0, width] x [0, depth]."""
    return {"floor": Plane([0, 0, 1], 0.0), "x0": Plane([1, 0, 0], 0.0), "x1": Plane([-1, 0, 0], -width),
            "y0": Plane([0, 1, 0], 0.0), "y1": Plane([0, -1, 0], -depth)}


class Timed:
    """A function that adds up the wall time spent in it (``seconds``)."""

    def __init__(self, function):
        self.function, self.seconds = function, 0.0

    def __call__(self, *arguments):
        start = time.perf_counter()
        try:
            return self.function(*arguments)
        finally:
            self.seconds += time.perf_counter() - start


def numpy_step(fluid: Particles, width: float, depth: float) -> None:
    """One step of the same SPH, vectorised over neighbour pairs (module docstring)."""
    h, m, k, mu, tau = fluid.support, fluid.mass, fluid.stiffness, fluid.viscosity, DT / fluid.substeps
    x, v = fluid.positions, fluid.velocities
    low, high = np.full(3, fluid.radius), np.array([width, depth, np.inf]) - fluid.radius
    for _ in range(fluid.substeps):
        i, j = cKDTree(x).query_pairs(h, output_type="ndarray").T
        offset = x[i] - x[j]
        r = np.linalg.norm(offset, axis=1)
        w = 315 / (64 * np.pi * h ** 9) * (h * h - r * r) ** 3
        density = np.full(len(x), m * 315 / (64 * np.pi * h ** 9) * h ** 6)  # each particle's own W(0)
        np.add.at(density, i, m * w)
        np.add.at(density, j, m * w)
        pressure = k * np.maximum(density - fluid.rest_density, 0)
        weight = m / (density[i] * density[j])
        slope = -45 / (np.pi * h ** 6) * (h - r) ** 2
        push = (-weight * 0.5 * (pressure[i] + pressure[j]) * slope / np.where(r > 0, r, 1))[:, None] * offset
        drag = (mu * weight * 45 / (np.pi * h ** 6) * (h - r))[:, None] * (v[j] - v[i])
        acceleration = np.zeros_like(x)
        np.add.at(acceleration, i, push + drag)
        np.add.at(acceleration, j, -push - drag)
        v += (acceleration + [0, 0, -9.81]) * tau
        x += v * tau
        outside = (x < low) | (x > high)
        v[outside] = 0.0
        np.clip(x, low, high, out=x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--settle", type=int, default=5, help="steps run before timing (and compiling)")
    parser.add_argument("--quick", action="store_true", help="1,000 particles, 2 steps")
    options = parser.parse_args()
    counts, steps = ([10, 10, 10], 2) if options.quick else ([20, 25, 20], options.steps)
    width, depth = 2.0, 0.05 * counts[1]

    fluid = Particles.block([0, 0, 0], counts, 0.05)
    world = World([], box_walls(width, depth), particles=fluid)
    accelerations = Timed(sph.fluid_accelerations)
    sweeps = Timed(particle_sweeps.earliest_hits)
    particles.fluid_accelerations, particles.earliest_hits = accelerations, sweeps  # type: ignore[assignment]
    for _ in range(options.settle):
        world.step(DT)
    accelerations.seconds = sweeps.seconds = 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        world.step(DT)
    ours = (time.perf_counter() - wall) / steps * 1e3, (time.process_time() - cpu) / steps * 1e3

    reference = Particles.block([0, 0, 0], counts, 0.05)
    for _ in range(options.settle):
        numpy_step(reference, width, depth)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        numpy_step(reference, width, depth)
    theirs = (time.perf_counter() - wall) / steps * 1e3, (time.process_time() - cpu) / steps * 1e3

    print(f"{len(fluid)} particles, dt = 1/60 s, {fluid.substeps} substeps, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"sweeplab  {ours[0]:8.1f} ms a step wall, {ours[1]:8.1f} ms CPU "
          f"(SPH {accelerations.seconds / steps * 1e3:.1f} ms, sweeps {sweeps.seconds / steps * 1e3:.1f} ms, "
          f"the rest {ours[0] - (accelerations.seconds + sweeps.seconds) / steps * 1e3:.1f} ms)")
    print(f"numpy SPH {theirs[0]:8.1f} ms a step wall, {theirs[1]:8.1f} ms CPU (no sweeps: positions clamped)")
    print(f"ratio (numpy / sweeplab, wall): {theirs[0] / ours[0]:.2f}")


if __name__ == "__main__":
    main()
