"""Brute-force reference for sweep tests: bisection on an exact distance function.

Written independently of ``physics``: per-configuration Python float loops, with
closest points on a triangle taken as the nearest of its edges' closest points
and its interior projection, and polygons split into triangle fans — a different
method from both the kernels and ``physics.reference``, whose search (ternary
search for the minimum of the convex gap, then bisection) it borrows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sweeplab.physics.reference import first_touch, minimum_time


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _norm(a):
    return math.sqrt(_dot(a, a))


def closest_on_segment(p, a, b):
    ab = _sub(b, a)
    length_squared = _dot(ab, ab)
    s = 0.0 if length_squared == 0 else min(1.0, max(0.0, _dot(_sub(p, a), ab) / length_squared))
    return (a[0] + s * ab[0], a[1] + s * ab[1], a[2] + s * ab[2])


def closest_on_triangle(p, a, b, c):
    """The nearest to ``p`` of the closest points on the triangle's three edges and,
    when ``p`` projects inside the triangle, that projection.  Every candidate is a
    point of the triangle up to round-off, so a sliver's answer stays exact up to
    the rounding of its edges (the Voronoi-region method, Ericson 5.1.5, lost its
    closest point by 1e-2 on a sliver of area ~1e-8: its products cancel there)."""
    candidates = [closest_on_segment(p, *edge) for edge in ((a, b), (b, c), (c, a))]
    normal = _cross3(_sub(b, a), _sub(c, a))
    normal_squared = _dot(normal, normal)
    if normal_squared > 0:
        height = _dot(_sub(p, a), normal) / normal_squared
        projected = (p[0] - height * normal[0], p[1] - height * normal[1], p[2] - height * normal[2])
        if all(_dot(_cross3(_sub(end, start), _sub(projected, start)), normal) >= 0
               for start, end in ((a, b), (b, c), (c, a))):
            candidates.append(projected)
    return min(candidates, key=lambda q: _norm(_sub(p, q)))


@dataclass(frozen=True)
class Core:
    """A target for the reference: ``kind`` in point/segment/polygon/plane, its
    points (or normal and offset), and the radius it is inflated by."""

    kind: str
    points: tuple
    radius: float = 0.0

    def closest(self, p) -> tuple:
        """The core's point closest to ``p`` (exact up to float64 round-off)."""
        if self.kind == "point":
            return self.points[0]
        if self.kind == "segment":
            return closest_on_segment(p, *self.points)
        if self.kind == "plane":
            normal, offset = self.points
            height = _dot(p, normal) - offset
            return (p[0] - height * normal[0], p[1] - height * normal[1], p[2] - height * normal[2])
        first = self.points[0]
        fan = [(first, self.points[i], self.points[i + 1]) for i in range(1, len(self.points) - 1)]
        return min((closest_on_triangle(p, *tri) for tri in fan), key=lambda q: _norm(_sub(p, q)))

    def distance(self, p) -> float:
        """Distance from ``p`` to the core, minus the core's radius."""
        return _norm(_sub(p, self.closest(p))) - self.radius


def core_of(target) -> Core:
    """The reference core of a (scalar) physics target shape."""
    name = type(target).__name__
    as_tuple = lambda v: tuple(float(x) for x in np.asarray(v, dtype=float))  # noqa: E731
    if name == "Point":
        return Core("point", (as_tuple(target.p),))
    if name == "Sphere":
        return Core("point", (as_tuple(target.center),), float(target.radius))
    if name == "Segment":
        return Core("segment", (as_tuple(target.a), as_tuple(target.b)))
    if name == "Plane":
        return Core("plane", (as_tuple(target.normal), float(target.offset)))
    return Core("polygon", tuple(as_tuple(v) for v in target.vertices))


def gap(center, radius, direction, core: Core, t: float) -> float:
    """Distance between the moving sphere at time t and the target (< 0: overlap)."""
    p = tuple(float(c) + t * float(d) for c, d in zip(center, direction, strict=True))
    return core.distance(p) - float(radius)


@dataclass(frozen=True)
class ReferenceAnswer:
    t: float | None          # first touching time, None for a miss
    closest_gap: float       # minimum of the gap over [0, 1]


def reference_sweep(center, radius, direction, core: Core) -> ReferenceAnswer:
    """First t in [0, 1] where the gap is <= 0, and the smallest gap over the sweep
    (the search of ``physics.reference`` on this module's own distance)."""
    f = lambda t: gap(center, radius, direction, core, t)  # noqa: E731
    return ReferenceAnswer(first_touch(f), f(minimum_time(f)))


# --- convex polytopes: a distance written with nothing of the SAT or GJK code ------

def _segment_crosses_triangle(p, q, a, b, c) -> bool:
    """Whether the segment p-q meets the triangle a, b, c (signed volumes)."""
    def volume(u, v, w, x):
        return _dot(_sub(v, u), _cross3(_sub(w, u), _sub(x, u)))

    side_p, side_q = volume(a, b, c, p), volume(a, b, c, q)
    if side_p * side_q > 0 or (side_p == 0 and side_q == 0):
        return False
    edges = [volume(p, q, a, b), volume(p, q, b, c), volume(p, q, c, a)]
    return all(e >= 0 for e in edges) or all(e <= 0 for e in edges)


def _cross3(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _inside(point, triangles, center) -> bool:
    """Whether ``point`` is inside the convex solid bounded by ``triangles``."""
    for a, b, c in triangles:
        normal = _cross3(_sub(b, a), _sub(c, a))
        if _dot(normal, _sub(center, a)) > 0:
            normal = (-normal[0], -normal[1], -normal[2])
        if _dot(normal, _sub(point, a)) > 0:
            return False
    return True


def polytope_gap(first, second, offset) -> float:
    """Distance between two convex polytopes, the first translated by ``offset``, or
    -1 where they intersect.  Each is (vertices, triangles, edges) of Python tuples."""
    vertices_a = [tuple(v[k] + offset[k] for k in range(3)) for v in first[0]]
    triangles_a = [tuple(tuple(v[k] + offset[k] for k in range(3)) for v in tri) for tri in first[1]]
    edges_a = [tuple(tuple(v[k] + offset[k] for k in range(3)) for v in edge) for edge in first[2]]
    vertices_b, triangles_b, edges_b = second
    center_a = tuple(sum(v[k] for v in vertices_a) / len(vertices_a) for k in range(3))
    center_b = tuple(sum(v[k] for v in vertices_b) / len(vertices_b) for k in range(3))
    if any(_inside(v, triangles_b, center_b) for v in vertices_a) or \
            any(_inside(v, triangles_a, center_a) for v in vertices_b):
        return -1.0
    if any(_segment_crosses_triangle(*edge, *tri) for edge in edges_a for tri in triangles_b) or \
            any(_segment_crosses_triangle(*edge, *tri) for edge in edges_b for tri in triangles_a):
        return -1.0
    from sweeplab.physics.reference import segment_closest_points

    distances = [_norm(_sub(v, closest_on_triangle(v, *tri))) for v in vertices_a for tri in triangles_b]
    distances += [_norm(_sub(v, closest_on_triangle(v, *tri))) for v in vertices_b for tri in triangles_a]
    for p0, p1 in edges_a:
        for q0, q1 in edges_b:
            closest_p, closest_q = segment_closest_points(p0, p1, q0, q1)
            distances.append(_norm(_sub(closest_p, closest_q)))
    return min(distances)


def polytope_parts(polyhedron) -> tuple:
    """(vertices, fan triangles of the faces, edges) of a scalar ConvexPolyhedron."""
    vertices = [tuple(float(x) for x in v) for v in polyhedron.vertices]
    triangles = [(vertices[loop[0]], vertices[loop[k]], vertices[loop[k + 1]]) for loop in polyhedron.faces
                 for k in range(1, len(loop) - 1)]
    edges = [(vertices[i], vertices[j]) for i, j in polyhedron.edges]
    return vertices, triangles, edges


# --- which feature a contact touches, where that is clear ----------------------------

def _angle(u, v) -> float:
    """Angle between two non-zero vectors."""
    cosine = _dot(u, v) / (_norm(u) * _norm(v))
    return math.acos(max(-1.0, min(1.0, cosine)))


def clear_feature(target, core_point, normal, scale: float) -> tuple[str, int] | None:
    """The (kind, index) of the target feature that a contact at ``core_point`` (on the
    target's core) with ``normal`` touches, by the rules of ``physics.shapes`` — or None
    where the point or normal lies within ``tolerance.FEATURE_CLEARANCE`` of another
    feature's region, where ties and round-off decide.

    Spheres and planes are face 0, points vertex 0.  On a segment (capsule): an end is
    its vertex unless the normal is square to the segment (then the side, edge 0, ties
    with it), the interior is edge 0.  On a polygon: a normal along the face normal is
    the face (its boundary included); elsewhere a point on an edge's interior is that
    edge, a point at a corner whose normal is square to neither of its edges is that
    vertex.  Without a ``normal`` (the moving shape touches with no radius, so none
    is measured) only what the position alone says: a point clearly inside a face is
    the face, clearly inside a segment its edge."""
    from sweeplab.physics import Capsule, Plane, Point, Polygon, Segment, Sphere, tolerance

    clearance = tolerance.FEATURE_CLEARANCE
    near = clearance * scale
    point = tuple(float(x) for x in core_point)
    if normal is None or isinstance(target, (Sphere, Plane, Point)):
        return _clear_by_position(target, point, near)
    normal = tuple(float(x) for x in normal)
    if isinstance(target, (Segment, Capsule)):
        ends = [tuple(float(x) for x in target.a), tuple(float(x) for x in target.b)]
        along = _sub(ends[1], ends[0])
        if _norm(along) <= near:
            return None
        square = abs(_angle(normal, along) - math.pi / 2)
        for index, end in enumerate(ends):
            if _norm(_sub(point, end)) <= near * 1e-3:
                return ("vertex", index) if square > clearance else None
        if all(_norm(_sub(point, end)) > near for end in ends):
            return ("edge", 0)
        return None
    assert isinstance(target, Polygon)
    corners = [tuple(float(x) for x in v) for v in target.vertices]
    count = len(corners)
    face_normal = (0.0, 0.0, 0.0)
    for i in range(count):
        turn = _cross3(_sub(corners[i], corners[0]), _sub(corners[(i + 1) % count], corners[0]))
        face_normal = tuple(f + c for f, c in zip(face_normal, turn, strict=True))
    if _norm(face_normal) <= near * scale:
        return None  # no face to speak of: a sliver, left to the kernels' rounding
    tilt = min(_angle(normal, face_normal), _angle(normal, tuple(-x for x in face_normal)))
    if tilt <= clearance * 1e-3:
        return ("face", 0)
    if tilt <= clearance:
        return None
    edges = [(corners[i], corners[(i + 1) % count]) for i in range(count)]
    at_corner = [i for i, corner in enumerate(corners) if _norm(_sub(point, corner)) <= near * 1e-3]
    if at_corner:
        i = at_corner[0]
        adjacent = [_sub(edges[i][1], edges[i][0]), _sub(edges[i - 1][1], edges[i - 1][0])]
        if all(abs(_angle(normal, edge) - math.pi / 2) > clearance for edge in adjacent if _norm(edge) > near):
            return ("vertex", i)
        return None
    if any(_norm(_sub(point, corner)) <= near for corner in corners):
        return None
    on_edges = [i for i, (a, b) in enumerate(edges)
                if _norm(_sub(point, closest_on_segment(point, a, b))) <= near * 1e-3]
    if len(on_edges) == 1:
        return ("edge", on_edges[0])
    return None


def _clear_by_position(target, point, near: float) -> tuple[str, int] | None:
    """``clear_feature`` for a contact without a normal: by its position alone."""
    from sweeplab.physics import Capsule, Plane, Point, Polygon, Segment, Sphere

    if isinstance(target, (Sphere, Plane)):
        return ("face", 0)
    if isinstance(target, Point):
        return ("vertex", 0)
    if isinstance(target, (Segment, Capsule)):
        ends = [tuple(float(x) for x in target.a), tuple(float(x) for x in target.b)]
        return ("edge", 0) if all(_norm(_sub(point, end)) > near for end in ends) else None
    assert isinstance(target, Polygon)
    corners = [tuple(float(x) for x in v) for v in target.vertices]
    edges = [(corners[i], corners[(i + 1) % len(corners)]) for i in range(len(corners))]
    if all(_norm(_sub(point, closest_on_segment(point, a, b))) > near for a, b in edges):
        return ("face", 0)
    return None
