"""Target *cores*: the features a sphere-family target is made of.

A core is a convex polygon given by its boundary vertices (..., V, 3): V = 1 is a
point, V = 2 a segment, V >= 3 a polygon.  Its features, in this order, are: the
face (polygons with area only), the edges (none for a point, one for a segment,
V for a polygon, edge i from vertex i to vertex i + 1 mod V), then the vertices.
Each feature has an *anchor* (a point on it) and an *axis*: the face's unit
normal, the edge vector, or zero for a vertex.  A sphere's core is its center
inflated by its radius; a capsule's (later) is its segment.

``CoreFeatures`` holds them in the kernels' component-first layout
(``physics.vector``): vectors are (3, batch..., count).  Feature codes are the
indices of ``physics.result.FEATURE_KINDS``.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from physics import tolerance
from physics.result import FEATURE_KINDS
from physics.vector import components, cross, dot

VERTEX, EDGE, FACE = (FEATURE_KINDS.index(kind) for kind in ("vertex", "edge", "face"))


class CoreFeatures(NamedTuple):
    """Features of a batch of cores, component-first; ``None`` where a core has none.

    The face's inside test is ``dot(inward, p - anchor) >= inward_offset`` for every
    edge; ``inward`` is zero for edges too short to have a direction.
    """

    vertices: np.ndarray                 # (3, ..., V)
    edge_starts: np.ndarray | None       # (3, ..., E)
    edges: np.ndarray | None             # (3, ..., E)
    edge_inverse_squared: np.ndarray | None  # (..., E): 1 / |edge|^2, 0 for zero-length edges
    face_anchor: np.ndarray | None       # (3, ...)
    face_normal: np.ndarray | None       # (3, ...), zero where the polygon has no area
    inward: np.ndarray | None            # (3, ..., V)
    inward_offset: np.ndarray | None     # (..., V)
    codes: np.ndarray                    # (F,) in the order face, edges, vertices
    indices: np.ndarray                  # (F,)
    anchors: np.ndarray                  # (3, ..., F) a point of each feature, in the order of ``codes``
    axes: np.ndarray                     # (3, ..., F) face unit normal, edge vector, zero for a vertex
    widest_code: np.ndarray              # (...) the widest feature: face with area, else longest edge, else vertex
    widest_axis: np.ndarray              # (3, ...) its axis

    @staticmethod
    def batch_axis(name: str) -> int:
        """Where a field's batch dimensions start: after the component axis of vectors."""
        return 0 if name in ("edge_inverse_squared", "inward_offset", "widest_code") else 1

    def map_batch(self, function) -> "CoreFeatures":
        """Apply ``function(array, batch_axis)`` to every batched field."""
        return CoreFeatures(*[
            None if value is None else value if name in ("codes", "indices")
            else function(value, self.batch_axis(name)) for name, value in zip(self._fields, self)])


def newell_normal(vertices: np.ndarray) -> np.ndarray:
    """Area-weighted normal of closed polygons (..., V, 3); length = twice the area.

    Newell's method: exact for planar polygons, a best fit for warped ones, and
    oriented by the winding (counter-clockwise seen from the tip of the normal).
    """
    return np.moveaxis(newell_components(components(vertices)), 0, -1)


def newell_components(loop: np.ndarray) -> np.ndarray:
    """``newell_normal`` of component-first vertex loops (3, ..., V), as (3, ...): the
    cross products of consecutive vertices summed in vertex order."""
    crossed = cross(loop, np.roll(loop, -1, axis=-1))
    return functools.reduce(np.add, [crossed[..., i] for i in range(loop.shape[-1])])


def polygon_extent(vertices: np.ndarray) -> np.ndarray:
    """Per polygon (..., V, 3): twice the largest distance of a vertex from the centroid."""
    return 2 * np.linalg.norm(vertices - vertices.mean(axis=-2, keepdims=True), axis=-1).max(axis=-1)


def coordinate_rounding(vertices: np.ndarray) -> np.ndarray:
    """Per polygon (..., V, 3): the rounding its coordinates may carry
    (``tolerance.COORDINATE_ROUNDING_ULPS`` of the largest magnitude)."""
    return tolerance.COORDINATE_ROUNDING_ULPS * np.finfo(vertices.dtype).eps * np.abs(vertices).max(axis=(-2, -1))


def within_rounding(separation: np.ndarray, *points: np.ndarray) -> np.ndarray:
    """Whether component-first (3, ...) ``separation`` vectors are no longer than the
    rounding of the coordinates they were computed from
    (``tolerance.COORDINATE_ROUNDING_ULPS`` ulps of the largest |coordinate| of
    ``points``, component-first, broadcasting): their direction is round-off."""
    magnitude = functools.reduce(np.maximum, [np.max(np.abs(point), axis=0) for point in points])
    rounding = tolerance.COORDINATE_ROUNDING_ULPS * np.finfo(separation.dtype).eps * magnitude
    return np.sqrt(dot(separation, separation)) <= rounding


def polygon_slack(vertices: np.ndarray, extent: np.ndarray | None = None,
                  rounding: np.ndarray | None = None) -> np.ndarray:
    """Per polygon (..., V, 3), how far a vertex may stray from exact planarity or
    convexity: ``tolerance.POLYGON_RTOL`` of its extent plus the rounding of its
    coordinates (``tolerance.COORDINATE_ROUNDING_ULPS``); pass ``extent`` and
    ``rounding`` when already computed."""
    extent = polygon_extent(vertices) if extent is None else extent
    return tolerance.POLYGON_RTOL * extent + (coordinate_rounding(vertices) if rounding is None else rounding)


def core_features(vertices: np.ndarray) -> CoreFeatures:
    """The features of cores given as (..., V, 3) vertex loops; a polygon's face only
    where its area is above round-off (a zero-area polygon, or one whose vertices
    coincide up to the rounding of their coordinates, is just its edges)."""
    count = vertices.shape[-2]
    edge_count = {1: 0, 2: 1}.get(count, count)
    codes = [np.full(edge_count, EDGE), np.full(count, VERTEX)]
    indices = [np.arange(edge_count), np.arange(count)]
    loop = components(vertices)
    if edge_count == 0:
        return CoreFeatures(loop, None, None, None, None, None, None, None, codes[1], indices[1], loop,
                            np.zeros_like(loop), np.full(loop.shape[1:-1], VERTEX), np.zeros(loop.shape[:-1], loop.dtype))
    starts = loop[..., :edge_count]
    edges = loop[..., (np.arange(edge_count) + 1) % count] - starts
    length_squared = dot(edges, edges)
    inverse_squared = np.where(length_squared > 0, 1 / np.where(length_squared > 0, length_squared, 1), 0)
    longest = np.argmax(length_squared, axis=-1)[..., None]
    widest_axis = np.take_along_axis(edges, longest[None], axis=-1)[..., 0]
    widest_code = np.where(np.take_along_axis(length_squared, longest, axis=-1)[..., 0] > 0, EDGE, VERTEX)
    if count < 3:
        return CoreFeatures(loop, starts, edges, inverse_squared, None, None, None, None,
                            np.concatenate(codes), np.concatenate(indices), np.concatenate([starts, loop], axis=-1),
                            np.concatenate([edges, np.zeros_like(loop)], axis=-1), widest_code, widest_axis)
    anchor = loop[..., 0]
    normal = newell_components(loop - loop[..., :1])
    length = np.sqrt(dot(normal, normal))
    # A Newell normal no longer than the rounding of its cross products (a polygon
    # whose vertices coincide up to round-off) points anywhere: no face, only edges.
    extent, rounding = polygon_extent(vertices), coordinate_rounding(vertices)
    has_area = length > rounding * extent
    normal = np.where(has_area, normal / np.where(has_area, length, 1), 0)
    inward = cross(normal[..., None], edges)
    has_direction = np.sqrt(length_squared) > polygon_slack(vertices, extent, rounding)[..., None]
    inward = np.where(has_direction, inward, 0)
    inward_offset = dot(inward, starts - anchor[..., None])
    # Degenerate triangles fall back to their longest edge (as in Jolt).
    widest_code, widest_axis = np.where(has_area, FACE, widest_code), np.where(has_area, normal, widest_axis)
    return CoreFeatures(loop, starts, edges, inverse_squared, anchor, normal, inward, inward_offset,
                        np.concatenate([[FACE]] + codes), np.concatenate([[0]] + indices),
                        np.concatenate([anchor[..., None], starts, loop], axis=-1),
                        np.concatenate([normal[..., None], edges, np.zeros_like(loop)], axis=-1),
                        widest_code, widest_axis)


def inside_face(offsets: np.ndarray, features: CoreFeatures) -> np.ndarray:
    """Whether points ``face_anchor + offsets`` (3, ...) project along the face normal
    inside or onto the boundary of the face; False where the face has no area."""
    side = dot(features.inward, offsets[..., None]) >= features.inward_offset
    return np.all(side, axis=-1) & np.any(features.face_normal != 0, axis=0)


def stack_cores(cores: list[CoreFeatures]) -> CoreFeatures:
    """Unbatched cores of any sizes (points, segments, polygons) as one batch of
    ``len(cores)``, padded to the largest vertex and edge counts with features that
    are never chosen: copies of vertex 0 after the real vertices (a tie goes to the
    earlier feature), zero-length edges (skipped like a polygon's own), and a zero
    face normal where a core has no face (no face test).  Real features keep their
    codes and indices, so a kernel answers each core of the batch as it would answer
    it alone.  All cores must share one dtype."""
    count, dtype = len(cores), cores[0].vertices.dtype
    vertex_count = max(core.vertices.shape[-1] for core in cores)
    edge_count = max(0 if core.edges is None else core.edges.shape[-1] for core in cores)
    with_face = any(core.face_normal is not None for core in cores)
    face = 1 if with_face else 0
    # anchors and axes in feature order (face, edges, vertices); the other fields are views
    anchors, axes = np.zeros((2, 3, count, face + edge_count + vertex_count), dtype)
    vertices, edge_starts = anchors[..., face + edge_count:], anchors[..., face:face + edge_count]
    edges, face_anchor, face_normal = axes[..., face:face + edge_count], anchors[..., 0], axes[..., 0]
    inverse_squared, inward_offset = np.zeros((2, count, edge_count), dtype)
    inward, widest_axis = np.zeros((3, count, edge_count), dtype), np.zeros((3, count), dtype)
    widest_code = np.zeros(count, int)
    for row, core in enumerate(cores):
        first = core.vertices[:, :1]
        real = core.vertices.shape[-1]
        vertices[:, row, :real], vertices[:, row, real:] = core.vertices, first
        edge_starts[:, row] = first
        if core.edges is not None:
            real = core.edges.shape[-1]
            edge_starts[:, row, :real], edges[:, row, :real] = core.edge_starts, core.edges
            inverse_squared[row, :real] = core.edge_inverse_squared
        if with_face:
            face_anchor[:, row] = first[:, 0]
        if core.face_normal is not None:
            face_anchor[:, row], face_normal[:, row] = core.face_anchor, core.face_normal
            real = core.inward.shape[-1]
            inward[:, row, :real], inward_offset[row, :real] = core.inward, core.inward_offset
        widest_code[row], widest_axis[:, row] = core.widest_code, core.widest_axis
    codes = np.array([FACE] * face + [EDGE] * edge_count + [VERTEX] * vertex_count)
    indices = np.array([0] * face + list(range(edge_count)) + list(range(vertex_count)))
    edge_fields = (edge_starts, edges, inverse_squared) if edge_count else (None,) * 3
    face_fields = (face_anchor, face_normal, inward, inward_offset) if with_face else (None,) * 4
    return CoreFeatures(vertices, *edge_fields, *face_fields, codes, indices, anchors, axes, widest_code,
                        widest_axis)
