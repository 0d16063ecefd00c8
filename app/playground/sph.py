"""Smoothed-particle hydrodynamics (Müller, Charypar & Gross 2003, "Particle-based
fluid simulation for interactive applications"), compiled: the smoothing kernels, a
uniform-grid neighbour search and one entry, ``fluid_accelerations``, that gives every
particle its density and its acceleration from pressure and viscosity.

Conventions: SI units; ``h`` (m) is the kernels' support (a neighbour j counts when
r = |x_i - x_j| < h); every particle has the same mass ``m`` (kg).  The three kernels,
each normalised to integrate to 1 over the ball of radius h (the first), or the
derivative of such a kernel (the other two):

    poly6:      W(r)     = 315 / (64 π h⁹) · (h² - r²)³              (density)
    spiky:      ∇W(x)    = -45 / (π h⁶) · (h - r)² · x / r            (pressure; its gradient
                                                                     does not vanish at r → 0)
    viscosity:  ∇²W(r)   =  45 / (π h⁶) · (h - r)                     (viscosity; positive)

and the sums over the neighbours j of i (i itself included in the density):

    ρ_i  = Σ_j m W(r_ij)
    p_i  = k · max(ρ_i - ρ₀, 0)                                       (equation of state)
    a_i  = -Σ_j m (p_i + p_j) / (2 ρ_i ρ_j) ∇W_spiky(x_i - x_j)
           + μ Σ_j m (v_j - v_i) / (ρ_i ρ_j) ∇²W_visc(r_ij)

The equation of state is Müller's ideal-gas form p = k(ρ - ρ₀) with ``k`` (m²/s²) the
square of the fluid's speed of sound, clamped at zero below the rest density: a
particle at the free surface (fewer neighbours, ρ < ρ₀) feels no pull towards the
fluid, which otherwise clumps particles into pairs (the tensile instability).  The
pressure term is Müller's symmetrised one, so two particles push each other equally
and oppositely (momentum is kept); so is the viscosity term.

**Neighbour search.**  A particle's cell is (⌊x/h⌋, ⌊y/h⌋, ⌊z/h⌋); cells are hashed
into a table of ``table_size(n)`` buckets (2n rounded up to a power of two: an
unbounded grid in O(n) memory, a particle fired far away costs nothing), and the
particles are counting-sorted by bucket (a cell's particles sit together in memory).
Each pair closer than h is found once: from the particle s, in its own cell after s
and in the 13 of the 26 neighbouring cells that come after its own (a particle of
another cell hashed into the same bucket is skipped).  The pair's W(r) goes to both
densities, and then its pressure and viscosity terms to both accelerations, with
opposite signs (the terms are symmetric in i and j: momentum is kept to rounding).
The pairs are kept in arrays made once per call (``PAIRS_PER_PARTICLE``); the arrays
are not grown inside the search, whose loop would then pay numba's reference counting
at every pair (measured, the search alone for 10,000 particles: 17 ms CPU against 6.3 ms).
"""

from __future__ import annotations

import math

import numpy as np

from sweeplab.physics.kernels import entry, kernel

_HASH_X, _HASH_Y, _HASH_Z = 73856093, 19349663, 83492791
"""Teschner et al. 2003's primes for hashing a cell's integer coordinates."""


@kernel
def poly6_scale(h):
    """315 / (64 π h⁹): poly6's factor for support ``h``."""
    return 315.0 / (64.0 * math.pi * h ** 9)


@kernel
def spiky_scale(h):
    """45 / (π h⁶): the spiky gradient's and the viscosity Laplacian's factor."""
    return 45.0 / (math.pi * h ** 6)


@kernel
def poly6(r2, h2, scale):
    """W(r) = scale · (h² - r²)³ for r² < h², else 0 (takes r², h², ``poly6_scale(h)``)."""
    if r2 >= h2:
        return 0.0
    d = h2 - r2
    return scale * d * d * d


@kernel
def spiky_slope(r, h, scale):
    """dW/dr = -scale · (h - r)² for r < h, else 0, of the spiky kernel
    W(r) = 15 / (π h⁶) (h - r)³ (``scale`` = ``spiky_scale(h)``; ∇W(x) = dW/dr · x / r)."""
    if r >= h:
        return 0.0
    d = h - r
    return -scale * d * d


@kernel
def viscosity_laplacian(r, h, scale):
    """∇²W(r) = scale · (h - r) for r < h, else 0 (``scale`` = ``spiky_scale(h)``), of
    the viscosity kernel W(r) = 15 / (2π h³) (-r³/(2h³) + r²/h² + h/(2r) - 1)."""
    if r >= h:
        return 0.0
    return scale * (h - r)


def table_size(count: int) -> int:
    """Buckets for ``count`` particles: 2·count rounded up to a power of two (at least 2)."""
    return 1 << max(1, (2 * count - 1).bit_length())


@kernel
def _bucket(cx, cy, cz, mask):
    """The bucket of cell (cx, cy, cz) (int64 coordinates): the XOR of the coordinates
    times three primes, modulo the power-of-two table size (``mask`` = size - 1)."""
    return ((cx * _HASH_X) ^ (cy * _HASH_Y) ^ (cz * _HASH_Z)) & mask


@kernel
def _forward(dx, dy, dz):
    """Whether the cell offset (dx, dy, dz) is one of the 13 of the 26 that come after
    (0, 0, 0) in (dz, dy, dx) order: each pair of neighbouring cells is met from one
    side only."""
    return dz > 0 or (dz == 0 and (dy > 0 or (dy == 0 and dx > 0)))


@kernel
def _close_pairs(x, cell, buckets, mask, h2, smooth, first, second, sums):
    """The pairs (s, j) of the bucket-sorted particles ``x`` (cells ``cell``) closer than
    h (r² < ``h2``), each once: j in one of the 13 forward cells of s's, or in s's own
    cell after s (a bucket's particles of another cell, hashed into it, are skipped).
    Written to ``first``, ``second`` (s, j), each pair's poly6 W(r) (``smooth``: its
    scale) added to both particles' ``sums``; returns their number, or -1 when they do
    not fit."""
    pairs = 0
    for s in range(x.shape[0]):
        for dz in range(-1, 2):
            for dy in range(-1, 2):
                for dx in range(-1, 2):
                    own = dx == 0 and dy == 0 and dz == 0
                    if not (own or _forward(dx, dy, dz)):
                        continue
                    nx, ny, nz = cell[s, 0] + dx, cell[s, 1] + dy, cell[s, 2] + dz
                    key = _bucket(nx, ny, nz, mask)
                    for j in range(s + 1 if own else buckets[key], buckets[key + 1]):
                        if cell[j, 0] != nx or cell[j, 1] != ny or cell[j, 2] != nz:
                            continue
                        e0, e1, e2 = x[s, 0] - x[j, 0], x[s, 1] - x[j, 1], x[s, 2] - x[j, 2]
                        r2 = e0 * e0 + e1 * e1 + e2 * e2
                        if r2 >= h2:
                            continue
                        if pairs == first.shape[0]:
                            return -1
                        first[pairs], second[pairs] = s, j
                        pairs += 1
                        w = poly6(r2, h2, smooth)
                        sums[s] += w
                        sums[j] += w
    return pairs


PAIRS_PER_PARTICLE = 32
"""Room first made for the close pairs, per particle: a particle inside a lattice of
the rest spacing has 26 neighbours within h = 2s (13 pairs each), ~33 on average in
a fluid at rest (``particles.SUPPORT_RATIO``); a denser fluid doubles the room and
looks again."""


@entry(work=lambda positions, *rest: positions.shape[0], seconds_per_work=2e-3)
def fluid_accelerations(positions, velocities, h, mass, rest_density, stiffness, viscosity, buckets,
                        density, acceleration):
    """Each particle's density ``density`` (N,) and its SPH acceleration (pressure and
    viscosity, no gravity) ``acceleration`` (N, 3), written in the particles' order;
    ``buckets`` (``table_size(N)`` + 1,) int64 scratch (module docstring)."""
    count = positions.shape[0]
    mask = buckets.shape[0] - 2
    inverse_h, h2 = 1.0 / h, h * h
    smooth, sharp = poly6_scale(h), spiky_scale(h)
    cells = np.empty((count, 3), dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    for i in range(count):  # counting sort by bucket
        for axis in range(3):
            cells[i, axis] = np.int64(math.floor(positions[i, axis] * inverse_h))
        keys[i] = _bucket(cells[i, 0], cells[i, 1], cells[i, 2], mask)
    buckets[:] = 0
    for i in range(count):
        buckets[keys[i] + 1] += 1
    for k in range(1, buckets.shape[0]):
        buckets[k] += buckets[k - 1]
    order = np.empty(count, dtype=np.int64)
    filled = buckets[:-1].copy()
    for i in range(count):
        order[filled[keys[i]]] = i
        filled[keys[i]] += 1
    x = np.empty((count, 3))
    v = np.empty((count, 3))
    cell = np.empty((count, 3), dtype=np.int64)
    for s in range(count):
        x[s, :] = positions[order[s], :]
        v[s, :] = velocities[order[s], :]
        cell[s, :] = cells[order[s], :]
    capacity = PAIRS_PER_PARTICLE * count
    while True:  # the close pairs, each once
        first = np.empty(capacity, dtype=np.int64)
        second = np.empty(capacity, dtype=np.int64)
        sums = np.full(count, poly6(0.0, h2, smooth))  # ρ_i = Σ_j m W(r_ij), i's own W(0) included
        pairs = _close_pairs(x, cell, buckets, mask, h2, smooth, first, second, sums)
        if pairs >= 0:
            break
        capacity *= 2
    rho = mass * sums
    pressure = np.empty(count)
    for s in range(count):  # p_i = k max(ρ_i - ρ₀, 0)
        pressure[s] = stiffness * max(rho[s] - rest_density, 0.0)
    a = np.zeros((count, 3))
    for k in range(pairs):  # a_i: pressure and viscosity, equal and opposite on j
        s, j = first[k], second[k]
        e0, e1, e2 = x[s, 0] - x[j, 0], x[s, 1] - x[j, 1], x[s, 2] - x[j, 2]
        r = math.sqrt(e0 * e0 + e1 * e1 + e2 * e2)
        weight = mass / (rho[s] * rho[j])
        f0, f1, f2 = 0.0, 0.0, 0.0
        if r > 0.0:
            push = -weight * 0.5 * (pressure[s] + pressure[j]) * spiky_slope(r, h, sharp) / r
            f0, f1, f2 = push * e0, push * e1, push * e2
        drag = viscosity * weight * viscosity_laplacian(r, h, sharp)
        f0 += drag * (v[j, 0] - v[s, 0])
        f1 += drag * (v[j, 1] - v[s, 1])
        f2 += drag * (v[j, 2] - v[s, 2])
        a[s, 0] += f0
        a[s, 1] += f1
        a[s, 2] += f2
        a[j, 0] -= f0
        a[j, 1] -= f1
        a[j, 2] -= f2
    for s in range(count):
        i = order[s]
        density[i] = rho[s]
        acceleration[i, 0], acceleration[i, 1], acceleration[i, 2] = a[s, 0], a[s, 1], a[s, 2]
