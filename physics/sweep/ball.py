"""A moving ball (center + radius) against a target core inflated by a radius.

This is the whole sphere family, reduced: a sphere, point, segment, triangle or
polygon target is a convex polygon core (1, 2 or V vertices) with a radius (the
target sphere's radius, else 0), and the moving sphere's own radius inflates it
further.  A plane is the one target with an unbounded core and has its own,
simpler function.  Every function broadcasts its batch dimensions and returns a
``Contact`` of arrays.

At t = 0 the closest core point decides touching/overlap (then t = 0, with the
minimum translation distance and direction).  Otherwise the first contact is the
earliest entry into the rounded features (``physics.sweep.rounded``), and the
contact normal is the direction from the core feature to the center at that time,
computed from anchor-relative offsets so that coordinates far from the origin do
not swamp it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from physics.closest import EDGE, FACE, VERTEX, closest_point_on_core, face_normal, inside_polygon, polygon_edges
from physics.sweep.rounded import ball_entry_time, cylinder_entry_time, slab_entry_time
from physics.vector import any_perpendicular, dot, normalize_or, reject


class Contact(NamedTuple):
    """Kernel answer: ``t`` NaN where no hit; ``depth`` > 0 overlapping, NaN otherwise;
    ``point`` is on the inflated target's surface (core point + target radius * normal)."""

    t: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    feature_code: np.ndarray
    feature_index: np.ndarray


def _off_feature(vectors: np.ndarray, code: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The part of ``vectors`` that leaves a feature: all of it from a vertex, the
    part perpendicular to an edge (``axis`` = edge vector), the part along a face's
    unit normal (``axis``)."""
    code = code[..., None]
    across_edge = reject(vectors, axis)
    along_normal = dot(vectors, axis)[..., None] * axis
    return np.where(code == VERTEX, vectors, np.where(code == EDGE, across_edge, along_normal))


def _normal_along(motion: np.ndarray, code: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The normal of a feature picked by a motion, for when the center lies on the
    feature itself: the motion's off-feature part, normalised; failing that, any
    perpendicular of an edge, a face's own normal, or +z for a vertex."""
    code_ = code[..., None]
    secondary = np.where(code_ == EDGE, any_perpendicular(axis),
                         np.where(code_ == FACE, axis, np.array([0.0, 0.0, 1.0], dtype=axis.dtype)))
    return normalize_or(_off_feature(motion, code, axis), secondary)


def _resolve(center, direction, total_radius, target_radius, anchor, axis, code, t,
             ignore_separating, initially_touching):
    """Turn a feature and a time into a ``Contact`` (shared by t = 0 and sweep hits).

    ``initially_touching`` selects, elementwise, the t = 0 rule: the normal is the
    minimum-translation direction (ties picked along the motion) and separating
    motions may be ignored; elsewhere the normal is the approach direction at
    contact (ties picked against the motion, the limit of a zero radius).
    """
    center_offset = center - anchor
    at_time = center_offset + np.where(np.isfinite(t), t, 0)[..., None] * direction
    separation = _off_feature(at_time, code, axis)
    tie_motion = np.where(initially_touching[..., None], direction, -direction)
    tie_normal = _normal_along(tie_motion, code, axis)
    distance = np.sqrt(dot(separation, separation))
    use_separation = (distance > 0) & (initially_touching | (total_radius > 0))
    normal = np.where(use_separation[..., None], separation / np.where(distance > 0, distance, 1)[..., None],
                      tie_normal) + 0.0  # + 0.0 turns -0.0 into +0.0
    core_point = anchor + (at_time - separation)
    point = core_point + target_radius[..., None] * normal
    depth = total_radius - distance
    separating = dot(direction, normal) >= 0
    hit = np.isfinite(t) & ~(initially_touching & ignore_separating & separating)
    overlapping = hit & initially_touching & (depth > 0)
    no_hit = ~hit[..., None]
    return Contact(
        t=np.where(hit, t, np.nan),
        point=np.where(no_hit, np.nan, point),
        normal=np.where(no_hit, np.nan, normal),
        depth=np.where(overlapping, depth, np.nan),
        feature_code=np.where(hit, code, -1),
        feature_index=None,
    )


def _gather(array: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``array[..., index, :]`` per batch element."""
    return np.take_along_axis(array, index[..., None, None], axis=-2)[..., 0, :]


def sweep_ball_core(center, radius, direction, vertices, target_radius,
                    ignore_separating: bool = False) -> Contact:
    """Sweep a ball along ``direction`` against a convex polygon core (..., V, 3)
    inflated by ``target_radius``.

    Feature codes and indices are those of the core: vertex i, edge i (from vertex
    i to i + 1), face 0.  Ties between features at the same t go to the face,
    then edges, then vertices (the higher-dimensional feature).
    """
    shape = np.broadcast_shapes(center.shape[:-1], np.shape(radius), direction.shape[:-1],
                                vertices.shape[:-2], np.shape(target_radius))
    dtype = np.result_type(center, radius, direction, vertices, target_radius)
    center, direction = (np.broadcast_to(v, shape + (3,)).astype(dtype, copy=False) for v in (center, direction))
    vertices = np.broadcast_to(vertices, shape + vertices.shape[-2:]).astype(dtype, copy=False)
    target_radius = np.broadcast_to(target_radius, shape).astype(dtype, copy=False)
    total_radius = np.broadcast_to(radius, shape).astype(dtype, copy=False) + target_radius
    starts, edges = polygon_edges(vertices)
    normal = face_normal(vertices)
    zero = np.zeros(shape + (3,), dtype)

    # First contact over all rounded features: face first so that ties go to it.
    per_feature = [ball_entry_time(center[..., None, :] - vertices, direction[..., None, :], total_radius[..., None])]
    edge_times, _ = cylinder_entry_time(center[..., None, :] - starts, direction[..., None, :],
                                        total_radius[..., None], edges)
    per_feature.insert(0, edge_times)
    if normal is not None:
        face_offset = center - vertices[..., 0, :]
        face_time = slab_entry_time(dot(face_offset, normal), dot(direction, normal), total_radius)
        at_contact = face_offset + np.where(np.isfinite(face_time), face_time, 0)[..., None] * direction
        in_face = inside_polygon(at_contact - dot(at_contact, normal)[..., None] * normal, vertices, normal)
        per_feature.insert(0, np.where(in_face, face_time, np.inf)[..., None])
    times = np.concatenate(per_feature, axis=-1)
    winner = np.argmin(times, axis=-1)
    sweep_time = np.take_along_axis(times, winner[..., None], axis=-1)[..., 0]
    face_count = 0 if normal is None else 1
    edge_count = starts.shape[-2]
    sweep_code = np.where(winner < face_count, FACE, np.where(winner < face_count + edge_count, EDGE, VERTEX))
    sweep_index = np.where(sweep_code == FACE, 0,
                           np.where(sweep_code == EDGE, winner - face_count, winner - face_count - edge_count))

    # Touching or overlapping at t = 0 replaces the sweep answer.
    _, start_code, start_index = closest_point_on_core(center, vertices)
    start_frame = _feature_frame(start_code, start_index, vertices, starts, edges, normal, zero)
    start_offset = _off_feature(center - start_frame[0], start_code, start_frame[1])
    initially_touching = dot(start_offset, start_offset) <= total_radius * total_radius

    sweep_frame = _feature_frame(sweep_code, sweep_index, vertices, starts, edges, normal, zero)
    code = np.where(initially_touching, start_code, sweep_code)
    index = np.where(initially_touching, start_index, sweep_index)
    anchor = np.where(initially_touching[..., None], start_frame[0], sweep_frame[0])
    axis = np.where(initially_touching[..., None], start_frame[1], sweep_frame[1])
    t = np.where(initially_touching, 0, sweep_time)
    contact = _resolve(center, direction, total_radius, target_radius, anchor, axis, code, t,
                       ignore_separating, initially_touching)
    return contact._replace(feature_index=np.where(contact.feature_code >= 0, index, -1))


def _feature_frame(code, index, vertices, starts, edges, normal, zero):
    """Anchor point and axis of each named feature (axis: edge vector, face normal, 0)."""
    safe_edge = np.clip(index, 0, max(edges.shape[-2] - 1, 0))
    safe_vertex = np.clip(index, 0, vertices.shape[-2] - 1)
    edge_anchor = _gather(starts, safe_edge) if edges.shape[-2] else zero
    edge_axis = _gather(edges, safe_edge) if edges.shape[-2] else zero
    code_ = code[..., None]
    anchor = np.where(code_ == EDGE, edge_anchor,
                      np.where(code_ == FACE, vertices[..., 0, :], _gather(vertices, safe_vertex)))
    axis = np.where(code_ == EDGE, edge_axis, np.where(code_ == FACE, normal if normal is not None else zero, zero))
    return anchor, axis


def sweep_ball_plane(center, radius, direction, plane_normal, plane_offset,
                     ignore_separating: bool = False) -> Contact:
    """Sweep a ball against the two-sided plane ``dot(plane_normal, x) == plane_offset``
    (unit normal).  The feature is always face 0."""
    shape = np.broadcast_shapes(center.shape[:-1], np.shape(radius), direction.shape[:-1],
                                plane_normal.shape[:-1], np.shape(plane_offset))
    dtype = np.result_type(center, radius, direction, plane_normal, plane_offset)
    center, direction, plane_normal = (np.broadcast_to(v, shape + (3,)).astype(dtype, copy=False)
                                       for v in (center, direction, plane_normal))
    radius = np.broadcast_to(radius, shape).astype(dtype, copy=False)
    height = dot(center, plane_normal) - plane_offset
    initially_touching = np.abs(height) <= radius
    t = np.where(initially_touching, 0, slab_entry_time(height, dot(direction, plane_normal), radius))
    anchor = center - height[..., None] * plane_normal
    code = np.full(shape, FACE)
    contact = _resolve(center, direction, radius, np.zeros(shape, dtype), anchor, plane_normal, code, t,
                       ignore_separating, initially_touching)
    return contact._replace(feature_index=np.where(contact.feature_code >= 0, 0, -1))
