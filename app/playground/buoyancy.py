"""Buoyancy against a still water plane: the submerged part of a body, exactly, and the
force and drag the water puts on it over a step.

Conventions.  The plane is given by a ``point`` on it and its unit ``normal`` pointing
*up*, out of the water; a point x is under water when its height h(x) = n·(x - point)
is below zero.  ``submerged`` answers the volume of the body's world shape under the
plane (m³) and the centre of that volume (world); a body wholly above the plane (or
touching it at a point, an edge or a face) has volume 0, and its centre is then the
body's own centre.  A ``Water`` is such a plane across a world: its ``level`` is the
height of the surface along up = -gravity/|gravity| (the plane's point is
``level·up``).

Each shape is integrated exactly:

- a **sphere** of radius r whose centre is s above the plane is under water to the
  depth d = r - s (clipped to [0, 2r]): the spherical cap

      V = π d² (3r - d) / 3,   its centre 3 (2r - d)² / (4 (3r - d)) below the sphere's;

- a **convex hull** (a box is one: ``world.box_body``) is clipped by the plane: each
  face loses the part above it (Sutherland-Hodgman), the waterline polygon (the edges'
  crossings and the corners on the plane) closes the solid, and the volume and centre
  come from its tetrahedra (``mass.solid_integrals``, the same integrals as the mass);
- a **capsule** (segment a→b of length L, radius r), at any tilt, is sliced across its
  axis: at t along the axis from a the slice is a disc of radius ρ(t) (r over the
  cylinder, √(r² - t²) over the end balls), whose centre is s(t) = s_a + c·t above the
  plane (c = n·u, u the axis).  Within the disc, y along the in-slice up e = (n - c u)/σ
  (σ = |n - c u|, the sine of the tilt), a point is under water where y <= -s/σ, the
  segment of the disc below the chord at x = -s/(σρ) (clipped to [-1, 1]) of its radius:

      A(t) = ρ² (acos(-x) + x √(1 - x²)),   ∫ y dA = -2/3 ρ³ (1 - x²)^(3/2),

  and V = ∫ A dt, the centre a + (∫ t A dt / V) u + (∫ (∫ y dA) dt / V) e.  A(t) is
  analytic in t but where the chord leaves the disc (|x| = 1: the roots of
  σ²ρ(t)² = s(t)², closed forms below) and where the cylinder meets a ball (t = 0, L);
  there it behaves as (t - t₀)^(3/2).  So the axis is cut at those points, each piece
  cut again into pieces halving towards its ends (the continuation of a piece's
  integrand has singularities just past its ends: the chord's other root, a ball's
  pole), and each integrated by Gauss-Legendre in θ with t = α + (β - α)(1 - cos θ)/2,
  which turns (t - t₀)^(3/2) into an analytic function of θ.  The error is stated at
  ``CAPSULE_NODES``.

Forces (``push``): a body under water by V at centre c gets the buoyancy F = -ρ g V (up,
against gravity) at c, and drags scaled by its submerged fraction f = V / V_body:

    dv/dt = -linear_drag · f · v,    dω/dt = -angular_drag · f · ω.

Both are applied as ``drive`` applies a force over a step: a constant force through the
centre of mass for the step and the torque as an angular impulse at its start.  The
drags are the exact decay of those equations over the step, as a constant force and
torque: F_drag = m v (e^(-c f dt) - 1)/dt and τ_drag = I ω (e^(-c f dt) - 1)/dt (I in
world axes; -c f m v and -c f I ω for small c f dt): a drag never reverses a velocity,
whatever c·dt (the explicit -c f m v does past c f dt = 2).

The submerged part is found with the body moved half a step along its velocity,
x + v·dt/2, and turned as at the step's start.  The world moves a body on the
parabola x + vτ + ½aτ² with a constant a over the step, and turns it at the angular
velocity left by the step-start torque impulse.  For a linear restoring force
(a floating body's heave, k = ρ|g|A_waterplane), the force at x + v·dt/2 makes the
step's map of (x, v) area-preserving (determinant exactly 1: the heave neither gains
nor loses energy); at x it gains a factor 1 + k dt²/(2m) a step (1.0068 at 60 Hz for a
box 20 cm high of half water's density: its bobbing grows 2.3x in 2 s).  For the roll,
the torque at the start's turn is the symplectic Euler step (determinant 1); at a turn
half a step on it would lose 1 - k dt²/(2I) a step.

Sleep: a body in water sleeps as it does on the ground (``sleep``: its speed, not its
forces), so a floating body that the drag has stilled sleeps where it is, within
about SLEEP_SPEED/ω of its equilibrium (ω its heave frequency: 5 mm for a box 20 cm high
of half water's density), and stays asleep: a sleeping body gets no force.  It wakes
as any body does (a body dropped on it, a push) and when the world's ``water``
changes (``World.step``: every body wakes, and those that are still fall asleep again).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere
from sweeplab.playground import drive
from sweeplab.playground.mass import mass_properties, solid_integrals

if TYPE_CHECKING:  # world imports this module
    from sweeplab.playground.world import Body

CAPSULE_LEVELS = 12
"""Each piece of a capsule's axis is split into pieces halving towards both its ends,
this many halvings each way (``_graded``)."""
CAPSULE_NODES = 16
"""Gauss-Legendre nodes per piece (module docstring).  Measured over 2,000 random
capsules, tilts and water levels against 40 nodes and 40 halvings, the relative error of
the volume and of the centre (over the capsule's length plus its diameter): at most
5e-15 where the surface is at least 1% of that size from the capsule's lowest and
highest points, 4e-13 for shallower slivers, whose volume is ill-conditioned (the
inputs' rounding, ε·size, moves a sliver's depth h by ε·size/h of itself); 8 nodes
were 1e-8 off, 8 halvings 8e-14.  ``tests/playground/test_buoyancy.py`` holds it to
1e-12 against the closed forms of an upright and a level capsule and a ball."""


WATERLINE_POINTS = 48
"""Points on a sphere's or capsule's drawn waterline (``waterline``)."""


@dataclass(frozen=True)
class Water:
    """A still water plane across the world: everything below ``level`` (m, the
    height along up = -gravity/|gravity|) is water of ``density`` (kg/m³).
    ``linear_drag`` and ``angular_drag`` (1/s, >= 0) damp a body's velocity and angular
    velocity in proportion to its submerged fraction (module docstring).  ``ValueError``
    naming the field for a value that is not a finite number (or not > 0 for the
    density, not >= 0 for a drag)."""

    level: float = 0.0
    density: float = 1000.0
    linear_drag: float = 0.0
    angular_drag: float = 0.0

    def __post_init__(self):
        for name in ("level", "density", "linear_drag", "angular_drag"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) \
                    or not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
            object.__setattr__(self, name, float(value))
        if self.density <= 0:
            raise ValueError(f"density must be > 0 (kg/m³), got {self.density!r}")
        for name in ("linear_drag", "angular_drag"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0 (1/s), got {getattr(self, name)!r}")


@dataclass(frozen=True)
class Submerged:
    """``volume`` (m³) of a body under a plane and the ``centre`` (world, (3,)) of that
    volume; volume 0: the body's own centre."""

    volume: float
    centre: np.ndarray


def submerged(body: Body, point, normal) -> Submerged:
    """The part of ``body``'s world shape under the plane through ``point`` with the
    up ``normal`` (any length > 0; module docstring).  ``ValueError`` naming the
    argument for a point or normal that is not 3 finite numbers, or a zero normal."""
    point = drive.vector("point", point)
    up = drive.vector("normal", normal)
    size = float(np.linalg.norm(up))
    if size == 0:
        raise ValueError("normal must not be zero: it is the plane's up direction")
    return shape_submerged(body.world_shape(), point, up / size, body.position)


def shape_submerged(shape: Sphere | Capsule | ConvexPolyhedron, point: np.ndarray, up: np.ndarray,
                    centre: np.ndarray) -> Submerged:
    """``submerged`` for a world ``shape`` and a unit ``up``; ``centre``: the answer's
    centre when nothing is under water."""
    if isinstance(shape, Sphere):
        found = _sphere(np.asarray(shape.center, float), float(shape.radius), point, up)
    elif isinstance(shape, Capsule):
        found = capsule_submerged(np.asarray(shape.a, float), np.asarray(shape.b, float), float(shape.radius),
                                  point, up)
    else:
        found = _hull(shape, point, up)
    return found if found.volume > 0 else Submerged(0.0, np.array(centre, float))


@functools.lru_cache(maxsize=4096)
def volume(shape: Sphere | Capsule | ConvexPolyhedron) -> float:
    """The shape's whole volume (m³): its mass at unit density (``mass``); kept for the
    latest 4096 shapes (a shape is immutable, and hashed by its identity): a body's
    drag reads it every step."""
    return mass_properties(shape).mass


def _sphere(centre: np.ndarray, radius: float, point: np.ndarray, up: np.ndarray) -> Submerged:
    """The cap under the plane: depth d = r - s, V = π d² (3r - d)/3, centre
    3 (2r - d)² / (4 (3r - d)) below the sphere's (2r: the whole ball, at its centre;
    r: the half ball, 3r/8 down)."""
    depth = min(max(radius - float(up @ (centre - point)), 0.0), 2 * radius)
    if depth == 0:
        return Submerged(0.0, centre)
    below = 3 * (2 * radius - depth) ** 2 / (4 * (3 * radius - depth))
    return Submerged(math.pi * depth * depth * (3 * radius - depth) / 3, centre - below * up)


def _hull(shape: ConvexPolyhedron, point: np.ndarray, up: np.ndarray) -> Submerged:
    """The hull clipped by the plane (module docstring), integrated from the mean of the
    clipped corners."""
    loops = waterline_clip(shape, point, up)
    if not loops:
        return Submerged(0.0, np.zeros(3))
    apex = np.mean(np.concatenate(loops), axis=0)
    size, first, _ = solid_integrals([loop - apex for loop in loops])
    if size <= 0:  # the plane through a corner, an edge or a face from above: nothing under it
        return Submerged(0.0, np.zeros(3))
    return Submerged(size, apex + first / size)


def waterline_clip(shape: ConvexPolyhedron, point: np.ndarray, up: np.ndarray) -> list[np.ndarray]:
    """The faces of the hull's part under the plane, each a (k, 3) loop counter-clockwise
    from outside, the waterline polygon last (when some corner is above the plane and
    the polygon has an area); [] when no corner is below the plane.

    Sutherland-Hodgman per face: going round the loop, a corner at height h_i <= 0 is
    kept, and where an edge crosses the plane (h_i and h_j of strictly opposite signs)
    the crossing v_i + (v_j - v_i)·h_i/(h_i - h_j) is added.  The waterline polygon is
    every edge's crossing and every corner on the plane (h = 0), in order round their
    mean, counter-clockwise seen from above (its outward normal is up)."""
    corners = np.asarray(shape.vertices, float)
    heights = (corners - point) @ up
    if not np.any(heights < 0):
        return []
    if not np.any(heights > 0):  # wholly under (a face on the plane is a face already)
        return [corners[list(face)] for face in shape.faces]
    loops = []
    height = heights.tolist()
    for face in shape.faces:
        loop = []
        indices = list(face)
        for i, j in zip(indices, indices[1:] + indices[:1], strict=True):
            if height[i] <= 0:
                loop.append(corners[i])
            if height[i] * height[j] < 0:
                loop.append(_crossing(corners[i], corners[j], height[i], height[j]))
        if len(loop) >= 3:
            loops.append(np.array(loop))
    line = _hull_waterline(shape, corners, heights, up)
    return loops + [line] if len(line) else loops


def _hull_waterline(shape: ConvexPolyhedron, corners: np.ndarray, heights: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The waterline polygon of a hull whose ``corners`` are at ``heights`` above the
    plane: every edge's crossing and every corner on the plane, counter-clockwise seen
    from above; (0, 3) when they are fewer than three."""
    height = heights.tolist()
    line = [_crossing(corners[i], corners[j], height[i], height[j])
            for i, j in np.asarray(shape.edges).tolist() if height[i] * height[j] < 0]
    line += [corners[k] for k in np.flatnonzero(heights == 0)]
    return _round(np.array(line), up) if len(line) >= 3 else np.zeros((0, 3))


def waterline(body: Body, point, normal, count: int = WATERLINE_POINTS) -> np.ndarray:
    """Where the plane through ``point`` with the up ``normal`` cuts ``body``'s world
    shape: the outline of the cross-section, a closed loop (k, 3) counter-clockwise seen
    from above; (0, 3) when the plane misses the body or only touches it.  A hull's is
    its clip's waterline polygon (exact); a sphere's or capsule's is ``count`` points
    of the outline {x on the plane: |x - segment| = r}, each found along a ray in the
    plane from a point inside it by bisection to the rounding of the reach (60 halvings
    of L + 2r).  ``ValueError`` as ``submerged``."""
    point = drive.vector("point", point)
    up = drive.vector("normal", normal)
    size = float(np.linalg.norm(up))
    if size == 0:
        raise ValueError("normal must not be zero: it is the plane's up direction")
    up = up / size
    shape = body.world_shape()
    if isinstance(shape, ConvexPolyhedron):
        corners = np.asarray(shape.vertices, float)
        heights = (corners - point) @ up
        if not (np.any(heights < 0) and np.any(heights > 0)):
            return np.zeros((0, 3))
        return _hull_waterline(shape, corners, heights, up)
    if isinstance(shape, Sphere):
        a = b = np.asarray(shape.center, float)
    else:
        a, b = np.asarray(shape.a, float), np.asarray(shape.b, float)
    return _round_waterline(a, b, float(shape.radius), point, up, count)


def _round_waterline(a: np.ndarray, b: np.ndarray, radius: float, point: np.ndarray, up: np.ndarray,
                     count: int) -> np.ndarray:
    """The outline of the points of the plane within ``radius`` of the segment a→b
    (``waterline``).  The inside point: where the segment crosses the plane, else its end
    nearer the plane put down onto it (|h| < r: inside)."""
    low, high = float(up @ (a - point)), float(up @ (b - point))
    if min(low, high) >= radius or max(low, high) <= -radius:
        return np.zeros((0, 3))
    if low * high < 0:
        inside = a + (b - a) * (low / (low - high))
    else:
        near, height = (a, low) if abs(low) <= abs(high) else (b, high)
        inside = near - height * up
    x, y = _plane_axes(up)
    angles = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
    rays = np.cos(angles)[:, None] * x + np.sin(angles)[:, None] * y
    near_end, far_end = np.zeros(count), np.full(count, float(np.linalg.norm(b - a)) + 2 * radius)
    axis = b - a
    span = float(axis @ axis)
    for _ in range(60):  # |x - segment| is convex along a ray, below r at its start: one crossing
        middle = (near_end + far_end) / 2
        points = inside + middle[:, None] * rays
        t = np.clip((points - a) @ axis / span, 0.0, 1.0) if span > 0 else np.zeros(count)
        outside = np.linalg.norm(points - (a + t[:, None] * axis), axis=1) > radius
        far_end = np.where(outside, middle, far_end)
        near_end = np.where(outside, near_end, middle)
    return inside + near_end[:, None] * rays


def _crossing(start: np.ndarray, end: np.ndarray, start_height: float, end_height: float) -> np.ndarray:
    """Where the edge from ``start`` to ``end`` meets the plane: start + (end - start)·h₀/(h₀ - h₁)."""
    return start + (end - start) * (start_height / (start_height - end_height))


def _plane_axes(up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit axes x, y of the plane with unit normal ``up``, (x, y, up) right-handed:
    x = the axis most across ``up`` less its part along it (Gram-Schmidt), y = up × x
    (written out: ``np.cross`` of two 3-vectors costs ~20 array operations)."""
    x = np.eye(3)[int(np.argmin(np.abs(up)))] - up[int(np.argmin(np.abs(up)))] * up
    x /= np.linalg.norm(x)
    return x, np.array([up[1] * x[2] - up[2] * x[1], up[2] * x[0] - up[0] * x[2], up[0] * x[1] - up[1] * x[0]])


def _round(points: np.ndarray, up: np.ndarray) -> np.ndarray:
    """Coplanar ``points`` of a convex polygon in counter-clockwise order about ``up``."""
    middle = points.mean(axis=0)
    x, y = _plane_axes(up)
    offsets = points - middle
    return points[np.argsort(np.arctan2(offsets @ y, offsets @ x), kind="stable")]


def _graded(cuts: np.ndarray, levels: int) -> tuple[np.ndarray, np.ndarray]:
    """The starts and ends of the pieces between ``cuts`` (empty ones dropped), each
    split at 2^-k and 1 - 2^-k of its length for k = 1..``levels``: pieces that halve
    towards both ends, so that a singularity of the integrand's continuation just past
    an end (the chord's other root in the next piece, a ball's pole) is as far from
    every small piece as that piece is long."""
    start, end = cuts[:-1], cuts[1:]
    keep = end > start
    start, end = start[keep], end[keep]
    halves = np.ldexp(1.0, -np.arange(levels, 0, -1))
    fractions = np.concatenate([[0.0], halves, 1 - halves[::-1], [1.0]])
    points = start[:, None] + (end - start)[:, None] * fractions
    return points[:, :-1].ravel(), points[:, 1:].ravel()


@functools.cache
def _rule(nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre on θ in [0, π]: its nodes and weights."""
    unit, weights = np.polynomial.legendre.leggauss(nodes)
    return (unit + 1) * math.pi / 2, weights * math.pi / 2


def capsule_submerged(a: np.ndarray, b: np.ndarray, radius: float, point: np.ndarray, up: np.ndarray,
                      nodes: int = CAPSULE_NODES, levels: int = CAPSULE_LEVELS) -> Submerged:
    """The capsule from ``a`` to ``b`` (world) under the plane through ``point`` with the
    unit ``up``, sliced across its axis (module docstring), ``nodes`` per piece of the
    axis (volume 0: the centre is the capsule's).  The pieces of the axis
    t in [-r, L + r] are cut at t = 0 and L and where a slice's chord leaves its disc,
    σ²ρ(t)² = s(t)²:

        over the cylinder (ρ = r):   t = (±σ r - s_a) / c;
        over the ball at a (t < 0, ρ² = r² - t²):   t = -s_a c ± σ √(r² - s_a²)
            (t² + 2 s_a c t + s_a² - σ² r² = 0, from c² + σ² = 1);
        over the ball at b: the same about b with s_b = s_a + c L."""
    low, high = float(up @ (a - point)), float(up @ (b - point))
    if min(low, high) >= radius:
        return Submerged(0.0, (a + b) / 2)
    axis = b - a
    length = math.hypot(*axis)  # (no square to underflow: a length of 1e-159 squared is subnormal)
    if length == 0:
        return _sphere(a, radius, point, up)
    if max(low, high) + radius <= 0:
        return Submerged(volume(Capsule(a, b, radius)), (a + b) / 2)
    u = axis / length
    c = float(up @ u)
    across = up - c * u
    sine = float(np.linalg.norm(across))
    e = across / sine if sine > 0 else np.zeros(3)
    cuts = [-radius, 0.0, length, length + radius]
    if c != 0:
        cuts += [t for t in ((sine * radius - low) / c, (-sine * radius - low) / c) if 0 < t < length]
    for pole, s in ((0.0, low), (length, high)):  # t from the ball's centre: < 0 for a's, > 0 for b's
        if abs(s) < radius:
            root = sine * math.sqrt(radius * radius - s * s)
            cuts += [pole + t for t in (-s * c + root, -s * c - root) if (t < 0) == (pole == 0) and abs(t) < radius]
    cuts.sort()
    start, end = _graded(np.array(cuts), levels)
    theta, weights = _rule(nodes)
    t = start[:, None] + (end - start)[:, None] * (1 - np.cos(theta)) / 2
    weight = weights * (end - start)[:, None] * np.sin(theta) / 2
    squared = radius * radius - np.square(np.minimum(t, 0.0) + np.maximum(t - length, 0.0))
    disc = np.sqrt(np.maximum(squared, 0.0))
    height = low + c * t
    reach = sine * disc
    x = np.where(height < 0, 1.0, -1.0)  # a disc on edge (σρ = 0): wholly under or over
    np.divide(-height, reach, out=x, where=reach > 0)
    x = np.clip(x, -1.0, 1.0)
    rest = np.sqrt(1 - x * x)
    area = squared * (np.arccos(-x) + x * rest)
    volume_sum = float(np.sum(weight * area))
    along = float(np.sum(weight * t * area))
    sideways = float(np.sum(weight * (-2 / 3) * disc ** 3 * rest ** 3))
    if volume_sum <= 0:
        return Submerged(0.0, (a + b) / 2)
    return Submerged(volume_sum, a + along / volume_sum * u + sideways / volume_sum * e)


def push(water: Water, body: Body, gravity: np.ndarray, dt: float) -> drive.Push | None:
    """The water's force and torque on ``body`` over a step of ``dt`` (module docstring),
    or None when no part of it is under water (or gravity is zero: no up, no buoyancy).

        F = -ρ g V + m v (e^(-c_v f dt) - 1)/dt,
        τ = (c_sub - x) × (-ρ g V) + I ω (e^(-c_ω f dt) - 1)/dt,

    with V and c_sub - x the submerged volume and its centre's offset for the body at
    x = x₀ + v dt/2, turned as now (found as the body where it is under the plane moved
    down by v dt/2), f = V / V_body."""
    pull = float(np.linalg.norm(gravity))
    if pull == 0:
        return None
    up = -gravity / pull
    ahead = body.velocity * dt / 2  # the body this far on meets the plane this much lower
    under = shape_submerged(body.world_shape(), water.level * up - ahead, up, body.position)
    if under.volume == 0:
        return None
    fraction = under.volume / volume(body.shape)
    lift = water.density * pull * under.volume * up
    force = lift + body.mass * body.velocity * math.expm1(-water.linear_drag * fraction * dt) / dt
    spin = body.rotation @ body.inertia @ body.rotation.T
    torque = np.cross(under.centre - body.position, lift) + \
        spin @ body.angular_velocity * math.expm1(-water.angular_drag * fraction * dt) / dt
    return drive.Push(force, torque)
