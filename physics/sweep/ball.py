"""A moving ball (center + radius) against a target core inflated by a radius.

This is the whole sphere family, reduced: a sphere, point, segment, triangle or
polygon target is a convex polygon core (``physics.core``) with a radius (the
target sphere's radius, else 0), and the moving sphere's own radius inflates it
further.  A plane is the one target with an unbounded core and has its own,
simpler kernel.  Both broadcast their batch dimensions, run in cache-sized chunks
(``physics.sweep.batching``) in the component-first layout (``physics.vector``),
and return a ``Contact`` in the public (..., 3) layout.  Run them under
``np.errstate(all="ignore")``.

At t = 0 the nearest feature decides touching/overlap (then t = 0, with the
minimum translation distance and direction).  Otherwise the first contact is the
earliest entry into the rounded features (``physics.sweep.rounded``), and the
contact normal is the direction from the feature to the center at that time,
computed from anchor-relative offsets so that coordinates far from the origin do
not swamp it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from physics.core import EDGE, FACE, VERTEX, CoreFeatures, inside_face, within_rounding
from physics.sweep.batching import chunk, chunk_ranges, flatten
from physics.sweep.rounded import ball_entry_time, slab_entry_time
from physics.vector import any_perpendicular, components, dot, normalize_or, store_rows


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


def sweep_ball_core(center, radius, direction, features: CoreFeatures, feature_batch: tuple, target_radius,
                    ignore_separating: bool = False) -> Contact:
    """Sweep balls along ``direction`` against convex polygon cores inflated by
    ``target_radius``.  ``features`` (``physics.core.core_features``) has batch
    dimensions ``feature_batch``.

    Feature codes and indices are the core's.  Ties between features at the same
    t go to the face, then edges, then vertices.
    """
    def kernel(center_, direction_, radius_, target_radius_, features_):
        return _first_contact(center_, direction_, radius_ + target_radius_, target_radius_, features_,
                              ignore_separating)

    return _run_chunked(kernel, [center, direction], [radius, target_radius], features, feature_batch)


def sweep_ball_plane(center, radius, direction, plane_normal, plane_offset,
                     ignore_separating: bool = False) -> Contact:
    """Sweep balls against two-sided planes ``dot(plane_normal, x) == plane_offset``
    (unit normals).  The feature is always face 0."""
    def kernel(center_, direction_, normal_, radius_, offset_):
        height = dot(center_, normal_) - offset_
        touching = np.abs(height) <= radius_
        t = np.where(touching, 0, slab_entry_time(height, dot(direction_, normal_), radius_))
        code = np.full(np.shape(t), FACE)
        return _resolve(center_, direction_, radius_, 0, center_ - height * normal_, normal_, code, code * 0, t,
                        touching, ignore_separating)

    return _run_chunked(kernel, [center, direction, plane_normal], [radius, plane_offset])


def _run_chunked(kernel, vector_inputs, scalar_inputs, features: CoreFeatures | None = None,
                 feature_batch: tuple = ()) -> Contact:
    """Broadcast, flatten and chunk the inputs; run ``kernel(*vectors, *scalars[,
    features])`` per chunk (vectors turned component-first chunk by chunk, while
    they are in cache); reassemble a ``Contact`` of the broadcast batch shape."""
    floating = [np.asarray(value) for value in scalar_inputs if np.issubdtype(np.asarray(value).dtype, np.floating)]
    dtype = np.result_type(*vector_inputs, *floating, *([features.vertices] if features else []))
    scalar_inputs = [np.asarray(value, dtype=dtype) for value in scalar_inputs]  # a literal 0 must not widen
    shape = np.broadcast_shapes(*[v.shape[:-1] for v in vector_inputs], *[s.shape for s in scalar_inputs],
                                feature_batch)
    flat_vectors = [flatten(v, 0, v.shape[:-1], shape) for v in vector_inputs]
    flat_scalars = [flatten(s, 0, s.shape, shape) for s in scalar_inputs]
    if features is not None:
        features = features.map_batch(lambda array, axis: flatten(array, axis, feature_batch, shape))
    count = math.prod(shape)
    t, depth = np.empty(count, dtype), np.empty(count, dtype)
    point, normal = np.empty((count, 3), dtype), np.empty((count, 3), dtype)
    code, index = np.empty(count, np.int64), np.empty(count, np.int64)
    for start, stop in chunk_ranges(count):
        arguments = [components(chunk(v, 0, start, stop)) for v in flat_vectors]
        arguments += [chunk(s, 0, start, stop) for s in flat_scalars]
        if features is not None:
            arguments.append(features.map_batch(lambda array, axis: chunk(array, axis, start, stop)))
        part = kernel(*arguments)
        t[start:stop], depth[start:stop] = part.t, part.depth
        store_rows(point, start, stop, part.point)
        store_rows(normal, start, stop, part.normal)
        code[start:stop], index[start:stop] = part.feature_code, part.feature_index
    return Contact(t.reshape(shape), point.reshape(shape + (3,)), normal.reshape(shape + (3,)),
                   depth.reshape(shape), code.reshape(shape), index.reshape(shape))


def _first_contact(center, direction, total_radius, target_radius, features: CoreFeatures,
                   ignore_separating) -> Contact:
    """One chunk of ``sweep_ball_core``: center/direction (3, n), radii (n,), features
    with batch n or 1."""
    times, start_distances = [], []  # per feature family: (n, count)
    if features.face_normal is not None:
        normal, offset = features.face_normal, center - features.face_anchor
        height = dot(offset, normal)
        face_time = slab_entry_time(height, dot(direction, normal), total_radius)
        at_hit = offset + np.where(face_time <= 1, face_time, 0) * direction
        times.append(np.where(inside_face(at_hit, features), face_time, np.inf)[..., None])
        start_distances.append(np.where(inside_face(offset, features), height * height, np.inf)[..., None])
    radius = total_radius[..., None]
    if features.edges is not None:
        edges, inverse_squared = features.edges, features.edge_inverse_squared
        offset = center[..., None] - features.edge_starts
        along, rate_along = dot(offset, edges) * inverse_squared, dot(direction[..., None], edges) * inverse_squared
        across = offset - along * edges
        edge_time = ball_entry_time(across, direction[..., None] - rate_along * edges, radius)
        along_at_hit = along + np.where(edge_time <= 1, edge_time, 0) * rate_along
        is_edge = inverse_squared > 0  # a zero-length edge is left to its vertices
        times.append(np.where(is_edge & (along_at_hit > 0) & (along_at_hit < 1), edge_time, np.inf))
        # at t = 0 a center is the edge's where it projects strictly between the edge's
        # ends by the sign of its offsets from them (``along`` rounds: a center inside
        # by less than that rounding would be given to the end vertex, leaving along
        # the edge)
        edge_ends = np.roll(features.vertices, -1, axis=-1)[..., :edges.shape[-1]]
        between = (dot(offset, edges) > 0) & (dot(center[..., None] - edge_ends, edges) < 0)
        start_distances.append(np.where(is_edge & between, dot(across, across), np.inf))
    offset = center[..., None] - features.vertices
    times.append(ball_entry_time(offset, direction[..., None], radius))
    start_distances.append(dot(offset, offset))

    if len(times) == 1 and times[0].shape[-1] == 1:  # a single vertex (point, sphere): nothing to choose
        touching = start_distances[0][..., 0] <= total_radius * total_radius
        t = np.where(touching, 0, times[0][..., 0])
        return _resolve(center, direction, total_radius, target_radius, features.vertices[..., 0], None,
                        features.codes[0], features.indices[0], t, touching, ignore_separating)
    rows = max(np.shape(t)[0] for t in times + start_distances)
    times = np.concatenate([np.broadcast_to(t, (rows, t.shape[-1])) for t in times], axis=-1)
    start_distances = np.concatenate([np.broadcast_to(s, (rows, s.shape[-1])) for s in start_distances], axis=-1)
    every_row = np.arange(rows)
    start_feature = np.argmin(start_distances, axis=-1)
    touching = start_distances[every_row, start_feature] <= total_radius * total_radius
    sweep_feature = np.argmin(times, axis=-1)
    feature = np.where(touching, start_feature, sweep_feature)
    t = np.where(touching, 0, times[every_row, sweep_feature])

    anchors, axes = features.anchors, features.axes
    count = anchors.shape[-1]
    flat_index = feature + every_row * count if anchors.shape[1] > 1 else feature
    anchor = np.take(anchors.reshape(3, -1), flat_index, axis=1)
    axis = np.take(axes.reshape(3, -1), flat_index, axis=1)
    return _resolve(center, direction, total_radius, target_radius, anchor, axis, features.codes[feature],
                    features.indices[feature], t, touching, ignore_separating,
                    (features.widest_code, features.widest_axis))


def _off_feature(vectors_: np.ndarray, code: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The part of (3, n) ``vectors_`` that leaves a feature: all of it from a vertex
    (zero axis), the part across an edge (axis = edge vector), the part along a
    face's unit normal (axis)."""
    axis_squared = dot(axis, axis)
    along = np.where(axis_squared > 0, dot(vectors_, axis) / axis_squared, 0) * axis
    return np.where(code == FACE, along, vectors_ - along)


def _normal_along(motion: np.ndarray, code: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The normal of a feature picked by a motion, for when the center lies on the
    feature itself: the motion's off-feature part, normalised; failing that, any
    perpendicular of an edge, a face's own normal, or +z for a vertex."""
    up = np.zeros_like(axis)
    up[2] = 1
    secondary = np.where(code == EDGE, any_perpendicular(axis), np.where(code == FACE, axis, up))
    return normalize_or(_off_feature(motion, code, axis), secondary)


def _resolve(center, direction, total_radius, target_radius, anchor, axis, code, index, t,
             initially_touching, ignore_separating, widest=None) -> Contact:
    """Turn the chosen feature (anchor, axis, code, index) and time into a ``Contact``;
    ``axis`` None means every chosen feature is a vertex.

    Where ``initially_touching``, the normal is the minimum-translation direction
    and, with ``ignore_separating``, a contact whose motion does not deepen it is
    dropped.  If the center lies on the core itself (exactly, or on an edge or face to within
    ``tolerance.COORDINATE_ROUNDING_ULPS``: ``physics.core.within_rounding``; the
    depth is still radius minus the computed distance), every direction that leaves
    the core's widest feature (``widest`` = (code, axis): its face, else its longest
    edge, else the vertex) separates by the full radius: the one closest to the
    motion is taken.  Elsewhere the normal is the approach direction at contact
    (ties picked against the motion: the limit of a zero radius).
    """
    hit = t <= 1  # t is +inf where nothing was hit
    at_time = (center - anchor) + np.where(hit, t, 0) * direction
    if axis is None:  # only vertices
        axis, separation = np.zeros_like(at_time), at_time
    else:
        separation = _off_feature(at_time, code, axis)
    distance = np.sqrt(dot(separation, separation))
    # a center on an edge or face (to within the rounding of the coordinates: the
    # separation's direction is then a projection's round-off) leaves by the escape
    # rule; from a vertex the separation is a difference, exact in direction
    needs_tie = (separation[0] == 0) & (separation[1] == 0) & (separation[2] == 0)
    if np.any(initially_touching):
        needs_tie |= initially_touching & (code != VERTEX) & within_rounding(separation, center, anchor)
    needs_tie |= ~initially_touching & (total_radius == 0)
    needs_tie &= hit  # a miss reports no normal
    if np.any(needs_tie):
        escape = _normal_along(direction, *(widest if widest is not None else (code, axis)))
        tie = np.where(initially_touching, escape, _normal_along(-direction, code, axis))
        normal = np.where(needs_tie, tie, normalize_or(separation, tie))
    else:
        normal = normalize_or(separation, 0)
    normal = normal + 0.0  # turns -0.0 into +0.0
    point = anchor + (at_time - separation) + target_radius * normal
    if ignore_separating:
        hit = hit & ~(initially_touching & (dot(direction, normal) >= 0))
    overlapping = hit & initially_touching & (distance < total_radius)
    nan = np.asarray(np.nan, dtype=normal.dtype)
    return Contact(t=np.where(hit, t, nan), point=np.where(hit, point, nan), normal=np.where(hit, normal, nan),
                   depth=np.where(overlapping, total_radius - distance, nan),
                   feature_code=np.where(hit, code, -1), feature_index=np.where(hit, index, -1))
