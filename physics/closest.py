"""Closest points of two segments, for one lane of a compiled kernel (3-vector tuples).

Ericson, Real-Time Collision Detection 5.1.9, robust where the segments are
parallel or nearly so: the lines' closest point ``s = (b f - c e) / (a e - b^2)``
(Ericson's notation) cancels for nearly parallel segments in both numerator and
denominator, so both are taken from Lagrange's identity with the common normal
``n = along x other_along`` computed accurately (``geometry.cross_accurate``):
``a e - b^2 = |n|^2`` and ``b f - c e = n . (other_along x offset)``.  The
denominator is then zero only for exactly parallel segments, where Ericson's
parallel branch takes any s (here 0), then clamps w and s in turn.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from sweeplab.physics.kernels import kernel
from sweeplab.physics.geometry import (add, cross, cross_accurate, dot, largest_magnitude_of_segments, like,
                                       normalize_or, scale, sqrt, sub)
from sweeplab.physics.lanes import lane_loop


@kernel
def clip01(x):
    """``numpy.clip(x, 0, 1)``: NaN stays NaN, -0.0 stays -0.0."""
    if x < 0:
        return like(x, 0.0)
    if x > 1:
        return like(x, 1.0)
    return x


@kernel
def closest_parameters(start, along, other_start, other_along):
    """Parameters (s, w) in [0, 1] of the closest points of the segments
    ``start + s along`` and ``other_start + w other_along``; zero-length and parallel
    segments included (module docstring)."""
    offset = sub(start, other_start)
    a, e = dot(along, along), dot(other_along, other_along)
    b, c, f = dot(along, other_along), dot(along, offset), dot(other_along, offset)
    common = cross_accurate(along, other_along)
    length = sqrt(dot(common, common))
    safe_length = length if length > 0 else like(length, 1.0)
    unit = (common[0] / safe_length, common[1] / safe_length, common[2] / safe_length)  # zero if parallel: s = 0
    s_at_w0 = clip01(-c / a) if a > 0 else like(a, 0.0)
    s_at_w1 = clip01((b - c) / a) if a > 0 else like(a, 0.0)
    s = clip01(dot(unit, cross(other_along, offset)) / safe_length)
    if not a > 0:
        s = like(a, 0.0)
    elif not e > 0:
        s = s_at_w0  # a point-like other segment: project onto ours
    w = (b * s + f) / e if e > 0 else like(e, 0.0)
    if w < 0:
        s = s_at_w0
    elif w > 1:
        s = s_at_w1
    return s, clip01(w)


@kernel
def lines_meet_within(along, other_along, offset, common):
    """Whether the lines ``start + s along`` and ``other_start + w other_along``
    (``offset = start - other_start``, ``common = along x other_along``) are nearest at
    parameters s, w both in [0, 1], so that the segments' closest points are the
    lines' own.  By Lagrange's identity, as in ``closest_parameters``,
    ``s |common|^2 = common . (other_along x offset)`` and
    ``w |common|^2 = common . (along x offset)``: compared without a division.  False
    for parallel lines (``common`` zero), which are nearest everywhere."""
    common_squared = dot(common, common)
    s_scaled, w_scaled = dot(common, cross(other_along, offset)), dot(common, cross(along, offset))
    return common_squared > 0 and 0 <= s_scaled <= common_squared and 0 <= w_scaled <= common_squared


@kernel
def rejection(vector, axis):
    """The part of ``vector`` square to ``axis`` (all of it for a zero axis), as
    ``axis x (v x axis) / |axis|^2``: square to the axis by construction, and exactly
    zero for a vector along an axis-aligned axis, where ``v - (v.a / a.a) a`` leaves
    round-off along it."""
    axis_squared = dot(axis, axis)
    if not axis_squared > 0:
        return vector
    across = cross(axis, cross(vector, axis))
    return (across[0] / axis_squared, across[1] / axis_squared, across[2] / axis_squared)


@kernel
def segment_separation(start, end, other_start, other_end):
    """Two segments at their closest points: (separation vector from the other to
    this one, the other's parameter w, whether this one's closest point is interior,
    whether the other's is).

    Interior is judged by the signs of the offsets from each segment's ends, not by
    the rounded parameters (a point inside by less than their rounding would be given
    an end, and a difference pointing along the segment).  Where a closest point is
    interior the vector is a projection's residue, square to that segment (a
    ``rejection``); elsewhere the difference of two end points, exact in direction
    however short.  Its length is the closest points' distance; its direction, where
    both are interior, is whichever estimate is known better: the closest points'
    difference (error ~ eps M / distance, M the largest |coordinate|) or the common
    normal (~ eps / sin of the segments' angle).  The common normal is the closest
    points' direction only where they are the lines' own closest points
    (``lines_meet_within``): segments that are parallel up to rounding meet nearest at
    an end point (their lines at s = -1685, say) even where the sign test calls that
    end interior by a rounding-sized offset, and their common normal is then any
    direction square to them."""
    along, other_along = sub(end, start), sub(other_end, other_start)
    s, w = closest_parameters(start, along, other_start, other_along)
    point = end if s == 1 else add(start, scale(s, along))  # an end point is exactly itself
    witness = other_end if w == 1 else add(other_start, scale(w, other_along))
    separation = sub(point, witness)
    interior = dot(sub(witness, start), along) > 0 and dot(sub(witness, end), along) < 0
    interior_other = dot(sub(point, other_start), other_along) > 0 and dot(sub(point, other_end), other_along) < 0
    if interior_other:
        separation = rejection(sub(point, other_start), other_along)
    elif interior:
        separation = rejection(separation, along)
    common = cross_accurate(along, other_along)
    distance = sqrt(dot(separation, separation))
    magnitude = largest_magnitude_of_segments(start, end, other_start, other_end)
    sizes = sqrt(dot(along, along)) * sqrt(dot(other_along, other_along))
    if interior and interior_other and lines_meet_within(along, other_along, sub(start, other_start), common) \
            and distance * sizes < magnitude * sqrt(dot(common, common)):
        zero = like(distance, 0.0)
        unit = normalize_or(common, (zero, zero, zero))
        separation = scale(distance if dot(separation, unit) >= 0 else -distance, unit)
    return separation, w, interior, interior_other


@lane_loop
def _closest_parameters_lanes(starts, alongs, other_starts, other_alongs, s, w):
    for i in prange(len(s)):
        s[i], w[i] = closest_parameters((starts[i, 0], starts[i, 1], starts[i, 2]),
                                        (alongs[i, 0], alongs[i, 1], alongs[i, 2]),
                                        (other_starts[i, 0], other_starts[i, 1], other_starts[i, 2]),
                                        (other_alongs[i, 0], other_alongs[i, 1], other_alongs[i, 2]))


def closest_parameters_batch(start, along, other_start, other_along):
    """``closest_parameters`` of segments given as (..., 3) arrays, batch dimensions
    broadcast: (s, w) arrays of the broadcast batch shape."""
    arrays = np.broadcast_arrays(*[np.asarray(v, np.result_type(start, along, other_start, other_along, np.float16))
                                   for v in (start, along, other_start, other_along)])
    shape = arrays[0].shape[:-1]
    flat = [np.ascontiguousarray(array.reshape(-1, 3)) for array in arrays]
    s, w = np.empty(len(flat[0]), flat[0].dtype), np.empty(len(flat[0]), flat[0].dtype)
    _closest_parameters_lanes(len(s), *flat, s, w)
    return s.reshape(shape), w.reshape(shape)
