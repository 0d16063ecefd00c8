"""Closest points from query points to the *core* of a target, at one instant.

A core is a convex polygon given by its boundary vertices (..., V, 3): V = 1 is a
point, V = 2 a segment, V >= 3 a polygon (its face plus its boundary edges).  A
sphere's core is its center point; later, a capsule's core is its segment.  The
answer names the feature the closest point lies on (codes of
``physics.result.FEATURE_KINDS``): the face interior, an edge interior, or a vertex.
"""

from __future__ import annotations

import numpy as np

from physics.result import FEATURE_KINDS
from physics.shapes import newell_normal
from physics.vector import dot, normalize_or

VERTEX, EDGE, FACE = (FEATURE_KINDS.index(kind) for kind in ("vertex", "edge", "face"))


def polygon_edges(vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edge starts and edge vectors of a core: none for a point, one for a segment,
    V for a polygon (edge i from vertex i to vertex i + 1 mod V)."""
    count = vertices.shape[-2]
    edge_count = {1: 0, 2: 1}.get(count, count)
    starts = vertices[..., :edge_count, :]
    ends = np.roll(vertices, -1, axis=-2)[..., :edge_count, :]
    return starts, ends - starts


def face_normal(vertices: np.ndarray) -> np.ndarray | None:
    """Unit normal of a polygon core (zero vector where it has no area); ``None``
    for points and segments, which have no face."""
    if vertices.shape[-2] < 3:
        return None
    return normalize_or(newell_normal(vertices - vertices[..., :1, :]), np.zeros(3, vertices.dtype))


def inside_polygon(offsets: np.ndarray, vertices: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """Whether points ``vertices[..., 0, :] + offsets``, projected along ``normal``,
    lie inside or on the boundary of the convex polygon.

    ``offsets`` (..., 3) are relative to vertex 0 so that far-from-origin polygons
    keep their precision.  False wherever the normal is zero (no area).
    """
    relative = vertices - vertices[..., :1, :]
    edges = np.roll(relative, -1, axis=-2) - relative
    side = dot(np.cross(edges, offsets[..., None, :] - relative), normal[..., None, :])
    return np.all(side >= 0, axis=-1) & np.any(normal != 0, axis=-1)


def closest_point_on_core(points: np.ndarray, vertices: np.ndarray):
    """Closest point of each core to each query point.

    Returns ``(closest, feature_code, feature_index)``; broadcasts ``points`` (..., 3)
    against ``vertices`` (..., V, 3).
    """
    shape = np.broadcast_shapes(points.shape[:-1], vertices.shape[:-2])
    points = np.broadcast_to(points, shape + (3,))
    vertices = np.broadcast_to(vertices, shape + vertices.shape[-2:])
    starts, edges = polygon_edges(vertices)

    if starts.shape[-2] == 0:
        zeros = np.zeros(shape, dtype=np.int64)
        return vertices[..., 0, :], np.full(shape, VERTEX), zeros

    offsets = points[..., None, :] - starts
    edge_squared = dot(edges, edges)
    with np.errstate(divide="ignore", invalid="ignore"):
        along = np.clip(np.where(edge_squared > 0, dot(offsets, edges) / edge_squared, 0), 0, 1)
    separation = offsets - along[..., None] * edges
    nearest_edge = np.argmin(dot(separation, separation), axis=-1)[..., None]
    along = np.take_along_axis(along, nearest_edge, axis=-1)[..., 0]
    nearest_edge = nearest_edge[..., 0]
    closest = np.take_along_axis(starts, nearest_edge[..., None, None], axis=-2)[..., 0, :] \
        + along[..., None] * np.take_along_axis(edges, nearest_edge[..., None, None], axis=-2)[..., 0, :]
    code = np.where((along > 0) & (along < 1), EDGE, VERTEX)
    vertex_count = vertices.shape[-2]
    index = np.where(along >= 1, (nearest_edge + 1) % vertex_count, nearest_edge)

    normal = face_normal(vertices)
    if normal is not None:
        offset = points - vertices[..., 0, :]
        projected = offset - dot(offset, normal)[..., None] * normal
        inside = inside_polygon(projected, vertices, normal)
        closest = np.where(inside[..., None], vertices[..., 0, :] + projected, closest)
        code = np.where(inside, FACE, code)
        index = np.where(inside, 0, index)
    return closest, code, index
