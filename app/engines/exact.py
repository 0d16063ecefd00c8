"""Exact touching: whether two shapes, one with a point or segment core (a sphere,
capsule, point or segment) and the other with such a core or a triangle, the
moving one posed at a float time t, are within their summed radius, decided in
rational arithmetic (``fractions.Fraction``).

Every float is a rational, so the posed core p + t d, the closest points of the
cores (Ericson's clamped closest points of two segments, and of a point and a
triangle: only + - * / and comparisons) and the squared distance |u - v|^2 are
computed without rounding, and

    touch at t  <=>  |u - v|^2 <= (r_moving + r_target)^2

is decided exactly — also for an exact touch (distance 0 between radius-0 cores),
where float64 and bisection each round to a side.  Used to decide ties between
sweeplab's answer, an engine's and the second opinion's (``triage.reference_side``)
and whether the cores meet at t = 0 (where a normal is a convention).  Other
shapes (polygons, polyhedra, meshes, planes, two triangles): None, not decided here.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from sweeplab.physics import Capsule, Point, Segment, Sphere, Triangle

Vector = tuple[Fraction, Fraction, Fraction]


def _core(shape) -> tuple[tuple[Vector, ...], Fraction] | None:
    """(core corners, radius) exactly: a point (1 corner), a segment (2) or a
    triangle (3); None for other shapes."""
    if isinstance(shape, (Sphere, Point)):
        center = _exact(shape.center if isinstance(shape, Sphere) else shape.p)
        return (center,), Fraction(float(shape.radius)) if isinstance(shape, Sphere) else Fraction(0)
    if isinstance(shape, (Capsule, Segment)):
        radius = Fraction(float(shape.radius)) if isinstance(shape, Capsule) else Fraction(0)
        return (_exact(shape.a), _exact(shape.b)), radius
    if isinstance(shape, Triangle):
        return (_exact(shape.a), _exact(shape.b), _exact(shape.c)), Fraction(0)
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


def _cross(u: Vector, v: Vector) -> Vector:
    return u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]


def point_triangle_distance_squared(p: Vector, a: Vector, b: Vector, c: Vector) -> Fraction:
    """|p - q|^2 for q the point of triangle abc closest to p (Ericson, Real-Time
    Collision Detection 5.1.5: the Voronoi region of p by barycentric signs), in
    exact arithmetic; a triangle without area is its three edges."""
    ab, ac, ap = _sub(b, a), _sub(c, a), _sub(p, a)
    if _cross(ab, ac) == (0, 0, 0):
        return min(segment_distance_squared(p, p, *edge) for edge in ((a, b), (b, c), (c, a)))
    d1, d2 = _dot(ab, ap), _dot(ac, ap)
    if d1 <= 0 and d2 <= 0:
        return _dot(ap, ap)
    bp = _sub(p, b)
    d3, d4 = _dot(ab, bp), _dot(ac, bp)
    if d3 >= 0 and d4 <= d3:
        return _dot(bp, bp)
    cp = _sub(p, c)
    d5, d6 = _dot(ab, cp), _dot(ac, cp)
    if d6 >= 0 and d5 <= d6:
        return _dot(cp, cp)
    vc, vb, va = d1 * d4 - d3 * d2, d5 * d2 - d1 * d6, d3 * d6 - d5 * d4
    if vc <= 0 and d1 >= 0 and d3 <= 0:
        return segment_distance_squared(p, p, a, b)
    if vb <= 0 and d2 >= 0 and d6 <= 0:
        return segment_distance_squared(p, p, a, c)
    if va <= 0 and d4 - d3 >= 0 and d5 - d6 >= 0:
        return segment_distance_squared(p, p, b, c)
    denominator = va + vb + vc
    v, w = vb / denominator, vc / denominator
    q = _along(_along(a, v, ab), w, ac)
    difference = _sub(p, q)
    return _dot(difference, difference)


def segment_triangle_distance_squared(p0: Vector, p1: Vector, a: Vector, b: Vector, c: Vector) -> Fraction:
    """|u - v|^2 at the closest points of segment p0-p1 and triangle abc, exactly:
    0 where the segment crosses the triangle (its ends strictly on opposite sides of
    the plane and the crossing point on the triangle), else the nearest of its ends
    to the triangle and of it to the triangle's edges."""
    normal = _cross(_sub(b, a), _sub(c, a))
    s0, s1 = _dot(normal, _sub(p0, a)), _dot(normal, _sub(p1, a))
    if (s0 < 0 < s1) or (s1 < 0 < s0):
        crossing = _along(p0, s0 / (s0 - s1), _sub(p1, p0))
        if point_triangle_distance_squared(crossing, a, b, c) == 0:
            return Fraction(0)
    return min(point_triangle_distance_squared(p0, a, b, c), point_triangle_distance_squared(p1, a, b, c),
               *(segment_distance_squared(p0, p1, *edge) for edge in ((a, b), (b, c), (c, a))))


def _distance_squared(first: tuple[Vector, ...], second: tuple[Vector, ...]) -> Fraction | None:
    """The squared distance of two cores (1, 2 or 3 corners each); None for two triangles."""
    if len(first) == 3:
        first, second = second, first
    if len(first) == 3:
        return None
    ends = (first[0], first[-1])
    if len(second) == 3:
        return segment_triangle_distance_squared(*ends, *second)
    return segment_distance_squared(*ends, second[0], second[-1])


def posed_gap_sign(moving, target, direction, t: float) -> int | None:
    """The exact sign (-1, 0, 1) of |closest core points|^2 - (summed radius)^2 with
    ``moving`` translated by t ``direction`` (t a float, taken exactly): -1 and 0
    touch, 1 apart.  None where undecided here (module docstring)."""
    core, other = _core(moving), _core(target)
    if core is None or other is None:
        return None
    (corners, radius), (other_corners, other_radius) = core, other
    move, s = _exact(direction), Fraction(float(t))
    squared = _distance_squared(tuple(_along(corner, s, move) for corner in corners), other_corners)
    if squared is None:
        return None
    gap = squared - (radius + other_radius) ** 2
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
    squared = _distance_squared(core[0], other[0])
    return None if squared is None else squared == 0
