"""Target *cores*: the features a sphere-family target is made of.

A core is a convex polygon given by its boundary vertices (..., V, 3): V = 1 is a
point, V = 2 a segment, V >= 3 a polygon.  Its features, in this order, are: the
face (polygons with area only), the edges (none for a point, one for a segment,
V for a polygon, edge i from vertex i to vertex i + 1 mod V), then the vertices.
Each feature has an *anchor* (a point on it) and an *axis*: the face's unit
normal, the edge vector, or zero for a vertex.  A sphere's core is its center
point inflated by its radius; a capsule's (later) is its segment.

Feature codes are the indices of ``physics.result.FEATURE_KINDS``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from physics import tolerance
from physics.result import FEATURE_KINDS
from physics.vector import dot

VERTEX, EDGE, FACE = (FEATURE_KINDS.index(kind) for kind in ("vertex", "edge", "face"))


class CoreFeatures(NamedTuple):
    """Features of a batch of cores; ``F`` features per core, face first if any.

    ``inward`` (..., V, 3) and ``inward_offset`` (..., V) describe the face for the
    inside test (``dot(inward, p - v0) >= inward_offset`` for every edge); both are
    None when there is no face.
    """

    anchors: np.ndarray        # (..., F, 3)
    axes: np.ndarray           # (..., F, 3)
    codes: np.ndarray          # (F,)
    indices: np.ndarray        # (F,)
    face_count: int            # 0 or 1
    inward: np.ndarray | None
    inward_offset: np.ndarray | None


def newell_normal(vertices: np.ndarray) -> np.ndarray:
    """Area-weighted normal of a closed polygon (..., V, 3), length = twice its area.

    Newell's method: exact for planar polygons, a best fit for warped ones, and
    oriented by the winding (counter-clockwise seen from the tip of the normal).
    """
    following = vertices[..., (np.arange(vertices.shape[-2]) + 1) % vertices.shape[-2], :]
    return np.cross(vertices, following).sum(axis=-2)


def polygon_slack(vertices: np.ndarray) -> np.ndarray:
    """Per polygon, how far a vertex may stray from exact planarity or convexity:
    a fraction of the polygon's extent plus the rounding of its coordinates."""
    extent = 2 * np.linalg.norm(vertices - vertices.mean(axis=-2, keepdims=True), axis=-1).max(axis=-1)
    magnitude = np.abs(vertices).max(axis=(-2, -1))
    rounding = tolerance.COORDINATE_ROUNDING_ULPS * np.finfo(vertices.dtype).eps * magnitude
    return tolerance.POLYGON_RTOL * extent + rounding


def core_features(vertices: np.ndarray) -> CoreFeatures:
    """The features of cores (..., V, 3); a polygon's face only where its area is
    non-zero (a zero-area polygon is just its edges)."""
    count = vertices.shape[-2]
    edge_count = {1: 0, 2: 1}.get(count, count)
    following = (np.arange(edge_count) + 1) % count
    starts = vertices[..., :edge_count, :]
    edges = vertices[..., following, :] - starts
    anchors, axes = [starts, vertices], [edges, np.zeros_like(vertices)]
    codes = [np.full(edge_count, EDGE), np.full(count, VERTEX)]
    indices = [np.arange(edge_count), np.arange(count)]
    if count < 3:
        return CoreFeatures(np.concatenate(anchors, axis=-2), np.concatenate(axes, axis=-2),
                            np.concatenate(codes), np.concatenate(indices), 0, None, None)
    relative = vertices - vertices[..., :1, :]
    normal = newell_normal(relative)
    length = np.sqrt(dot(normal, normal))[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        normal = np.where(length > 0, normal / length, 0)
    inward = np.cross(normal[..., None, :], edges)
    # An edge too short to have a direction (a near-duplicate vertex) must not cut the face.
    edge_length = np.sqrt(dot(edges, edges))
    inward = np.where((edge_length > polygon_slack(vertices)[..., None])[..., None], inward, 0)
    anchors.insert(0, vertices[..., :1, :])
    axes.insert(0, normal[..., None, :])
    codes.insert(0, np.array([FACE]))
    indices.insert(0, np.array([0]))
    return CoreFeatures(np.concatenate(anchors, axis=-2), np.concatenate(axes, axis=-2),
                        np.concatenate(codes), np.concatenate(indices), 1, inward, dot(inward, relative))


def inside_face(offsets: np.ndarray, features: CoreFeatures) -> np.ndarray:
    """Whether points ``v0 + offsets`` project (along the face normal) inside or on
    the boundary of the face; False where the core has no face or no area."""
    side = np.einsum("...vk,...k->...v", features.inward, offsets) - features.inward_offset
    return np.all(side >= 0, axis=-1) & np.any(features.axes[..., 0, :] != 0, axis=-1)
