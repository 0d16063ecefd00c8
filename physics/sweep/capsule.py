"""Sweeps of a moving capsule (and, as a capsule of radius 0, a moving segment).

Reduced as the seed does: a capsule is its core segment inflated by its radius,
so a capsule against a target is a segment against the target inflated by the
summed radii.  First contact is the earliest of:

* the core's end points as balls against the target (the sphere kernels);
* the target's vertices as balls, moving the other way, against the core
  (the subject swapped: sweeping A along d is sweeping B along -d);
* the core's interior against a target edge's interior: for two non-parallel
  lines the distance along their common normal is linear in t, so contact is a
  slab entry, kept where both closest points fall inside their segments
  (parallel segments touch first at an end point, which the balls cover).

At t = 0 the exact segment-segment (or segment-plane) distance decides overlap,
with the minimum translation as the normal.  Feature of a capsule or segment
target: edge 0 = its side, vertex 0 / 1 = the end at ``a`` / ``b``.

Degenerate inputs (for every function here): zero direction — an overlap test;
zero radius — a moving segment; zero-length core — a sphere (its end balls
answer); parallel or collinear segments — the end balls answer; crossing
segments at t = 0 — depth = summed radius, normal along the common normal on
the side of the motion (any perpendicular if the segments are collinear).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from physics import tolerance
from physics.core import EDGE, FACE, VERTEX, within_rounding
from physics.result import SweepResult
from physics.shapes import Capsule, Plane, Polygon, Segment, Triangle, segment_vertices
from physics.sweep.ball import Contact, sweep_ball_core, sweep_ball_plane
from physics.sweep.batching import CHUNK_SIZE
from physics.sweep.rounded import slab_entry_times
from physics.sweep.sphere import is_scalar, sweep_query, to_result
from physics.vector import any_perpendicular, components, cross, cross_accurate, dot, normalize_or


def closest_parameters(start, along, other_start, other_along):
    """Parameters (s, w) in [0, 1] of the closest points of the segments
    ``start + s along`` and ``other_start + w other_along`` (component-first
    vectors).  Ericson, Real-Time Collision Detection 5.1.9, every branch
    computed and selected, degenerate (zero-length, parallel) cases included.

    The lines' closest point is s = (b f - c e) / (a e - b^2) in Ericson's
    notation; both are cancellations for nearly parallel segments (a e - b^2 is
    |along|^2 |other|^2 sin^2 of their angle, computed with an error of eps |along|^2
    |other|^2), so they are taken from Lagrange's identity instead:
    a e - b^2 = |n|^2 and b f - c e = n . (other_along x offset), with the common
    normal n = along x other_along computed accurately (``cross_accurate``).  The
    denominator is then zero only for exactly parallel segments (Ericson's
    parallel branch: any s, here 0, then w and s clamped in turn)."""
    offset = start - other_start
    a, e = dot(along, along), dot(other_along, other_along)
    b, c, f = dot(along, other_along), dot(along, offset), dot(other_along, offset)
    common = cross_accurate(along, other_along)
    length = np.sqrt(dot(common, common))
    safe_length = np.where(length > 0, length, 1)
    unit = common / safe_length  # zero for parallel segments, whose s is then 0
    s_at_w0 = np.where(a > 0, np.clip(-c / np.where(a > 0, a, 1), 0, 1), 0)
    s_at_w1 = np.where(a > 0, np.clip((b - c) / np.where(a > 0, a, 1), 0, 1), 0)
    s = np.clip(dot(unit, cross(other_along, offset)) / safe_length, 0, 1)
    s = np.where(a > 0, np.where(e > 0, s, s_at_w0), 0)  # a point-like other segment: project onto ours
    w = np.where(e > 0, (b * s + f) / np.where(e > 0, e, 1), 0)
    s = np.where(w < 0, s_at_w0, np.where(w > 1, s_at_w1, s))
    return s, np.clip(w, 0, 1)


class SegmentSeparation(NamedTuple):
    """Two segments at their closest points: ``vector`` from the other to this one,
    ``w`` the other's parameter, and whether the closest point of this one
    (``interior``) and of the other (``interior_other``) lies strictly inside its
    segment — judged by the signs of the offsets from the segments' ends, not by the
    rounded parameters.  Where either does, the vector is a projection's residue;
    elsewhere the difference of two end points, exact in direction however short."""

    vector: np.ndarray
    w: np.ndarray
    interior: np.ndarray
    interior_other: np.ndarray

    @property
    def projected(self) -> np.ndarray:
        return self.interior | self.interior_other


def segment_separation(start, end, other_start, other_end) -> SegmentSeparation:
    """The separation of two segments at their closest points (``SegmentSeparation``),
    end points taken exactly as given.

    Its length is the distance of the closest points.  Its direction, where both
    closest points are interior, is whichever of two estimates is known better: the
    closest points' difference (direction error ~ eps M / distance, M the largest
    |coordinate|: round-off where the segments nearly cross) or the common normal
    (~ eps / sin of the segments' angle: round-off where they are nearly parallel);
    the common normal is taken where distance |along| |other| < M |along x other|."""
    along, other_along = end - start, other_end - other_start
    s, w = closest_parameters(start, along, other_start, other_along)
    point = np.where(s == 1, end, start + s * along)  # an end point is exactly itself
    witness = np.where(w == 1, other_end, other_start + w * other_along)
    separation = point - witness
    # interior closest points: by the sign of the offsets from each segment's ends, not
    # by s and w, which round (a point inside by less than that rounding would be
    # given an end, and a difference pointing along the segment)
    on_this = (dot(witness - start, along) > 0) & (dot(witness - end, along) < 0)
    on_other = (dot(point - other_start, other_along) > 0) & (dot(point - other_end, other_along) < 0)
    # an interior closest point: the separation is square to that segment (rejection, not a difference)
    separation = np.where(on_other, _rejection(point - other_start, other_along),
                          np.where(on_this, _rejection(separation, along), separation))
    common = cross_accurate(along, other_along)
    distance = np.sqrt(dot(separation, separation))
    magnitude = functools.reduce(np.maximum, [np.max(np.abs(v), axis=0) for v in (start, end, other_start, other_end)])
    sizes = np.sqrt(dot(along, along)) * np.sqrt(dot(other_along, other_along))
    common_is_better = on_this & on_other & (distance * sizes < magnitude * np.sqrt(dot(common, common)))
    unit = normalize_or(common, 0)
    along_common = np.where(dot(separation, unit) >= 0, distance, -distance) * unit
    return SegmentSeparation(np.where(common_is_better, along_common, separation), w, on_this, on_other)


def _rejection(vectors_: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The part of ``vectors_`` perpendicular to ``axis`` (all of it for a zero axis),
    as ``axis x (v x axis) / |axis|^2``: square to the axis by construction, and
    exactly zero for a vector along an axis-aligned axis, where ``v - (v.a/a.a) a``
    leaves round-off pointing along the axis."""
    axis_squared = dot(axis, axis)
    across = cross(axis, cross(vectors_, axis)) / np.where(axis_squared > 0, axis_squared, 1)
    return np.where(axis_squared > 0, across, vectors_)


def _select(mask: np.ndarray, chosen: Contact, otherwise: Contact) -> Contact:
    """Per element, ``chosen`` where ``mask`` else ``otherwise`` (vector fields too)."""
    return Contact(*[np.where(mask[..., None] if np.ndim(first) > np.ndim(mask) else mask, first, second)
                     for first, second in zip(chosen, otherwise)])


def _earliest(shape: tuple, *contacts: Contact) -> Contact:
    """Per element of the batch ``shape``, the contact with the smallest t (NaN = none);
    ties keep the first."""
    contacts = [Contact(*[_broadcast(field, shape + np.shape(field)[len(np.shape(contact.t)):]) for field in contact])
                for contact in contacts]
    best = contacts[0]
    for contact in contacts[1:]:
        best = _select((contact.t < best.t) | (np.isnan(best.t) & ~np.isnan(contact.t)), contact, best)
    return best


def _in_one_pass(shape: tuple, count: int) -> bool:
    """Whether ``count`` candidates of a query of batch ``shape`` run in one kernel
    pass, stacked on a leading axis (a small query: numpy's per-call overhead
    dominates it), rather than a pass each (a large one: stacking would copy the
    target's features once per candidate).  The answers are the same either way,
    bit for bit: the kernels are elementwise."""
    return math.prod(shape) * count <= CHUNK_SIZE


def _lined_up(stacked: np.ndarray, shape: tuple) -> np.ndarray:
    """Vectors stacked on a leading axis, (k, ..., 3), with unit axes inserted after
    it so that the rest lines up with the batch ``shape``."""
    return stacked.reshape((len(stacked),) + (1,) * (len(shape) + 2 - stacked.ndim) + stacked.shape[1:])


def _ball_sweeps(centers: list, radius, direction, vertices, target_radius) -> list[Contact]:
    """``sweep_ball_core`` of each of several ball centers (..., 3) against the cores
    ``vertices`` (..., V, 3)."""
    return [sweep_ball_core(center, radius, direction, vertices, target_radius) for center in centers]


def _unstacked(contact: Contact) -> list[Contact]:
    """The contacts along a contact's leading axis."""
    return [Contact(*[field[k] for field in contact]) for k in range(len(contact.t))]


def _reversed(contact: Contact, target_vertex: np.ndarray, target_radius, vertex_index: int) -> Contact:
    """A target end point swept (as a ball) against the moving core, turned back into
    the caller's frame: the normal flips and the point is on the target's surface.
    ``vertex_index`` broadcasts against the batch."""
    normal = 0.0 - contact.normal
    point = target_vertex + np.asarray(target_radius)[..., None] * normal
    hit = ~np.isnan(contact.t)
    return Contact(contact.t, np.where(hit[..., None], point, np.nan), normal, contact.depth,
                   np.where(hit, VERTEX, -1), np.where(hit, vertex_index, -1))


def _broadcast(array, shape: tuple) -> np.ndarray:
    """``np.broadcast_to``, skipped (it is slow on small arrays) where ``array``
    already has ``shape``."""
    return array if np.shape(array) == shape else np.broadcast_to(array, shape)


def _components(shape: tuple, *vectors_):
    """Component-first copies of public (..., 3) arrays broadcast to one batch shape
    (so that their batch axes line up)."""
    return [components(_broadcast(v, shape + (3,))) for v in vectors_]


def _interiors(start, end, direction, other_start, other_end, total_radius, target_radius, shape,
               edge_index=0) -> Contact:
    """Core interior against the interior of target edge ``edge_index`` (which
    broadcasts against the batch ``shape``), for non-parallel segments."""
    a, b, d, c, e = _components(shape, start, end, direction, other_start, other_end)
    along, other_along = b - a, e - c
    # the common normal, accurate however nearly parallel the segments (closest_parameters)
    common = cross_accurate(along, other_along)
    length = np.sqrt(dot(common, common))
    safe_length = np.where(length > 0, length, 1)
    unit = common / safe_length
    time = slab_entry_times(dot(unit, a - c), dot(unit, d), total_radius)
    moved = a + np.where(time <= 1, time, 0) * d
    # the lines' closest points must be interior to both segments (else an end ball touches first):
    # s = n . (other_along x offset) / |n|^2, w = n . (along x offset) / |n|^2 (Lagrange's identity);
    # parallel segments (n = 0) have s = w = 0: their contacts are the end balls'
    offset = moved - c
    line_s = dot(unit, cross(other_along, offset)) / safe_length
    line_w = dot(unit, cross(along, offset)) / safe_length
    inside = (line_s > 0) & (line_s < 1) & (line_w > 0) & (line_w < 1) & (time <= 1)
    side = np.sign(dot(unit, a - c))  # the side the core comes from
    normal = np.where(side < 0, -unit, unit) + 0.0
    point = c + line_w * other_along + np.asarray(target_radius) * normal
    t = np.where(inside, time, np.nan)
    hit = ~np.isnan(t)
    return Contact(t, np.where(hit[..., None], _public(point), np.nan), np.where(hit[..., None], _public(normal), np.nan),
                   np.full(np.shape(t), np.nan, t.dtype), np.where(hit, EDGE, -1), np.where(hit, edge_index, -1))


def _edge_interiors(start, end, direction, vertices, total_radius, target_radius, shape) -> list[Contact]:
    """``_interiors`` of the core against each edge of polygons (..., V, 3), in one
    pass or one each (``_in_one_pass``)."""
    count = vertices.shape[-2]
    corners = np.moveaxis(vertices, -2, 0)
    following = corners[(np.arange(count) + 1) % count]
    if not _in_one_pass(shape, count):
        return [_interiors(start, end, direction, corners[i], following[i], total_radius, target_radius, shape, i)
                for i in range(count)]
    return _unstacked(_interiors(start, end, direction, _lined_up(corners, shape), _lined_up(following, shape),
                                 total_radius, target_radius, (count,) + shape, _leading_index(count, len(shape))))


def _public(components_: np.ndarray) -> np.ndarray:
    return np.moveaxis(components_, 0, -1)


def _exact_segment_at_start(start, end, direction, other_start, other_end, total_radius, target_radius,
                            ignore_separating, shape):
    """Touching or overlap at t = 0 from the exact segment-segment distance:
    (touching mask, Contact with the minimum translation)."""
    a, b, d, c, e = _components(shape, start, end, direction, other_start, other_end)
    along, other_along = b - a, e - c
    closest = segment_separation(a, b, c, e)
    separation, w, projected = closest.vector, closest.w, closest.projected
    # cores that meet to within the rounding of their coordinates, at a point interior
    # to one, have no defined separation direction (it would be the projection's
    # round-off): they take the escape rule below
    separation = np.where(projected & within_rounding(separation, a, b, c, e), 0.0, separation)
    distance = np.sqrt(dot(separation, separation))
    common = cross_accurate(along, other_along)
    unit_common = normalize_or(common, 0)
    across = np.where(dot(common, d) < 0, -unit_common, unit_common)
    # parallel or point-like cores: leave across the longer axis (always separates by the full radius)
    axis = np.where(dot(along, along) >= dot(other_along, other_along), along, other_along)
    tie = np.where(dot(common, common) > 0, across, _across(d, axis))
    normal = normalize_or(separation, tie) + 0.0
    touching = distance <= total_radius
    hit = touching & ~(ignore_separating & (dot(d, normal) >= 0))
    point = np.where(w == 1, e, c + w * other_along) + np.asarray(target_radius) * normal
    depth = np.where(hit & (distance < total_radius), total_radius - distance, np.nan)
    code = np.where(closest.interior_other, EDGE, VERTEX)
    index = np.where(closest.interior_other, 0, np.where(w >= 1, 1, 0))
    return touching, Contact(_zero_or_nan(hit, distance.dtype), np.where(hit[..., None], _public(point), np.nan),
                             np.where(hit[..., None], _public(normal), np.nan), depth, np.where(hit, code, -1),
                             np.where(hit, index, -1))


def _segment_at_start(start, end, direction, other_start, other_end, total_radius, target_radius, ignore_separating,
                      shape):
    """(touching mask, Contact) at t = 0 of two capsule cores, batch ``shape``: the
    exact test (``_exact_segment_at_start``) on the lanes the box cull
    (``_start_cull``) keeps."""
    def exact(values, lane_shape):
        return _exact_segment_at_start(*values, ignore_separating, lane_shape)

    near = _start_cull(start, end, segment_vertices(other_start, other_end), total_radius, shape)
    return _on_near_lanes(exact, near, ((start, 1), (end, 1), (direction, 1), (other_start, 1), (other_end, 1),
                                        (total_radius, 0), (target_radius, 0)), shape)


def sweep_core_segment(start, end, radius, direction, other_start, other_end, target_radius,
                       ignore_separating: bool = False) -> Contact:
    """A moving capsule core (``start``-``end``, ``radius``) against a still capsule
    core (``other_start``-``other_end``, ``target_radius``), batched."""
    radius, target_radius = np.asarray(radius), np.asarray(target_radius)
    total_radius = radius + target_radius
    shape = np.broadcast_shapes(np.shape(start)[:-1], np.shape(end)[:-1], np.shape(direction)[:-1],
                                np.shape(other_start)[:-1], np.shape(other_end)[:-1], total_radius.shape)
    target_core = segment_vertices(other_start, other_end)
    moving_core = segment_vertices(start, end)
    candidates = _ball_sweeps([start, end], radius, direction, target_core, target_radius)
    target_ends = (other_start, other_end)
    candidates += [_reversed(contact, vertex, target_radius, index) for index, (vertex, contact) in enumerate(zip(
        target_ends, _ball_sweeps(target_ends, target_radius, -direction, moving_core, radius)))]
    candidates.append(_interiors(start, end, direction, other_start, other_end, total_radius, target_radius, shape))
    touching, initial = _segment_at_start(start, end, direction, other_start, other_end, total_radius, target_radius,
                                          ignore_separating, shape)
    return _select(np.broadcast_to(touching, shape), initial, _earliest(shape, *candidates))


def capsule_core(moving):
    """(start, end, radius) of a moving Capsule or Segment."""
    if isinstance(moving, Segment):
        return moving.a, moving.b, np.zeros((), moving.a.dtype)
    return moving.a, moving.b, moving.radius


@sweep_query
def sweep_capsule_capsule(capsule: Capsule, target: Capsule, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against capsule: core segment against core segment inflated by both
    radii.  Features of the target: edge 0 (side), vertex 0 / 1 (end caps)."""
    start, end, radius = capsule_core(capsule)
    contact = sweep_core_segment(start, end, radius, direction, target.a, target.b, target.radius,
                                 ignore_separating)
    return to_result(contact, scalar=is_scalar(capsule, target, direction=direction))


@sweep_query
def sweep_capsule_segment(capsule: Capsule, segment: Segment, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a segment (a capsule of radius 0).  Features: edge 0, vertex 0 / 1."""
    start, end, radius = capsule_core(capsule)
    contact = sweep_core_segment(start, end, radius, direction, segment.a, segment.b,
                                 np.zeros((), segment.a.dtype), ignore_separating)
    return to_result(contact, scalar=is_scalar(capsule, segment, direction=direction))


@sweep_query
def sweep_capsule_plane(capsule: Capsule, plane: Plane, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a two-sided plane: its end balls against the slab; at t = 0 a
    core crossing the plane overlaps by the shorter way out.  Feature: face 0.

    With heights h_a, h_b of the ends above the plane, clearing it upwards takes
    ``r - min(h)``, downwards ``r + max(h)``: the depth is the smaller, the
    normal that side's (upwards on a tie)."""
    start, end, radius = capsule_core(capsule)
    ends = [sweep_ball_plane(point, radius, direction, plane.normal, plane.offset) for point in (start, end)]
    swept = _earliest(np.shape(ends[0].t), *ends)
    height_a = np.einsum("...k,...k->...", start, plane.normal) - plane.offset
    height_b = np.einsum("...k,...k->...", end, plane.normal) - plane.offset
    up, down = radius - np.minimum(height_a, height_b), radius + np.maximum(height_a, height_b)
    depth = np.minimum(up, down)
    normal = np.where((up <= down)[..., None], plane.normal, -plane.normal) + 0.0
    lowest = np.where((up <= down)[..., None] == (height_a <= height_b)[..., None], start, end)
    touching = depth >= 0
    hit = touching & ~(ignore_separating & (np.einsum("...k,...k->...", direction, normal) >= 0))
    foot = lowest - (np.einsum("...k,...k->...", lowest, plane.normal) - plane.offset)[..., None] * plane.normal
    initial = Contact(_zero_or_nan(hit, depth.dtype), np.where(hit[..., None], foot, np.nan),
                      np.where(hit[..., None], normal, np.nan), np.where(hit & (depth > 0), depth, np.nan),
                      np.where(hit, FACE, -1), np.where(hit, 0, -1))
    return to_result(_select(touching, initial, swept), scalar=is_scalar(capsule, plane, direction=direction))


def _across(direction: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The unit direction across ``axis`` nearest the motion (any perpendicular if the
    motion is along it; the motion itself, then +z, if the axis is zero)."""
    up = np.zeros_like(direction)
    up[2] = 1
    return normalize_or(_rejection(direction, axis), np.where(dot(axis, axis) > 0, any_perpendicular(axis), up))


def _leading_index(count: int, batch_dimensions: int) -> np.ndarray:
    """0 .. count - 1 along a leading axis, broadcasting against ``batch_dimensions`` more."""
    return np.arange(count).reshape((count,) + (1,) * batch_dimensions)


def _first_smallest(values: np.ndarray, *fields: np.ndarray):
    """Per element, the first smallest of ``values`` (K, ...) along their leading
    axis and each field at it: what keeping a running best with ``value < best``
    from ``+inf`` gives (NaN never wins, ties keep the earlier).  Fields are (K, ...)
    or component-first (3, K, ...), with axes of length 1 where they broadcast.
    Returns the smallest value (+inf where none is finite or below it) and the
    fields, 0 where no value won."""
    values = np.where(np.isnan(values), np.inf, values)
    first = np.argmin(values, axis=0)[None]
    smallest = np.take_along_axis(values, first, axis=0)[0]
    chosen = [np.take_along_axis(field, first[None], axis=1)[:, 0] if field.ndim > values.ndim
              else np.take_along_axis(field, first, axis=0)[0] for field in fields]
    return smallest, [np.where(smallest < np.inf, field, 0) for field in chosen]


def _start_cull(start, end, vertices, radius, shape: tuple) -> np.ndarray:
    """Per lane of batch ``shape``, whether a capsule core (``start``-``end``) may touch
    a target with corners ``vertices`` (..., V, 3) at t = 0: whether the core's box,
    grown by ``radius`` plus ``tolerance.START_CULL_ULPS`` of the lane's scale, meets
    the target's box.  A lane where it does not cannot touch."""
    core_low, core_high = np.minimum(start, end), np.maximum(start, end)
    target_low, target_high = np.min(vertices, axis=-2), np.max(vertices, axis=-2)
    dtype = np.result_type(core_low, target_low, radius)
    scale = np.maximum(np.max(np.maximum(np.abs(core_low), np.abs(core_high)), axis=-1),
                       np.max(np.maximum(np.abs(target_low), np.abs(target_high)), axis=-1)) + radius
    reach = (radius + tolerance.START_CULL_ULPS * np.finfo(dtype).eps * scale)[..., None]
    return np.broadcast_to(~np.any((target_low > core_high + reach) | (target_high < core_low - reach), axis=-1),
                           shape)


def _on_near_lanes(exact, near: np.ndarray, arguments: tuple, shape: tuple):
    """(touching mask, Contact) of batch ``shape`` from ``exact(values, lane_shape)``
    run on the ``near`` lanes only (all of them: as given); the other lanes are "not
    touching".  ``arguments``: (value, its trailing element dimensions) pairs, each
    broadcast to the batch and picked lane by lane."""
    values = [value for value, _ in arguments]
    if np.all(near):
        return exact(values, shape)
    touching, contact = np.zeros(shape, bool), _misses(shape, np.result_type(*values))
    if np.any(near):
        lanes = [np.broadcast_to(value, shape + np.shape(value)[np.ndim(value) - trailing:])[near]
                 for value, trailing in arguments]
        touching[near], contact_near = exact(lanes, lanes[0].shape[:1])
        for field, part in zip(contact, contact_near):
            field[near] = part
    return touching, contact


def _polygon_at_start(start, end, direction, vertices, radius, ignore_separating, shape):
    """(touching mask, Contact) at t = 0 of capsule cores and polygons, batch
    ``shape``: the exact test (``_exact_polygon_at_start``) on the lanes the box cull
    (``_start_cull``) keeps."""
    def exact(values, lane_shape):
        return _exact_polygon_at_start(*values, ignore_separating, lane_shape)

    return _on_near_lanes(exact, _start_cull(start, end, vertices, radius, shape),
                          ((start, 1), (end, 1), (direction, 1), (vertices, 2), (radius, 0)), shape)


def _misses(shape: tuple, dtype) -> Contact:
    """A writable no-contact answer (NaN, -1) in ``dtype`` for every element of ``shape``."""
    return Contact(np.full(shape, np.nan, dtype), np.full(shape + (3,), np.nan, dtype),
                   np.full(shape + (3,), np.nan, dtype), np.full(shape, np.nan, dtype), np.full(shape, -1),
                   np.full(shape, -1))


def _zero_or_nan(hit: np.ndarray, dtype) -> np.ndarray:
    """The t of an answer at t = 0: 0 where ``hit``, else NaN, in ``dtype``."""
    return np.where(hit, np.zeros((), dtype), np.full((), np.nan, dtype))


def _exact_polygon_at_start(start, end, direction, vertices, radius, ignore_separating, shape):
    """Touching or overlap at t = 0 of a capsule core and polygons: the exact
    segment-polygon distance (edges by segment-segment closest points, end points
    over the face), and for a core piercing the face the separating-axis depth
    over the face normal and the core-edge cross products.  Every edge, end point
    and axis is one slice of a stacked pass (component-first (3, V, ...) arrays)."""
    a, b, d = _components(shape, start, end, direction)
    count = vertices.shape[-2]
    corners = components(np.broadcast_to(_lined_up(np.moveaxis(vertices, -2, 0), shape), (count,) + shape + (3,)))
    following = np.roll(corners, -1, axis=1)
    edges = following - corners
    along = b - a
    own_index = _leading_index(count, len(shape))

    fan = cross(corners - corners[:, :1], following - corners[:, :1])  # (3, V, ...)
    normal = normalize_or(sum(np.moveaxis(fan, 1, 0), np.zeros((3,) + shape, fan.dtype)), 0)  # summed in edge order
    inward = cross(normal[:, None], edges)
    has_face = np.any(normal != 0, axis=0)

    def over_face(points):
        """(K, ...): whether points (3, K, ...) project onto the face."""
        return np.all(dot(inward[:, None], points[:, :, None] - corners[:, None]) >= 0, axis=1) & has_face

    def nearest(a, b):
        """(distance, separation, witness on the polygon, its feature code and index)
        of the nearest features of the core a-b and the polygon: each edge by
        segment-segment distance, each core end over the face."""
        closest = segment_separation(a[:, None], b[:, None], corners, following)
        separation, w, projected = closest.vector, closest.w, closest.projected
        separation = np.where(projected & within_rounding(separation, a[:, None], b[:, None], corners, following),
                              0.0, separation)
        edge_witness = np.where(w == 1, following, corners + w * edges)
        edge_code = np.where(closest.interior_other, EDGE, VERTEX)
        edge_index = np.where((w >= 1) & ~closest.interior_other, (own_index + 1) % count, own_index)
        ends = np.stack([a, b], axis=1)
        heights = dot(normal[:, None], ends - corners[:, :1])
        feet = ends - heights * normal[:, None]
        distance, fields = _first_smallest(
            np.concatenate([np.sqrt(dot(separation, separation)), np.where(over_face(feet), np.abs(heights), np.inf)]),
            np.concatenate([separation, heights * normal[:, None]], axis=1),
            np.concatenate([edge_witness, feet], axis=1), np.concatenate([edge_code, np.full((2,) + shape, FACE)]),
            np.concatenate([edge_index, np.zeros((2,) + shape, int)]))
        return (distance, *fields)

    best_distance, best_separation, best_witness, best_code, best_index = nearest(a, b)
    heights = dot(normal[:, None], np.stack([a, b], axis=1) - corners[:, :1])
    crossing_at = np.where(heights[0] != heights[1], heights[0] / np.where(heights[0] != heights[1],
                                                                           heights[0] - heights[1], 1), 0)
    pierce = a + crossing_at * along
    pierces = (heights[0] * heights[1] <= 0) & over_face(pierce[:, None])[0] & has_face

    # separating axes of a piercing core: the face normal and core x edge directions
    axes = np.concatenate([normal[:, None], normalize_or(cross_accurate(along[:, None], edges), 0)], axis=1)
    core = [dot(axes, a[:, None]), dot(axes, b[:, None])]
    polygon = dot(axes[:, :, None], corners[:, None])
    up = np.max(polygon, axis=1) - np.minimum(*core)
    down = np.maximum(*core) - np.min(polygon, axis=1)
    prefer_up = (up < down) | ((up == down) & (dot(axes, d[:, None]) >= 0))
    escape_depth, (escape_axis,) = _first_smallest(
        np.where(np.any(axes != 0, axis=0), np.where(prefer_up, up, down), np.inf), np.where(prefer_up, axes, -axes))

    touching = pierces | (best_distance <= radius)
    # no separating axis (point-like polygon or core): leave across the core, else across the longest edge
    edge_squared = dot(edges, edges)
    longest = np.take_along_axis(edges, np.argmax(edge_squared, axis=0)[None, None], axis=1)[:, 0]
    fallback = _across(d, np.where(dot(along, along) > 0, along, longest))
    escape = normalize_or(escape_axis, fallback)
    closest_normal = normalize_or(best_separation, escape)
    normal_out = np.where(pierces, escape, closest_normal) + 0.0
    depth = np.where(pierces, radius + escape_depth, radius - best_distance)
    # a piercing core, moved out along the escape axis, touches the polygon where the
    # capsule moved by depth x normal does: the contact point and feature are there
    moved_out = np.where(np.isfinite(escape_depth), escape_depth, 0) * escape
    _, _, out_witness, out_code, out_index = nearest(a + moved_out, b + moved_out)
    witness = np.where(pierces, out_witness, best_witness)
    code = np.where(pierces, out_code, best_code)
    index = np.where(pierces, out_index, best_index)
    hit = touching & ~(ignore_separating & (dot(d, normal_out) >= 0))
    return touching, Contact(_zero_or_nan(hit, depth.dtype), np.where(hit[..., None], _public(witness), np.nan),
                             np.where(hit[..., None], _public(normal_out), np.nan),
                             np.where(hit & (depth > 0), depth, np.nan), np.where(hit, code, -1),
                             np.where(hit, index, -1))


def sweep_core_polygon(start, end, radius, direction, polygon_vertices,
                       ignore_separating: bool = False) -> Contact:
    """A moving capsule core against convex polygons (..., V, 3), batched.

    Candidates: the core's end balls against the polygon; the polygon's vertices
    as balls, moving the other way, against the core; the core's interior against
    each edge's interior.  A core parallel to the face meets it no earlier than
    its end balls (when it lies over the face) or an edge (when it crosses one),
    so the face needs no test of its own.
    """
    radius = np.asarray(radius)
    shape = np.broadcast_shapes(np.shape(start)[:-1], np.shape(end)[:-1], np.shape(direction)[:-1],
                                polygon_vertices.shape[:-2], radius.shape)
    zero = np.zeros((), radius.dtype)
    moving_core = segment_vertices(start, end)
    candidates = _ball_sweeps([start, end], radius, direction, polygon_vertices, zero)
    count = polygon_vertices.shape[-2]
    corners = [polygon_vertices[..., i, :] for i in range(count)]  # vertex i starts edge i
    vertex_balls = [_reversed(contact, corner, zero, index) for index, (corner, contact) in enumerate(zip(
        corners, _ball_sweeps(corners, zero, -direction, moving_core, radius)))]
    edge_interiors = _edge_interiors(start, end, direction, polygon_vertices, radius, zero, shape)
    for vertex_ball, edge_interior in zip(vertex_balls, edge_interiors):  # the order ties are broken in
        candidates += [vertex_ball, edge_interior]
    touching, initial = _polygon_at_start(start, end, direction, polygon_vertices, radius, ignore_separating, shape)
    return _select(touching, initial, _earliest(shape, *candidates))


@sweep_query
def sweep_capsule_triangle(capsule: Capsule, triangle: Triangle, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a two-sided triangle.  Features: face 0, edge i, vertex i of
    the triangle.  Degenerate inputs: as the module says; a zero-area triangle is
    its edges."""
    return _sweep_polygon(capsule, triangle, direction, ignore_separating, face_index=None)


@sweep_query
def sweep_capsule_polygon(capsule: Capsule, polygon: Polygon, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a two-sided convex polygon; ``face_index`` 0 on every hit."""
    return _sweep_polygon(capsule, polygon, direction, ignore_separating, face_index=0)


def _sweep_polygon(capsule, polygon, direction, ignore_separating, face_index) -> SweepResult:
    start, end, radius = capsule_core(capsule)
    contact = sweep_core_polygon(start, end, radius, direction, polygon.vertices, ignore_separating)
    return to_result(contact, scalar=is_scalar(capsule, polygon, direction=direction), face_index=face_index)
