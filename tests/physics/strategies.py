"""Hypothesis strategies: random sphere sweeps against every sphere-family target."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from sweeplab.physics import Capsule, Plane, Point, Polygon, Segment, Sphere, Triangle

# Squared lengths underflow below ~1e-154: sweeplab answers for magnitudes from
# 1e-100 (or exactly 0) up, which is where the strategies draw from.
coordinate = st.floats(-10, 10).filter(lambda x: x == 0 or abs(x) >= 1e-100)
radius = st.one_of(st.just(0.0), st.floats(1e-100, 3))
vector = st.tuples(coordinate, coordinate, coordinate).map(np.array)
direction = st.one_of(vector.map(lambda v: 2 * v), st.just(np.zeros(3)))
TARGET_KINDS = ("point", "sphere", "segment", "plane", "triangle", "polygon")


@st.composite
def rotations(draw) -> np.ndarray:
    """A rotation matrix from a random (non-zero) quaternion."""
    w, x, y, z = draw(st.tuples(*[st.floats(-1, 1, allow_nan=False)] * 4).filter(
        lambda q: sum(c * c for c in q) > 1e-3))
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


@st.composite
def convex_polygons(draw, vertex_count: int | None = None) -> np.ndarray:
    """3 to 6 vertices on a circle, in angle order, rotated and moved into place."""
    count = vertex_count or draw(st.integers(3, 6))
    angles = np.sort(np.array(draw(st.lists(st.floats(0, 2 * np.pi, exclude_max=True), min_size=count,
                                            max_size=count, unique=True))))
    size = draw(st.floats(0.1, 5))
    flat = np.stack([size * np.cos(angles), size * np.sin(angles), np.zeros(count)], axis=1)
    return flat @ draw(rotations()).T + draw(vector)


@st.composite
def targets(draw, kind: str | None = None, vertex_count: int | None = None):
    kind = kind or draw(st.sampled_from(TARGET_KINDS))
    if kind == "point":
        return Point(draw(vector))
    if kind == "sphere":
        return Sphere(draw(vector), draw(radius))
    if kind == "segment":
        return Segment(draw(vector), draw(vector))
    if kind == "capsule":
        return Capsule(draw(vector), draw(vector), draw(radius))
    if kind == "plane":
        return Plane(draw(vector.filter(lambda v: np.linalg.norm(v) > 1e-3)), draw(coordinate))
    if kind == "triangle":
        return Triangle(draw(vector), draw(vector), draw(vector))
    return Polygon(draw(convex_polygons(vertex_count)))


@dataclass(frozen=True)
class Configuration:
    sphere: Sphere
    target: object
    direction: np.ndarray

    @property
    def scale(self) -> float:
        """Largest coordinate magnitude involved (plus 1): the round-off scale."""
        arrays = [self.sphere.center, self.sphere.radius, self.direction]
        arrays += [getattr(self.target, name) for name in self.target._fields]
        return 1.0 + max(float(np.max(np.abs(a))) for a in arrays)


@st.composite
def configurations(draw, kind: str | None = None, vertex_count: int | None = None) -> Configuration:
    """A sphere, a target (of ``kind``; polygons of ``vertex_count`` vertices) and a direction."""
    return Configuration(Sphere(draw(vector), draw(radius)), draw(targets(kind, vertex_count)), draw(direction))


def same_kind_batches(max_size: int = 8):
    """Lists of configurations whose targets can be stacked into one batch."""
    return st.tuples(st.sampled_from(TARGET_KINDS), st.integers(3, 6)).flatmap(
        lambda kind_count: st.lists(configurations(*kind_count), min_size=1, max_size=max_size))


@st.composite
def meshes(draw, max_faces: int = 12):
    """A triangle soup of 1 to ``max_faces`` faces over up to 10 vertices (faces may
    repeat a vertex: zero-area triangles), sometimes with a rotated, moved pose."""
    from sweeplab.physics import TriangleMesh

    vertex_count = draw(st.integers(3, 10))
    vertices = np.array(draw(st.lists(st.tuples(*[st.floats(-3, 3)] * 3), min_size=vertex_count,
                                      max_size=vertex_count)))
    faces = draw(st.lists(st.tuples(*[st.integers(0, vertex_count - 1)] * 3), min_size=1, max_size=max_faces))
    mesh = TriangleMesh(vertices, np.array(faces))
    if draw(st.booleans()):
        mesh = mesh.moved(translation=draw(vector), rotation=draw(rotations()))
    return mesh


# --- every kind, close together (initial overlaps are common), degenerate on purpose ---

near = st.floats(-1.5, 1.5).filter(lambda x: x == 0 or abs(x) >= 1e-100)
near_vector = st.tuples(near, near, near).map(np.array)
unit_vector = st.tuples(*[st.floats(-1, 1)] * 3).map(np.array).filter(lambda v: np.linalg.norm(v) > 0.1)


@st.composite
def near_parallel_segments(draw, start=None) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) ends of a segment: its direction one drawn before (``start`` is a
    (point, direction) pair) exactly, negated, scaled, or turned by a rounding-sized
    amount — the near-parallel cases — else random."""
    a = draw(near_vector)
    if start is None or draw(st.booleans()):
        return a, draw(near_vector)
    along = start[1] * draw(st.sampled_from([1.0, -1.0, 0.5, 3.0]))
    if draw(st.booleans()):
        along = along + draw(unit_vector) * np.linalg.norm(along) * draw(st.sampled_from([1e-16, 1e-13, 1e-9, 1e-5]))
    return a, a + along


@st.composite
def degenerate_hulls(draw) -> np.ndarray:
    """Points whose hull is one point, a segment or a flat polygon (along or across
    the coordinate axes), small and close to the origin."""
    kind = draw(st.sampled_from(["point", "segment", "flat"]))
    origin = draw(near_vector)
    if kind == "point":
        return origin[None]
    if kind == "segment":
        along = draw(st.sampled_from([np.eye(3)[0], np.eye(3)[1], np.eye(3)[2]]) | unit_vector)
        return np.stack([origin, origin + draw(st.floats(0.05, 2)) * along])
    count = draw(st.integers(3, 5))
    angles = np.linspace(0, 2 * np.pi, count, endpoint=False) + draw(st.floats(0, 1))
    size = draw(st.floats(0.1, 1.5))
    flat = np.stack([size * np.cos(angles), size * np.sin(angles), np.zeros(count)], axis=1)
    return flat @ draw(st.sampled_from([np.eye(3), np.roll(np.eye(3), 1, axis=1)]) | rotations()).T + origin


@st.composite
def near_polyhedra(draw):
    """A box (turned or not), a tetrahedron, the hull of 4 to 8 random points, or a
    degenerate hull (``degenerate_hulls``)."""
    from sweeplab.physics import ConvexPolyhedron

    kind = draw(st.sampled_from(["box", "tetrahedron", "hull", "degenerate"]))
    if kind == "box":
        rotation = draw(st.none() | rotations())
        return ConvexPolyhedron.box(np.array(draw(st.tuples(*[st.floats(0.1, 1.2)] * 3))), draw(near_vector),
                                    rotation)
    if kind == "degenerate":
        return ConvexPolyhedron(draw(degenerate_hulls()))
    count = 4 if kind == "tetrahedron" else draw(st.integers(5, 8))
    points = np.array(draw(st.lists(near_vector, min_size=count, max_size=count)))
    assume(np.linalg.matrix_rank(points - points.mean(axis=0), tol=1e-2) == 3)
    return ConvexPolyhedron(points)


@st.composite
def near_shapes(draw, kind: str):
    """One shape of ``kind`` (``tests.physics.bodies.KINDS``) within a few units of the
    origin, with radius 0, zero-length segments and zero-area triangles now and then."""
    if kind == "point":
        return Point(draw(near_vector))
    if kind == "sphere":
        return Sphere(draw(near_vector), draw(st.just(0.0) | st.floats(0.05, 1.2)))
    if kind in ("segment", "capsule"):
        a, b = draw(near_parallel_segments())
        if draw(st.integers(0, 9)) == 0:
            b = a
        return Segment(a, b) if kind == "segment" else Capsule(a, b, draw(st.just(0.0) | st.floats(0.05, 1)))
    if kind == "plane":
        return Plane(draw(unit_vector), draw(st.floats(-1, 1)))
    if kind == "triangle":
        a, b, c = draw(near_vector), draw(near_vector), draw(near_vector)
        return Triangle(a, b, draw(st.just(a + 0.5 * (b - a)) | st.just(c)))
    if kind == "polygon":
        return Polygon(draw(convex_polygons()) * 0.4)
    if kind == "polyhedron":
        return draw(near_polyhedra())
    return draw(meshes(max_faces=6))


def target_edges(target) -> list[np.ndarray]:
    """The edge vectors of a segment, capsule, triangle or polygon (none for others)."""
    if isinstance(target, (Segment, Capsule)):
        return [target.b - target.a]
    if isinstance(target, Polygon):  # triangles too
        corners = np.asarray(target.vertices)
        return list(np.roll(corners, -1, axis=0) - corners)
    return []


@st.composite
def capsules_along(draw, target):
    """A capsule whose axis runs along one of ``target``'s edges: exactly, reversed,
    scaled, or turned by a rounding-sized angle (1e-16 to 1e-5) — near-parallel cores,
    where common normals are round-off — placed near the target; a random capsule
    when the target has no edge."""
    edges = [edge for edge in target_edges(target) if np.any(edge)]
    start = draw(vector)
    if not edges:
        return Capsule(start, draw(vector), draw(radius))
    along = draw(st.sampled_from(edges)) * draw(st.sampled_from([1.0, -1.0, 0.5, 2.0]))
    turn = draw(st.sampled_from([0.0, 1e-16, 1e-13, 1e-9, 1e-5]))
    along = along + turn * np.linalg.norm(along) * draw(unit_vector)
    anchor = np.asarray(getattr(target, "a", None) if hasattr(target, "a") else target.vertices[0])
    start = anchor + draw(st.tuples(*[st.floats(-2, 2)] * 3).map(np.array))
    return Capsule(start, start + along, draw(radius))
