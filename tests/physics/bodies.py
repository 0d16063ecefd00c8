"""Every shape kind as a brute-force *body*, with a distance written independently of
``physics``: for the invariants that hold for every pair (an overlap's contact point
lies on the target; moving by depth x normal leaves the shapes just touching).

A body is a convex *core* inflated by a radius: a point (sphere, point), a segment
(capsule, segment), a flat polygon (triangle, polygon, a flat hull) or a solid
(a polyhedron's hull), given by its corners, its fan triangles and its edges; or a
plane.  A mesh is a union of triangle bodies.  Distances between cores are the
smallest over feature pairs (vertex-triangle, vertex-edge, edge-edge), and zero
where they intersect (a corner inside a solid, an edge through a triangle): Python
float loops, nothing shared with the kernels.  The intersection tests (a corner inside
a solid, an edge through a triangle) are exact, in rational arithmetic: two shapes
just touching along coplanar faces are where float orientation tests guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, TriangleMesh)
from sweeplab.physics.reference import segment_closest_points
from tests.physics.brute_force import _cross3, _dot, _norm, _sub, closest_on_segment, closest_on_triangle
from tests.physics.rational import rational

KINDS = ("point", "sphere", "segment", "capsule", "plane", "triangle", "polygon", "polyhedron", "mesh")


@dataclass(frozen=True)
class Body:
    corners: tuple
    triangles: tuple = ()
    edges: tuple = ()
    solid: bool = False
    radius: float = 0.0
    plane: tuple | None = None  # (unit normal, offset) for a plane

    def moved(self, offset) -> Body:
        shift = lambda p: tuple(x + o for x, o in zip(p, offset, strict=True))  # noqa: E731
        if self.plane is not None:
            normal, level = self.plane
            return Body((), plane=(normal, level + _dot(normal, offset)))
        return Body(tuple(map(shift, self.corners)), tuple(tuple(map(shift, tri)) for tri in self.triangles),
                    tuple(tuple(map(shift, edge)) for edge in self.edges), self.solid, self.radius)


def _point(p) -> tuple:
    return tuple(float(x) for x in np.asarray(p, float))


def _loop_body(corners: list, radius: float = 0.0) -> Body:
    fan = tuple((corners[0], corners[k], corners[k + 1]) for k in range(1, len(corners) - 1))
    edges = tuple((corners[i], corners[(i + 1) % len(corners)]) for i in range(len(corners)))
    return Body(tuple(corners), fan, edges, False, radius)


def body_of(shape, face: int | None = None) -> Body | list[Body]:
    """The body of a scalar shape; for a mesh, the body of triangle ``face`` (or the
    list of all its triangles' bodies)."""
    if isinstance(shape, Point):
        return Body((_point(shape.p),))
    if isinstance(shape, Sphere):
        return Body((_point(shape.center),), radius=float(shape.radius))
    if isinstance(shape, (Segment, Capsule)):
        a, b = _point(shape.a), _point(shape.b)
        return Body((a, b), edges=((a, b),), radius=float(getattr(shape, "radius", 0.0)))
    if isinstance(shape, Plane):
        return Body((), plane=(_point(shape.normal), float(shape.offset)))
    if isinstance(shape, Polygon):  # triangles too
        return _loop_body([_point(v) for v in shape.vertices])
    if isinstance(shape, ConvexPolyhedron):
        vertices = [_point(v) for v in shape.vertices]
        if shape.dimension < 2:
            edges = tuple((vertices[i], vertices[j]) for i, j in shape.edges)
            return Body(tuple(vertices), (), edges)
        if shape.dimension == 2:
            return _loop_body([vertices[i] for i in shape.faces[0]])
        triangles = tuple((vertices[loop[0]], vertices[loop[k]], vertices[loop[k + 1]]) for loop in shape.faces
                          for k in range(1, len(loop) - 1))
        return Body(tuple(vertices), triangles, tuple((vertices[i], vertices[j]) for i, j in shape.edges), True)
    if isinstance(shape, TriangleMesh):
        world = shape.world_vertices()
        bodies = [_loop_body([_point(world[i]) for i in face_]) for face_ in shape.faces]
        return bodies if face is None else bodies[face]
    raise TypeError(type(shape).__name__)


def _volume(u, v, w, x):
    """Six times the signed volume of the tetrahedron u, v, w, x (rational points)."""
    return _dot(_sub(v, u), _cross3(_sub(w, u), _sub(x, u)))


def _inside_solid(point, body: Body) -> bool:
    """Whether ``point`` is in the solid (its boundary included), exactly."""
    point = rational(point)
    corners = [rational(c) for c in body.corners]
    center = tuple(sum(c[k] for c in corners) / len(corners) for k in range(3))
    for triangle in body.triangles:
        a, b, c = (rational(v) for v in triangle)
        inward = _volume(a, b, c, center)
        if inward != 0 and _volume(a, b, c, point) * inward < 0:
            return False
    return True


def _segment_crosses_triangle(p, q, a, b, c) -> bool:
    """Whether the segment p-q meets the triangle a, b, c where it crosses the
    triangle's plane (a segment lying in the plane is left to the distances), exactly."""
    p, q, a, b, c = (rational(v) for v in (p, q, a, b, c))
    side_p, side_q = _volume(a, b, c, p), _volume(a, b, c, q)
    if side_p * side_q > 0 or (side_p == 0 and side_q == 0):
        return False
    edges = [_volume(p, q, a, b), _volume(p, q, b, c), _volume(p, q, c, a)]
    return all(e >= 0 for e in edges) or all(e <= 0 for e in edges)


def _point_distance(p, body: Body) -> float:
    """Distance from ``p`` to the core of ``body`` (0 inside a solid)."""
    if body.plane is not None:
        normal, level = body.plane
        return abs(_dot(p, normal) - level)
    if body.solid and _inside_solid(p, body):
        return 0.0
    distances = [_norm(_sub(p, corner)) for corner in body.corners]
    distances += [_norm(_sub(p, closest_on_segment(p, *edge))) for edge in body.edges]
    distances += [_norm(_sub(p, closest_on_triangle(p, *tri))) for tri in body.triangles]
    return min(distances)


def surface_distance(p, body: Body) -> float:
    """Distance from ``p`` to the surface of ``body`` (its core's boundary, inflated):
    zero for a point on a sphere, a capsule, a polyhedron's faces, a triangle."""
    if body.solid and body.radius == 0:
        return min(_norm(_sub(p, closest_on_triangle(p, *tri))) for tri in body.triangles)
    return abs(_point_distance(p, body) - body.radius)


def _plane_core_distance(plane, body: Body) -> float:
    normal, level = plane
    heights = [_dot(corner, normal) - level for corner in body.corners]
    if min(heights) <= 0 <= max(heights):
        return 0.0
    return min(abs(h) for h in heights)


def core_distance(first: Body, second: Body) -> float:
    """Distance between the cores of two bodies (0 where they intersect)."""
    if first.plane is not None or second.plane is not None:
        plane, other = (first.plane, second) if first.plane is not None else (second.plane, first)
        return _plane_core_distance(plane, other)
    for one, other in ((first, second), (second, first)):
        if other.solid and any(_inside_solid(corner, other) for corner in one.corners):
            return 0.0
        if any(_segment_crosses_triangle(*edge, *tri) for edge in one.edges for tri in other.triangles):
            return 0.0
    distances = [_point_distance(corner, second) for corner in first.corners]
    distances += [_point_distance(corner, first) for corner in second.corners]
    for p0, p1 in first.edges:
        for q0, q1 in second.edges:
            closest_p, closest_q = segment_closest_points(p0, p1, q0, q1)
            distances.append(_norm(_sub(closest_p, closest_q)))
    return min(distances)


def gap(first: Body, second: Body) -> float:
    """Distance between two bodies, minus both radii (< 0: overlapping rounded parts;
    0 for intersecting cores without radii)."""
    return core_distance(first, second) - first.radius - second.radius


def scale(*shapes, direction=None) -> float:
    """1 + the largest |coordinate| of the shapes (and the direction): the round-off scale."""
    values = [0.0] if direction is None else [float(np.max(np.abs(direction)))]
    for shape in shapes:
        for name in shape._fields:
            values.append(float(np.max(np.abs(getattr(shape, name)), initial=0.0)))
        if isinstance(shape, TriangleMesh):
            values.append(float(np.max(np.abs(shape.world_vertices()))))
    return 1.0 + max(values)


def distance_to_mesh(p, mesh: TriangleMesh) -> float:
    return min(surface_distance(p, triangle) for triangle in body_of(mesh))


def length(vector) -> float:
    return math.sqrt(sum(float(x) * float(x) for x in vector))
