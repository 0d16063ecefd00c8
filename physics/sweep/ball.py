"""A moving ball (center + radius) against a target core inflated by a radius.

This is the whole sphere family, reduced: a sphere, point, segment, triangle or
polygon target is a convex polygon core (``physics.core``) with a radius (the
target sphere's radius, else 0), and the moving sphere's own radius inflates it
further.  A plane is the one target with an unbounded core and has its own,
simpler function.  Every function broadcasts its batch dimensions and returns a
``Contact`` of arrays; run them under ``np.errstate(all="ignore")``.

At t = 0 the nearest feature decides touching/overlap (then t = 0, with the
minimum translation distance and direction).  Otherwise the first contact is the
earliest entry into the rounded features (``physics.sweep.rounded``), and the
contact normal is the direction from the feature to the center at that time,
computed from anchor-relative offsets so that coordinates far from the origin do
not swamp it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from physics.core import EDGE, FACE, VERTEX, CoreFeatures, core_features, inside_face
from physics.sweep.rounded import ball_entry_time, slab_entry_time
from physics.vector import any_perpendicular, dot, normalize_or

UP = np.array([0.0, 0.0, 1.0])


class Contact(NamedTuple):
    """Kernel answer: ``t`` NaN where no hit; ``depth`` > 0 overlapping, NaN otherwise;
    ``point`` is on the inflated target's surface (core point + target radius * normal);
    ``feature_code``/``feature_index`` -1 where no hit."""

    t: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    feature_code: np.ndarray
    feature_index: np.ndarray


def _off_feature(vectors: np.ndarray, code: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The part of ``vectors`` that leaves a feature: all of it from a vertex (axis 0),
    the part perpendicular to an edge (axis = edge vector), the part along a face's
    unit normal (axis)."""
    axis_squared = dot(axis, axis)
    along = np.where(axis_squared > 0, dot(vectors, axis) / axis_squared, 0)[..., None] * axis
    return np.where((code == FACE)[..., None], along, vectors - along)


def _normal_along(motion: np.ndarray, code: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The normal of a feature picked by a motion, for when the center lies on the
    feature itself: the motion's off-feature part, normalised; failing that, any
    perpendicular of an edge, a face's own normal, or +z for a vertex."""
    code_ = code[..., None]
    secondary = np.where(code_ == EDGE, any_perpendicular(axis), np.where(code_ == FACE, axis, UP.astype(axis.dtype)))
    return normalize_or(_off_feature(motion, code, axis), secondary)


def _gather(array: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``array[..., index, :]`` per batch element."""
    return np.take_along_axis(array, index[..., None, None], axis=-2)[..., 0, :]


def sweep_ball_core(center, radius, direction, vertices, target_radius,
                    ignore_separating: bool = False, features: CoreFeatures | None = None) -> Contact:
    """Sweep a ball along ``direction`` against convex polygon cores (..., V, 3)
    inflated by ``target_radius``.

    Feature codes and indices are the core's (``physics.core``).  Ties between
    features at the same t go to the face, then edges, then vertices.
    ``features`` may pass ``core_features(vertices)`` computed beforehand.
    """
    features = features if features is not None else core_features(vertices)
    shape = np.broadcast_shapes(center.shape[:-1], np.shape(radius), direction.shape[:-1],
                                vertices.shape[:-2], np.shape(target_radius))
    total_radius = np.broadcast_to(radius + target_radius, shape)
    face_count = features.face_count
    offsets = center[..., None, :] - features.anchors
    motion = direction[..., None, :]

    # Vertex balls and edge cylinders ("lines"): a ball in the plane across the axis.
    axes = features.axes[..., face_count:, :]
    axis_squared = dot(axes, axes)
    is_vertex = features.codes[face_count:] == VERTEX  # a zero-length edge is left to its vertices
    inverse = np.where(axis_squared > 0, 1 / axis_squared, 0)
    start_along = dot(offsets[..., face_count:, :], axes) * inverse
    rate_along = dot(motion, axes) * inverse
    start_across = offsets[..., face_count:, :] - start_along[..., None] * axes
    rate_across = motion - rate_along[..., None] * axes
    times = ball_entry_time(start_across, rate_across, total_radius[..., None])
    along_at_hit = start_along + np.where(np.isfinite(times), times, 0) * rate_along
    times = np.where(is_vertex | ((along_at_hit > 0) & (along_at_hit < 1)), times, np.inf)
    start_distance = np.where(is_vertex | ((start_along > 0) & (start_along < 1)),
                              dot(start_across, start_across), np.inf)

    if face_count:
        normal, face_offset = features.axes[..., 0, :], offsets[..., 0, :]
        height, rate = dot(face_offset, normal), dot(direction, normal)
        face_time = slab_entry_time(height, rate, total_radius)
        at_hit = face_offset + np.where(np.isfinite(face_time), face_time, 0)[..., None] * direction
        face_time = np.where(inside_face(at_hit - dot(at_hit, normal)[..., None] * normal, features),
                             face_time, np.inf)
        face_start = np.where(inside_face(face_offset - height[..., None] * normal, features), height * height,
                              np.inf)
        times = np.concatenate([face_time[..., None], times], axis=-1)
        start_distance = np.concatenate([face_start[..., None], start_distance], axis=-1)

    start_feature = np.argmin(start_distance, axis=-1)
    start_squared = np.take_along_axis(start_distance, start_feature[..., None], axis=-1)[..., 0]
    initially_touching = np.broadcast_to(start_squared <= total_radius * total_radius, shape)
    sweep_feature = np.argmin(times, axis=-1)
    sweep_time = np.take_along_axis(times, sweep_feature[..., None], axis=-1)[..., 0]
    feature = np.broadcast_to(np.where(initially_touching, start_feature, sweep_feature), shape)
    t = np.where(initially_touching, 0, sweep_time)

    code, index = features.codes[feature], features.indices[feature]
    anchor = _gather(np.broadcast_to(features.anchors, shape + features.anchors.shape[-2:]), feature)
    axis = _gather(np.broadcast_to(features.axes, shape + features.axes.shape[-2:]), feature)
    return resolve_contact(center, direction, total_radius, target_radius, anchor, axis, code, index, t,
                           initially_touching, ignore_separating)


def resolve_contact(center, direction, total_radius, target_radius, anchor, axis, code, index, t,
                    initially_touching, ignore_separating) -> Contact:
    """Turn the chosen feature and time into a ``Contact``.

    Where ``initially_touching``, the normal is the minimum-translation direction
    (ties, with the center on the feature, picked along the motion) and, with
    ``ignore_separating``, a contact whose motion does not deepen it is dropped.
    Elsewhere the normal is the approach direction at contact (ties picked against
    the motion: the limit of a zero radius).
    """
    center_offset = center - anchor
    at_time = center_offset + np.where(np.isfinite(t), t, 0)[..., None] * direction
    separation = _off_feature(at_time, code, axis)
    tie_normal = _normal_along(np.where(initially_touching[..., None], direction, -direction), code, axis)
    distance = np.sqrt(dot(separation, separation))
    use_separation = initially_touching | (total_radius > 0)
    normal = np.where(use_separation[..., None], normalize_or(separation, tie_normal),
                      tie_normal) + 0.0  # + 0.0 turns -0.0 into +0.0
    point = anchor + (at_time - separation) + np.asarray(target_radius)[..., None] * normal
    hit = np.isfinite(t)
    if ignore_separating:
        hit &= ~(initially_touching & (dot(direction, normal) >= 0))
    overlapping = hit & initially_touching & (distance < total_radius)
    no_hit = ~hit[..., None]
    nan = np.asarray(np.nan, dtype=normal.dtype)
    return Contact(
        t=np.where(hit, t, nan).astype(normal.dtype, copy=False),
        point=np.where(no_hit, nan, point),
        normal=np.where(no_hit, nan, normal),
        depth=np.where(overlapping, total_radius - distance, nan),
        feature_code=np.where(hit, code, -1),
        feature_index=np.where(hit, index, -1),
    )


def sweep_ball_plane(center, radius, direction, plane_normal, plane_offset,
                     ignore_separating: bool = False) -> Contact:
    """Sweep a ball against the two-sided plane ``dot(plane_normal, x) == plane_offset``
    (unit normal).  The feature is always face 0."""
    shape = np.broadcast_shapes(center.shape[:-1], np.shape(radius), direction.shape[:-1],
                                plane_normal.shape[:-1], np.shape(plane_offset))
    radius = np.broadcast_to(radius, shape)
    height = dot(center, plane_normal) - plane_offset
    initially_touching = np.abs(height) <= radius
    t = np.where(initially_touching, 0, slab_entry_time(height, dot(direction, plane_normal), radius))
    anchor = center - height[..., None] * plane_normal
    return resolve_contact(center, direction, radius, np.zeros((), radius.dtype), anchor,
                           np.broadcast_to(plane_normal, shape + (3,)), np.full(shape, FACE), np.zeros(shape, int),
                           t, initially_touching, ignore_separating)
