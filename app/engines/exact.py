"""Exact touching: whether two shapes with point or segment cores (spheres,
capsules, points, segments), the moving one posed at a float time t, are within
their summed radius, decided in rational arithmetic (``fractions.Fraction``).

Every float is a rational, so the posed core p + t d, its closest points to the
other core (Ericson's clamped closest points of two segments: only + - * / and
comparisons) and the squared distance |u - v|^2 are computed without rounding, and

    touch at t  <=>  |u - v|^2 <= (r_moving + r_target)^2

is decided exactly — also for an exact touch (distance 0 between radius-0 cores),
where float64 and bisection each round to a side.  Used to decide ties between
sweeplab's answer, an engine's and the second opinion's (``triage.reference_side``)
and whether the cores meet at t = 0 (where a normal is a convention).  Shapes with
other cores (triangles, polyhedra, meshes, planes): None, not decided here.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from sweeplab.physics import Capsule, Point, Segment, Sphere

Vector = tuple[Fraction, Fraction, Fraction]


def _core(shape) -> tuple[Vector, Vector, Fraction] | None:
    """(start, end, radius) of a point or segment core, exactly (a point: start == end)."""
    if isinstance(shape, (Sphere, Point)):
        center = _exact(shape.center if isinstance(shape, Sphere) else shape.p)
        return center, center, Fraction(float(shape.radius)) if isinstance(shape, Sphere) else Fraction(0)
    if isinstance(shape, (Capsule, Segment)):
        radius = Fraction(float(shape.radius)) if isinstance(shape, Capsule) else Fraction(0)
        return _exact(shape.a), _exact(shape.b), radius
    return None


def _exact(vector) -> Vector:
    x, y, z = (Fraction(float(v)) for v in np.asarray(vector, float))
    return x, y, z


def _dot(u: Vector, v: Vector) -> Fraction:
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def _sub(u: Vector, v: Vector) -> Vector:
    return u[0] - v[0], u[1] - v[1], u[2] - v[2]


def _along(start: Vector, s: Fraction, edge: Vector) -> Vector:
    return start[0] + s * edge[0], start[1] + s * edge[1], start[2] + s * edge[2]


def _clamp(x: Fraction) -> Fraction:
    return min(max(x, Fraction(0)), Fraction(1))


def segment_distance_squared(p0: Vector, p1: Vector, q0: Vector, q1: Vector) -> Fraction:
    """|P(s) - Q(u)|^2 at the closest points of segments P(s) = p0 + s (p1 - p0) and
    Q(u) = q0 + u (q1 - q0), s, u in [0, 1] (Ericson, Real-Time Collision Detection
    5.1.9, in exact arithmetic: a zero-length segment is a point, parallel segments
    take s = 0 and then clamp)."""
    d1, d2, r = _sub(p1, p0), _sub(q1, q0), _sub(p0, q0)
    a, e, f = _dot(d1, d1), _dot(d2, d2), _dot(d2, r)
    zero = Fraction(0)
    if a == 0 and e == 0:
        return _dot(r, r)
    if a == 0:
        s, u = zero, _clamp(f / e)
    else:
        c = _dot(d1, r)
        if e == 0:
            s, u = _clamp(-c / a), zero
        else:
            b = _dot(d1, d2)
            denominator = a * e - b * b
            s = _clamp((b * f - c * e) / denominator) if denominator != 0 else zero
            u = (b * s + f) / e
            if u < 0:
                s, u = _clamp(-c / a), zero
            elif u > 1:
                s, u = _clamp((b - c) / a), Fraction(1)
    difference = _sub(_along(p0, s, d1), _along(q0, u, d2))
    return _dot(difference, difference)


def posed_gap_sign(moving, target, direction, t: float) -> int | None:
    """The exact sign (-1, 0, 1) of |closest core points|^2 - (summed radius)^2 with
    ``moving`` translated by t ``direction`` (t a float, taken exactly): -1 and 0
    touch, 1 apart.  None where a core is not a point or segment."""
    core, other = _core(moving), _core(target)
    if core is None or other is None:
        return None
    (p0, p1, radius), (q0, q1, other_radius) = core, other
    move = _exact(direction)
    s = Fraction(float(t))
    gap = segment_distance_squared(_along(p0, s, move), _along(p1, s, move), q0, q1) - (radius + other_radius) ** 2
    return (gap > 0) - (gap < 0)


def touches_at(moving, target, direction, t: float) -> bool | None:
    """Whether the shapes touch (or overlap) with ``moving`` posed at t, exactly; None
    where undecided here (``posed_gap_sign``)."""
    sign = posed_gap_sign(moving, target, direction, t)
    return None if sign is None else sign <= 0


def cores_meet_at_start(moving, target) -> bool | None:
    """Whether the cores themselves (not just the rounded shapes) meet at t = 0,
    exactly; None where undecided here."""
    core, other = _core(moving), _core(target)
    if core is None or other is None:
        return None
    (p0, p1, _), (q0, q1, _) = core, other
    return segment_distance_squared(p0, p1, q0, q1) == 0
