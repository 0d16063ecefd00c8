"""Hypothesis strategies: random sphere sweeps against every sphere-family target."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from physics import Capsule, Plane, Point, Polygon, Segment, Sphere, Triangle

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
    from physics import TriangleMesh

    vertex_count = draw(st.integers(3, 10))
    vertices = np.array(draw(st.lists(st.tuples(*[st.floats(-3, 3)] * 3), min_size=vertex_count,
                                      max_size=vertex_count)))
    faces = draw(st.lists(st.tuples(*[st.integers(0, vertex_count - 1)] * 3), min_size=1, max_size=max_faces))
    mesh = TriangleMesh(vertices, np.array(faces))
    if draw(st.booleans()):
        mesh = mesh.moved(translation=draw(vector), rotation=draw(rotations()))
    return mesh
