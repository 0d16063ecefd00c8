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

import numpy as np

from physics.core import EDGE, FACE, VERTEX, core_features
from physics.result import SweepResult
from physics.shapes import Capsule, Plane, Segment
from physics.sweep.ball import Contact, sweep_ball_core, sweep_ball_plane
from physics.sweep.rounded import slab_entry_time
from physics.sweep.sphere import sweep_query, to_result
from physics.vector import any_perpendicular, components, cross, dot, normalize_or


def _segment_vertices(a, b) -> np.ndarray:
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    return np.stack([np.broadcast_to(a, shape), np.broadcast_to(b, shape)], axis=-2)


def closest_parameters(start, along, other_start, other_along):
    """Parameters (s, w) in [0, 1] of the closest points of the segments
    ``start + s along`` and ``other_start + w other_along`` (component-first
    vectors).  Ericson, Real-Time Collision Detection 5.1.9, every branch
    computed and selected, degenerate (zero-length, parallel) cases included."""
    offset = start - other_start
    a, e = dot(along, along), dot(other_along, other_along)
    b, c, f = dot(along, other_along), dot(along, offset), dot(other_along, offset)
    denominator = a * e - b * b
    s = np.where(denominator > 0, np.clip((b * f - c * e) / np.where(denominator > 0, denominator, 1), 0, 1), 0)
    s = np.where(a > 0, s, 0)
    w = np.where(e > 0, (b * s + f) / np.where(e > 0, e, 1), 0)
    s_at_w0 = np.where(a > 0, np.clip(-c / np.where(a > 0, a, 1), 0, 1), 0)
    s_at_w1 = np.where(a > 0, np.clip((b - c) / np.where(a > 0, a, 1), 0, 1), 0)
    s = np.where(w < 0, s_at_w0, np.where(w > 1, s_at_w1, s))
    return s, np.clip(w, 0, 1)


def _earliest(*contacts: Contact) -> Contact:
    """Per element, the contact with the smallest t (NaN = none); ties keep the first."""
    best = contacts[0]
    for contact in contacts[1:]:
        better = (contact.t < best.t) | (np.isnan(best.t) & ~np.isnan(contact.t))
        best = Contact(*[np.where(better[..., None] if np.ndim(new) > np.ndim(better) else better, new, old)
                         for new, old in zip(contact, best)])
    return best


def _reversed(contact: Contact, target_vertex: np.ndarray, target_radius, vertex_index: int) -> Contact:
    """A target end point swept (as a ball) against the moving core, turned back into
    the caller's frame: the normal flips and the point is on the target's surface."""
    normal = 0.0 - contact.normal
    point = target_vertex + np.asarray(target_radius)[..., None] * normal
    hit = ~np.isnan(contact.t)
    return Contact(contact.t, np.where(hit[..., None], point, np.nan), normal, contact.depth,
                   np.where(hit, VERTEX, -1), np.where(hit, vertex_index, -1))


def _components(shape: tuple, *vectors_):
    """Component-first copies of public (..., 3) arrays broadcast to one batch shape
    (so that their batch axes line up)."""
    return [components(np.broadcast_to(v, shape + (3,))) for v in vectors_]


def _interiors(start, end, direction, other_start, other_end, total_radius, target_radius, shape) -> Contact:
    """Core interior against target edge interior, for non-parallel segments."""
    a, b, d, c, e = _components(shape, start, end, direction, other_start, other_end)
    along, other_along = b - a, e - c
    common = cross(along, other_along)
    length = np.sqrt(dot(common, common))
    unit = np.where(length > 0, common / np.where(length > 0, length, 1), 0)
    time = slab_entry_time(dot(unit, a - c), dot(unit, d), total_radius)
    time = np.where(length > 0, time, np.inf)
    moved = a + np.where(time <= 1, time, 0) * d
    # the lines' closest points must be interior to both segments (else an end ball touches first)
    offset = moved - c
    aa, ee, ab = dot(along, along), dot(other_along, other_along), dot(along, other_along)
    denominator = np.where(length > 0, aa * ee - ab * ab, 1)
    line_s = (ab * dot(other_along, offset) - dot(along, offset) * ee) / denominator
    line_w = (aa * dot(other_along, offset) - ab * dot(along, offset)) / denominator
    inside = (line_s > 0) & (line_s < 1) & (line_w > 0) & (line_w < 1) & (time <= 1)
    side = np.sign(dot(unit, a - c))  # the side the core comes from
    normal = np.where(side < 0, -unit, unit) + 0.0
    point = c + line_w * other_along + np.asarray(target_radius) * normal
    t = np.where(inside, time, np.nan)
    hit = ~np.isnan(t)
    return Contact(t, np.where(hit[..., None], _public(point), np.nan), np.where(hit[..., None], _public(normal), np.nan),
                   np.full(np.shape(t), np.nan), np.where(hit, EDGE, -1), np.where(hit, 0, -1))


def _public(components_: np.ndarray) -> np.ndarray:
    return np.moveaxis(components_, 0, -1)


def _at_start(start, end, direction, other_start, other_end, total_radius, target_radius, ignore_separating,
              shape):
    """Touching or overlap at t = 0 from the exact segment-segment distance:
    (touching mask, Contact with the minimum translation)."""
    a, b, d, c, e = _components(shape, start, end, direction, other_start, other_end)
    along, other_along = b - a, e - c
    s, w = closest_parameters(a, along, c, other_along)
    separation = (a + s * along) - (c + w * other_along)
    distance = np.sqrt(dot(separation, separation))
    common = cross(along, other_along)
    across = normalize_or(common, 0) * np.where(dot(common, d) < 0, -1.0, 1.0)
    off_axis = d - np.where(dot(other_along, other_along) > 0, dot(d, other_along) / np.where(
        dot(other_along, other_along) > 0, dot(other_along, other_along), 1), 0) * other_along
    tie = np.where(dot(common, common) > 0, across, normalize_or(off_axis, any_perpendicular(other_along)))
    normal = normalize_or(separation, tie) + 0.0
    touching = distance <= total_radius
    hit = touching & ~(ignore_separating & (dot(d, normal) >= 0))
    point = c + w * other_along + np.asarray(target_radius) * normal
    depth = np.where(hit & (distance < total_radius), total_radius - distance, np.nan)
    code = np.where(w <= 0, VERTEX, np.where(w >= 1, VERTEX, EDGE))
    index = np.where(w >= 1, 1, 0)
    return touching, Contact(np.where(hit, 0.0, np.nan), np.where(hit[..., None], _public(point), np.nan),
                             np.where(hit[..., None], _public(normal), np.nan), depth, np.where(hit, code, -1),
                             np.where(hit, index, -1))


def sweep_core_segment(start, end, radius, direction, other_start, other_end, target_radius,
                       ignore_separating: bool = False) -> Contact:
    """A moving capsule core (``start``-``end``, ``radius``) against a still capsule
    core (``other_start``-``other_end``, ``target_radius``), batched."""
    radius, target_radius = np.asarray(radius), np.asarray(target_radius)
    total_radius = radius + target_radius
    shape = np.broadcast_shapes(np.shape(start)[:-1], np.shape(end)[:-1], np.shape(direction)[:-1],
                                np.shape(other_start)[:-1], np.shape(other_end)[:-1], total_radius.shape)
    target_core = _segment_vertices(other_start, other_end)
    moving_core = _segment_vertices(start, end)
    target_features, moving_features = core_features(target_core), core_features(moving_core)
    candidates = [sweep_ball_core(point, radius, direction, target_features, target_core.shape[:-2], target_radius)
                  for point in (start, end)]
    candidates += [_reversed(sweep_ball_core(vertex, target_radius, -direction, moving_features,
                                             moving_core.shape[:-2], radius), vertex, target_radius, index)
                   for index, vertex in enumerate((other_start, other_end))]
    candidates.append(_interiors(start, end, direction, other_start, other_end, total_radius, target_radius, shape))
    swept = _earliest(*[Contact(*[np.broadcast_to(field, shape + np.shape(field)[len(np.shape(contact.t)):])
                                  for field in contact]) for contact in candidates])
    touching, initial = _at_start(start, end, direction, other_start, other_end, total_radius, target_radius,
                                  ignore_separating, shape)
    touching = np.broadcast_to(touching, shape)
    return Contact(*[np.where(touching[..., None] if np.ndim(first) > len(shape) else touching, first, later)
                     for first, later in zip(initial, swept)])


def _moving_core(moving):
    """(start, end, radius) of a moving Capsule or Segment."""
    if isinstance(moving, Segment):
        return moving.a, moving.b, np.zeros((), moving.a.dtype)
    return moving.a, moving.b, moving.radius


def _is_scalar(*shapes, direction) -> bool:
    return all(shape.batch_shape == () for shape in shapes) and direction.ndim == 1


@sweep_query
def sweep_capsule_capsule(capsule: Capsule, target: Capsule, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against capsule: core segment against core segment inflated by both
    radii.  Features of the target: edge 0 (side), vertex 0 / 1 (end caps)."""
    start, end, radius = _moving_core(capsule)
    contact = sweep_core_segment(start, end, radius, direction, target.a, target.b, target.radius,
                                 ignore_separating)
    return to_result(contact, scalar=_is_scalar(capsule, target, direction=direction))


@sweep_query
def sweep_capsule_segment(capsule: Capsule, segment: Segment, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a segment (a capsule of radius 0).  Features: edge 0, vertex 0 / 1."""
    start, end, radius = _moving_core(capsule)
    contact = sweep_core_segment(start, end, radius, direction, segment.a, segment.b,
                                 np.zeros((), segment.a.dtype), ignore_separating)
    return to_result(contact, scalar=_is_scalar(capsule, segment, direction=direction))


@sweep_query
def sweep_capsule_plane(capsule: Capsule, plane: Plane, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a two-sided plane: its end balls against the slab; at t = 0 a
    core crossing the plane overlaps by the shorter way out.  Feature: face 0.

    With heights h_a, h_b of the ends above the plane, clearing it upwards takes
    ``r - min(h)``, downwards ``r + max(h)``: the depth is the smaller, the
    normal that side's (upwards on a tie)."""
    start, end, radius = _moving_core(capsule)
    ends = [sweep_ball_plane(point, radius, direction, plane.normal, plane.offset) for point in (start, end)]
    swept = _earliest(*ends)
    height_a = np.einsum("...k,...k->...", start, plane.normal) - plane.offset
    height_b = np.einsum("...k,...k->...", end, plane.normal) - plane.offset
    up, down = radius - np.minimum(height_a, height_b), radius + np.maximum(height_a, height_b)
    depth = np.minimum(up, down)
    normal = np.where((up <= down)[..., None], plane.normal, -plane.normal) + 0.0
    lowest = np.where((up <= down)[..., None] == (height_a <= height_b)[..., None], start, end)
    touching = depth >= 0
    hit = touching & ~(ignore_separating & (np.einsum("...k,...k->...", direction, normal) >= 0))
    foot = lowest - (np.einsum("...k,...k->...", lowest, plane.normal) - plane.offset)[..., None] * plane.normal
    initial = Contact(np.where(hit, 0.0, np.nan), np.where(hit[..., None], foot, np.nan),
                      np.where(hit[..., None], normal, np.nan), np.where(hit & (depth > 0), depth, np.nan),
                      np.where(hit, FACE, -1), np.where(hit, 0, -1))
    contact = Contact(*[np.where(touching[..., None] if np.ndim(first) > np.ndim(touching) else touching, first, later)
                        for first, later in zip(initial, swept)])
    return to_result(contact, scalar=_is_scalar(capsule, plane, direction=direction))
