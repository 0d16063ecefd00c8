"""A particle fluid in the playground: SPH (``sph``) for the fluid's own forces, and
every particle's motion swept as a small sphere against the world's static shapes and
bodies through the batch sweep API, so that no particle passes a wall at any speed.

Conventions: SI units, world space.  A fluid of N particles laid out at a rest
``spacing`` s has each particle's mass m = ρ₀·s³ (a lattice of spacing s holds ρ₀) and
the kernels' support h = ``SUPPORT_RATIO``·s (about 33 neighbours at rest).  The
particles collide as spheres of ``radius`` (s/2 by default: neighbours at rest touch).

A world step of ``dt`` is ``substeps`` equal substeps of τ = dt/substeps, each:

1. **Forces.**  Density, pressure and viscosity (``sph.fluid_accelerations``), and
   gravity: v ← v + (a_sph + g)·τ (symplectic Euler: the velocity first, then the
   motion with it).
2. **Motion, swept.**  Each particle's motion v·τ is swept as ``Sphere(x, radius)``
   against every static shape and every body (all the particles against one shape in
   one batched ``sweep``, after a box test keeps only the particles whose motion's box
   meets the shape's).  A body is swept by the particle's motion relative to it: the
   body is taken as it stands at the step's start, translated at its velocity (its turn
   over the step is not swept: a particle a turning body leaves inside is pushed out
   on the next sweep, which finds the overlap).  The earliest hit stops the particle at
   t; its velocity relative to the surface there loses its normal part (bounced by
   ``restitution``) and a Coulomb ``friction`` share of its tangent part, and the rest
   of its motion (the fraction 1 - t, at the new velocity) is swept again, at most
   ``MAX_BOUNCES`` times; a particle still hitting after that stays where its last hit
   left it.  A hit at t = 0 by a motion leaving the surface (or along it) is no hit:
   a particle resting on a floor slides along it.  A particle found inside a shape
   (``initially_overlapping``) is pushed out along the separating normal first.
3. **Coupling.**  What a particle's velocity changed by at a body, m·Δv, the body takes
   back as the impulse -m·Δv at the contact point (``drive.apply_impulses``, once per
   body at the end of the step, before the bodies move): the fluid pushes bodies and
   bodies push the fluid.  Kinematic bodies push and are not pushed.

With ``ccd`` off (the fluid's own switch; the world's ``ccd`` is its bodies'), every
particle moves its whole motion and only the overlaps at the end are resolved (the
same sweep with a zero direction is an overlap test): a fast particle passes a thin
wall.

Why 4 substeps: the explicit step is stable while sound crosses less than about 0.4 h
in a substep (CFL): (c + |v|)·τ ≤ 0.4·h with c = √k.  At the defaults (s = 5 cm,
h = 10 cm, k = 50 m²/s², c = 7.1 m/s) and a dam break of half a metre (|v| ≈ √(2gH) =
3.1 m/s) that is τ ≤ 3.9 ms: four substeps of 1/240 s at the playground's 1/60.
The fluid is about gH/k = 10 % compressible under half a metre of itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sweeplab.playground import drive
from sweeplab.playground.particle_sweeps import earliest_hits, targets_of
from sweeplab.playground.sph import fluid_accelerations, table_size

if TYPE_CHECKING:  # world imports this module
    from sweeplab.playground.world import Body, World

SUPPORT_RATIO = 2.0
"""The kernels' support h over the rest spacing s: 2 gives ~33 neighbours at rest
(4/3·π·2³; Müller et al. take about 20), and puts a particle inside a cubic lattice of
the rest spacing at 1.0098 ρ₀ (the poly6 sum's discretisation of the kernel's
integral, 1; at 1.5 it is 0.949)."""

MAX_BOUNCES = 4
"""Sweeps of one particle's motion in a substep (the first and after each hit): a
particle in a corner meets two walls and a floor."""


def _positive(name: str, value) -> float:
    number = float(value)
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return number


def _at_least_zero(name: str, value) -> float:
    number = float(value)
    if not (math.isfinite(number) and number >= 0):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return number


def _points(name: str, value, count: int | None) -> np.ndarray:
    array = np.array(value, dtype=float)
    if array.ndim != 2 or array.shape[1] != 3 or (count is not None and array.shape[0] != count):
        wanted = "(N, 3)" if count is None else f"({count}, 3)"
        raise ValueError(f"{name} must be an array of shape {wanted}, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite")
    return array


@dataclass
class Particles:
    """N fluid particles (module docstring).  ``ValueError`` naming the field for
    positions or velocities that are not finite (N, 3) arrays of one N, a spacing,
    rest density or radius that is not finite and > 0, a stiffness, viscosity or
    friction below 0, a restitution outside [0, 1], substeps not a whole number >= 1."""

    positions: np.ndarray
    velocities: np.ndarray = None  # type: ignore[assignment]  # an array once made
    """None: at rest."""
    spacing: float = 0.05
    """The rest spacing s (m)."""
    radius: float = None  # type: ignore[assignment]  # a number once made
    """Collision radius (m); None: s/2."""
    rest_density: float = 1000.0
    """ρ₀ (kg/m³)."""
    stiffness: float = 50.0
    """k (m²/s²) of p = k·max(ρ - ρ₀, 0): the speed of sound squared."""
    viscosity: float = 8.0
    """μ (Pa·s) of Müller's viscosity term."""
    restitution: float = 0.0
    friction: float = 0.1
    substeps: int = 4
    ccd: bool = True
    density: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """Each particle's density at the last substep's start (kg/m³; empty before a step)."""

    def __post_init__(self):
        self.positions = _points("positions", self.positions, None)
        count = len(self.positions)
        self.velocities = np.zeros((count, 3)) if self.velocities is None else \
            _points("velocities", self.velocities, count)
        self.spacing = _positive("spacing", self.spacing)
        self.radius = self.spacing / 2 if self.radius is None else _positive("radius", self.radius)
        self.rest_density = _positive("rest_density", self.rest_density)
        self.stiffness = _at_least_zero("stiffness", self.stiffness)
        self.viscosity = _at_least_zero("viscosity", self.viscosity)
        self.friction = _at_least_zero("friction", self.friction)
        self.restitution = _at_least_zero("restitution", self.restitution)
        if self.restitution > 1:
            raise ValueError(f"restitution must be within [0, 1], got {self.restitution!r}")
        if isinstance(self.substeps, bool) or not isinstance(self.substeps, (int, np.integer)) or self.substeps < 1:
            raise ValueError(f"substeps must be a whole number >= 1, got {self.substeps!r}")
        self.substeps = int(self.substeps)

    @classmethod
    def block(cls, corner, counts, spacing: float = 0.05, **settings) -> Particles:
        """A block of counts[0]·counts[1]·counts[2] particles at rest on a cubic lattice of
        ``spacing``, the first centred half a spacing inside ``corner`` (its low corner)."""
        numbers = np.ravel(counts)
        if numbers.shape != (3,) or not all(float(n).is_integer() and n >= 0 for n in numbers):
            raise ValueError(f"counts must be 3 whole numbers >= 0, got {counts!r}")
        low = _points("corner", [corner], 1)[0]
        s = _positive("spacing", spacing)
        grid = np.stack(np.meshgrid(*(np.arange(int(n)) for n in numbers), indexing="ij"), axis=-1).reshape(-1, 3)
        return cls(low + (grid + 0.5) * s, spacing=s, **settings)

    @property
    def mass(self) -> float:
        """Each particle's mass m = ρ₀·s³ (kg)."""
        return self.rest_density * self.spacing ** 3

    @property
    def support(self) -> float:
        """The kernels' support h = ``SUPPORT_RATIO``·s (m)."""
        return SUPPORT_RATIO * self.spacing

    def __len__(self) -> int:
        return len(self.positions)

    def step(self, dt: float, world: World) -> None:
        """Advance the particles ``dt`` among ``world``'s static shapes and bodies, and
        give the bodies the particles' impulses (module docstring)."""
        count = len(self)
        if count == 0:
            return
        tau = dt / self.substeps
        gravity = np.asarray(world.gravity, float)
        buckets = np.zeros(table_size(count) + 1, dtype=np.int64)
        self.density = np.zeros(count)
        acceleration = np.zeros((count, 3))
        taken: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
        for substep in range(self.substeps):
            fluid_accelerations(self.positions, self.velocities, self.support, self.mass, self.rest_density,
                                self.stiffness, self.viscosity, buckets, self.density, acceleration)
            self.velocities += (acceleration + gravity) * tau
            self._move(tau, substep * tau, world, taken)
        for index, pushes in taken.items():
            body = world.bodies[index]
            drive.apply_impulses(body, np.concatenate([j for j, _ in pushes]), np.concatenate([p for _, p in pushes]))
            world.wake(body.name)

    def _move(self, tau: float, elapsed: float, world: World, taken: dict) -> None:
        """One substep's motion swept and resolved (module docstring, step 2); the
        bodies' impulses gathered into ``taken`` (by body index: impulses, points)."""
        left = np.ones(len(self))
        """The fraction of the substep each particle has still to move."""
        if not self.ccd:
            self.positions += self.velocities * tau
            left[:] = 0.0
        targets = targets_of(world)
        moving = np.arange(len(self))
        for _ in range(MAX_BOUNCES if self.ccd else 1):
            motion = self.velocities[moving] * (tau * left[moving])[:, None]
            first = earliest_hits(self.positions[moving], motion, self.velocities[moving], float(self.radius),
                                  elapsed + tau * (1 - left[moving]), tau * left[moving], targets)
            hit = first.target >= 0
            moved = np.where(hit, first.t, 1.0)
            self.positions[moving] += first.push + motion * moved[:, None]
            left[moving] *= 1 - moved
            if not hit.any():
                return
            rows = moving[hit]
            self.positions[rows] += first.normal[hit] * first.depth[hit, None]
            for index in np.unique(first.target[hit]):
                at = first.target == index
                target = targets[index]
                surface = np.zeros((int(at.sum()), 3)) if target.body is None else \
                    _point_velocities(target.body, first.point[at])
                change = self._bounce(self.velocities[moving[at]] - surface, first.normal[at])
                self.velocities[moving[at]] += change
                if target.body is not None and not target.body.kinematic:
                    slot = index - len(world.statics)
                    taken.setdefault(slot, []).append((-self.mass * change, first.point[at]))
            moving = rows

    def _bounce(self, relative: np.ndarray, normal: np.ndarray) -> np.ndarray:
        """The velocity change of particles moving at ``relative`` to a surface of
        ``normal`` (unit, towards the particles): an approach v_n < 0 reversed to
        -e·v_n, and the tangent part v_t reduced by μ·(1 + e)·|v_n|, to zero at most."""
        along = np.einsum("ij,ij->i", relative, normal)
        approach = np.minimum(along, 0.0)
        normal_change = -(1 + self.restitution) * approach
        tangent = relative - along[:, None] * normal
        speed = np.linalg.norm(tangent, axis=1)
        slowing = np.minimum(self.friction * normal_change, speed)
        direction = np.divide(tangent, speed[:, None], out=np.zeros_like(tangent), where=speed[:, None] > 0)
        return normal_change[:, None] * normal - slowing[:, None] * direction


def _point_velocities(body: Body, points: np.ndarray) -> np.ndarray:
    """v + ω × (p - x) of ``body`` at each of ``points`` (K, 3), taken at the step's start."""
    return body.velocity + np.cross(body.angular_velocity, points - body.position)
