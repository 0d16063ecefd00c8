"""Sweeps of a moving capsule (and, as a capsule of radius 0, a moving segment):
compiled scalar kernels, one lane at a time.

Reduced as the seed does: a capsule is its core segment inflated by its radius,
so a capsule against a target is a segment against the target inflated by the
summed radii.  First contact is the earliest of (ties keep the first listed):

* the core's end points as balls against the target (``physics.sweep.ball``);
* the target's vertices as balls, moving the other way, against the core
  (the subject swapped: sweeping A along d is sweeping B along -d);
* the core's interior against a target edge's interior: for two non-parallel
  lines the distance along their common normal is linear in t, so contact is a
  slab entry, kept where both closest points fall inside their segments
  (parallel segments touch first at an end point, which the balls cover).

At t = 0 the exact segment-segment (or segment-polygon, segment-plane) distance
decides overlap, with the minimum translation as the normal.  Feature of a capsule
or segment target: edge 0 = its side, vertex 0 / 1 = the end at ``a`` / ``b``.

Degenerate inputs (for every function here): zero direction — an overlap test;
zero radius — a moving segment; zero-length core — a sphere (its end balls
answer); parallel or collinear segments — the end balls answer; crossing
segments at t = 0 — depth = summed radius, normal along the common normal on
the side of the motion (any perpendicular if the segments are collinear).
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from sweeplab.physics.kernels import entry, kernel
from sweeplab.physics.closest import rejection, segment_separation
from sweeplab.physics.core import (EDGE, FACE, VERTEX, bounding_ball, inside_face, is_within_rounding, polygon_face,
                                   rounding_of, segment_ball)
from sweeplab.physics.geometry import (add, any_perpendicular, cross, cross_accurate, dot, largest_magnitude,
                                       largest_magnitude_of_segments, length, length_at_most, like, maximum, minimum,
                                       normalize_or, plane_height, plus_zero, row, scale, sqrt, sub)
from sweeplab.physics.lanes import lane_loop
from sweeplab.physics.result import SweepResult
from sweeplab.physics.shapes import Capsule, Plane, Polygon, Segment, Triangle
from sweeplab.physics.sweep.ball import ball_core, ball_plane
from sweeplab.physics.sweep.bounds import may_touch
from sweeplab.physics.sweep.lane_answer import LaneAnswer, miss, plain, store_answer
from sweeplab.physics.sweep.query import answer_lanes, pair_test
from sweeplab.physics.sweep.rounded import slab_entry_time


# --- one lane -------------------------------------------------------------------------
# An answer is a ``LaneAnswer`` (``physics.sweep.lane_answer``), as ``ball.resolve``
# gives it: NaN and -1 where there is no hit.

@kernel
def core_of_segment(start, end):
    """The two-vertex core (2, 3) of a segment, for ``ball_core``."""
    return np.array([[start[0], start[1], start[2]], [end[0], end[1], end[2]]])


@kernel
def _earlier(best, candidate):
    """The earlier of two answers (a hit beats a miss; a tie keeps ``best``)."""
    if candidate.t < best.t or (best.t != best.t and candidate.t == candidate.t):
        return candidate
    return best


@kernel
def _reversed(answer, target_vertex, target_radius, vertex_index):
    """A target vertex swept (as a ball of ``target_radius``, along -d) against the
    moving core, turned back into the caller's frame: the normal flips and the point
    is on the target's surface."""
    t, _, normal, depth, _, _ = answer
    if t != t:
        return answer
    zero = like(t, 0.0)
    flipped = (zero - normal[0], zero - normal[1], zero - normal[2])
    return LaneAnswer(t, add(target_vertex, scale(target_radius, flipped)), flipped, depth, VERTEX, vertex_index)


@kernel
def across_axis(direction, axis):
    """The unit direction across ``axis`` nearest the motion (any perpendicular if the
    motion is along it; the motion itself, then +z, if the axis is zero)."""
    zero = like(direction[0], 0.0)
    fallback = any_perpendicular(axis) if dot(axis, axis) > 0 else (zero, zero, like(zero, 1.0))
    return normalize_or(rejection(direction, axis), fallback)


@kernel
def interiors(start, end, direction, other_start, other_end, total_radius, target_radius, edge_index):
    """The core's interior against the interior of a target edge: the lines' distance
    along their common normal n is linear in t (a slab entry), kept where the lines'
    closest points at that time are inside both segments:
    s = n . (other x offset) / |n|^2, w = n . (along x offset) / |n|^2 (Lagrange's
    identity; n accurate however nearly parallel, |n| taken at unit size so that it
    does not underflow).  Parallel segments (n = 0) have no such contact: their
    contacts are the end balls'.

    For cores parallel up to the rounding of their coordinates n is round-off, and so
    are s and w: a contact is kept only where the segments' own distance at its time
    is the summed radius up to that rounding.  That check cannot drop a true first
    contact, and no false one before it passes: the distance of two translating
    segments is convex in t, so no time before the first contact has it within the
    radius (issue #31: coaxial capsules 1.6 apart answered t = 0)."""
    along, other_along = sub(end, start), sub(other_end, other_start)
    common = cross_accurate(along, other_along)
    zero = like(total_radius, 0.0)
    common_length = length(common)
    if not common_length > 0:
        return miss(total_radius)
    unit = (common[0] / common_length, common[1] / common_length, common[2] / common_length)
    height = dot(unit, sub(start, other_start))
    time = slab_entry_time(height, dot(unit, direction), total_radius)
    moved = scale(time if time <= 1 else zero, direction)
    moved_start, moved_end = add(start, moved), add(end, moved)
    offset = sub(moved_start, other_start)
    line_s = dot(unit, cross(other_along, offset)) / common_length
    line_w = dot(unit, cross(along, offset)) / common_length
    if not (line_s > 0 and line_s < 1 and line_w > 0 and line_w < 1 and time <= 1):
        return miss(time)
    separation, _, _, _ = segment_separation(moved_start, moved_end, other_start, other_end)
    magnitude = largest_magnitude_of_segments(moved_start, moved_end, other_start, other_end)
    if not length_at_most(separation, total_radius + rounding_of(maximum(magnitude, total_radius))):
        return miss(time)
    normal = plus_zero((-unit[0], -unit[1], -unit[2]) if height < 0 else unit)  # the side the core comes from
    point = add(add(other_start, scale(line_w, other_along)), scale(target_radius, normal))
    return LaneAnswer(time, point, normal, like(time, math.nan), EDGE, edge_index)


@kernel
def segment_at_start(start, end, direction, other_start, other_end, total_radius, target_radius,
                     ignore_separating):
    """(touching, answer) at t = 0 of two capsule cores, from their exact closest
    points: the minimum translation along their separation; where the cores meet up
    to the rounding of their coordinates at a point interior to one (the separation
    is then round-off), the escape rule: the common normal on the side of the
    motion, else across the longer core."""
    along, other_along = sub(end, start), sub(other_end, other_start)
    separation, w, interior, interior_other = segment_separation(start, end, other_start, other_end)
    magnitude = largest_magnitude_of_segments(start, end, other_start, other_end)
    if (interior or interior_other) and is_within_rounding(separation, magnitude):
        zero = like(w, 0.0)
        separation = (zero, zero, zero)
    distance = sqrt(dot(separation, separation))
    common = cross_accurate(along, other_along)
    zero = like(w, 0.0)
    unit_common = normalize_or(common, (zero, zero, zero))
    across = (-unit_common[0], -unit_common[1], -unit_common[2]) if dot(common, direction) < 0 else unit_common
    axis = along if dot(along, along) >= dot(other_along, other_along) else other_along
    tie = across if dot(common, common) > 0 else across_axis(direction, axis)
    normal = plus_zero(normalize_or(separation, tie))
    touching = distance <= total_radius
    if not touching or (ignore_separating and dot(direction, normal) >= 0):
        return touching, miss(w)
    point = add(other_end if w == 1 else add(other_start, scale(w, other_along)), scale(target_radius, normal))
    depth = total_radius - distance if distance < total_radius else like(w, math.nan)
    code = EDGE if interior_other else VERTEX
    index = 0 if interior_other else (1 if w >= 1 else 0)
    return touching, LaneAnswer(zero, point, normal, depth, code, index)


@entry
def capsule_segment(start, end, radius, direction, other_start, other_end, target_radius, ignore_separating):
    """A moving capsule core (``start``-``end``, ``radius``) against a still capsule core
    (``other_start``-``other_end``, ``target_radius``).  Touching at t = 0 decides
    alone; bounding balls skip what cannot touch (``bounds``)."""
    total_radius = radius + target_radius
    moving_center, moving_radius = segment_ball(start, end)
    target_center, target_reach = segment_ball(other_start, other_end)
    moving_reach, target_reach = moving_radius + radius, target_reach + target_radius
    if not may_touch(moving_center, moving_reach, direction, target_center, target_reach):
        return miss(total_radius)
    zero = like(radius, 0.0)
    if may_touch(moving_center, moving_reach, (zero, zero, zero), target_center, target_reach):
        touching, initial = segment_at_start(start, end, direction, other_start, other_end, total_radius,
                                             target_radius, ignore_separating)
        if touching:
            return initial
    target, moving = core_of_segment(other_start, other_end), core_of_segment(start, end)
    back = (-direction[0], -direction[1], -direction[2])
    best = ball_core(start, radius, direction, target, target_radius, False)
    best = _earlier(best, ball_core(end, radius, direction, target, target_radius, False))
    best = _earlier(best, _reversed(ball_core(other_start, target_radius, back, moving, radius, False), other_start,
                                    target_radius, 0))
    best = _earlier(best, _reversed(ball_core(other_end, target_radius, back, moving, radius, False), other_end,
                                    target_radius, 1))
    return _earlier(best, interiors(start, end, direction, other_start, other_end, total_radius, target_radius, 0))


@kernel
def _nearest_to_polygon(start, end, vertices, normal, slack):
    """(distance, separation, witness on the polygon, its code and index) of the
    nearest features of the core start-end and the polygon (face ``normal`` and
    ``slack`` from ``polygon_face``): each edge by its segment-segment separation,
    each core end over the face; the first nearest wins (edges in order, then the
    ends)."""
    count = vertices.shape[0]
    magnitude_core = maximum(largest_magnitude(start), largest_magnitude(end))
    inf = like(normal[0], math.inf)
    zero = like(inf, 0.0)
    best = (inf, (zero, zero, zero), (zero, zero, zero), 0, 0)
    for i in range(count):
        corner, following = row(vertices, i), row(vertices, (i + 1) % count)
        separation, w, interior, interior_other = segment_separation(start, end, corner, following)
        magnitude = maximum(maximum(magnitude_core, largest_magnitude(corner)), largest_magnitude(following))
        if (interior or interior_other) and is_within_rounding(separation, magnitude):
            separation = (zero, zero, zero)
        distance = sqrt(dot(separation, separation))
        if distance < best[0]:
            witness = following if w == 1 else add(corner, scale(w, sub(following, corner)))
            code = EDGE if interior_other else VERTEX
            index = (i + 1) % count if (w >= 1 and not interior_other) else i
            best = (distance, separation, witness, code, index)
    first = row(vertices, 0)
    for point in (start, end):
        height = dot(normal, sub(point, first))
        foot = sub(point, scale(height, normal))
        if inside_face(vertices, normal, sub(foot, first), slack, zero) and abs(height) < best[0]:
            best = (abs(height), scale(height, normal), foot, FACE, 0)
    if not best[0] < inf:
        return inf, (zero, zero, zero), (zero, zero, zero), 0, 0
    return best


@kernel
def polygon_at_start(start, end, direction, vertices, radius, ignore_separating):
    """(touching, answer) at t = 0 of a capsule core and a polygon: the exact
    segment-polygon distance (``_nearest_to_polygon``), and for a core piercing the
    face the separating-axis depth over the face normal and the core x edge
    directions (the least wins, on the side of the motion at a tie), the contact
    where the core, moved out along that axis, touches the polygon."""
    # 1. the face: unit normal n (zero for a sliver: edges only) and the slack of the
    #    inside test, as the sphere kernel has them (``polygon_face``)
    count = vertices.shape[0]
    along = sub(end, start)
    normal, slack = polygon_face(vertices, bounding_ball(vertices)[1])
    has_face = normal[0] != 0 or normal[1] != 0 or normal[2] != 0
    # 2. the exact distance: every edge against the core by the closest points of two
    #    segments (Ericson, Real-Time Collision Detection (2005), 5.1.9), each core end
    #    by its height over the face where it projects into it
    best_distance, best_separation, best_witness, best_code, best_index = _nearest_to_polygon(start, end, vertices,
                                                                                               normal, slack)
    # 3. piercing: with heights h_a = n . (a - v_0), h_b = n . (b - v_0) of the core's
    #    ends, the core crosses the plane (h_a h_b <= 0) at s = h_a / (h_a - h_b), and
    #    pierces the face where a + s (b - a) is inside it
    first = row(vertices, 0)
    height_start, height_end = dot(normal, sub(start, first)), dot(normal, sub(end, first))
    crossing_at = height_start / (height_start - height_end) if height_start != height_end else like(radius, 0.0)
    pierce = add(start, scale(crossing_at, along))
    zero = like(radius, 0.0)
    pierces = height_start * height_end <= 0 and inside_face(vertices, normal, sub(pierce, first), slack, zero) \
        and has_face
    # 4. the separating axes of a segment and a polygon (the separating-axis test,
    #    Ericson 5.2.1): n and the unit (b - a) x e_k for each edge.  On each, with the
    #    polygon's projection [lowest, highest] and the core's [min, max], the core
    #    leaves upwards by up = highest - min and downwards by down = max - lowest; the
    #    escape is the least of min(up, down) over the axes (at up == down, the side
    #    the motion goes), and its direction (a zero axis never counts)
    inf = like(radius, math.inf)
    escape_depth, escape_axis = inf, (zero, zero, zero)
    longest, longest_squared = (zero, zero, zero), -like(zero, 1.0)
    for k in range(count + 1):
        if k == 0:
            axis = normal
        else:
            edge = sub(row(vertices, k % count), row(vertices, k - 1))
            axis = normalize_or(cross_accurate(along, edge), (zero, zero, zero))
            if dot(edge, edge) > longest_squared:
                longest, longest_squared = edge, dot(edge, edge)
        core_start, core_end = dot(axis, start), dot(axis, end)
        highest, lowest = dot(axis, first), dot(axis, first)
        for j in range(1, count):
            projection = dot(axis, row(vertices, j))
            highest, lowest = maximum(highest, projection), minimum(lowest, projection)
        up, down = highest - minimum(core_start, core_end), maximum(core_start, core_end) - lowest
        prefer_up = up < down or (up == down and dot(axis, direction) >= 0)
        value = (up if prefer_up else down) if (axis[0] != 0 or axis[1] != 0 or axis[2] != 0) else inf
        value = inf if value != value else value
        if value < escape_depth:
            escape_depth, escape_axis = value, axis if prefer_up else (-axis[0], -axis[1], -axis[2])
    # 5. touching: a piercing core, or one within the radius of the polygon
    touching = pierces or best_distance <= radius
    # no separating axis (point-like polygon or core): leave across the core, else across the longest edge
    fallback = across_axis(direction, along if dot(along, along) > 0 else longest)
    escape = normalize_or(escape_axis, fallback)
    # 6. a piercing core overlaps by radius + escape depth along the escape direction,
    #    its contact where the core moved out by that depth is nearest the polygon;
    #    any other by radius - distance along the separation (the escape direction
    #    where the separation is zero)
    if pierces:
        moved_out = scale(escape_depth if abs(escape_depth) < inf else zero, escape)
        _, _, witness, code, index = _nearest_to_polygon(add(start, moved_out), add(end, moved_out), vertices,
                                                         normal, slack)
        normal_out, depth = plus_zero(escape), radius + escape_depth
    else:
        witness, code, index = best_witness, best_code, best_index
        normal_out, depth = plus_zero(normalize_or(best_separation, escape)), radius - best_distance
    if not touching or (ignore_separating and dot(direction, normal_out) >= 0):
        return touching, miss(radius)
    return touching, LaneAnswer(zero, witness, normal_out, depth if depth > 0 else like(radius, math.nan), code, index)


@entry
def capsule_polygon(start, end, radius, direction, vertices, ignore_separating):
    """A moving capsule core against a convex polygon (V, 3): its end balls against the
    polygon, the polygon's vertices as balls moving the other way against the core,
    the core's interior against each edge's interior (in that order, a vertex before
    the edge it starts).  A core parallel to the face meets it no earlier than its
    end balls (over the face) or an edge (crossing one): the face needs no test of
    its own.  Touching at t = 0 decides alone; bounding balls skip what cannot touch
    (``bounds``)."""
    zero = like(radius, 0.0)
    moving_center, moving_radius = segment_ball(start, end)
    polygon_center, polygon_radius = bounding_ball(vertices)
    if not may_touch(moving_center, moving_radius + radius, direction, polygon_center, polygon_radius):
        return miss(radius)
    if may_touch(moving_center, moving_radius + radius, (zero, zero, zero), polygon_center, polygon_radius):
        touching, initial = polygon_at_start(start, end, direction, vertices, radius, ignore_separating)
        if touching:
            return initial
    moving = core_of_segment(start, end)
    back = (-direction[0], -direction[1], -direction[2])
    best = ball_core(start, radius, direction, vertices, zero, False)
    best = _earlier(best, ball_core(end, radius, direction, vertices, zero, False))
    count = vertices.shape[0]
    for i in range(count):
        corner = row(vertices, i)
        best = _earlier(best, _reversed(ball_core(corner, zero, back, moving, radius, False), corner, zero, i))
        best = _earlier(best, interiors(start, end, direction, corner, row(vertices, (i + 1) % count), radius,
                                        zero, i))
    return best


@entry
def capsule_plane(start, end, radius, direction, normal, offset, ignore_separating):
    """A capsule against a two-sided plane: its end balls against the slab; at t = 0 a
    core crossing the plane overlaps by the shorter way out.  With heights h_a, h_b of
    the ends above the plane, clearing it upwards takes ``r - min(h)``, downwards
    ``r + max(h)``: the depth is the smaller, the normal that side's (upwards on a
    tie).  Feature: face 0."""
    best = _earlier(ball_plane(start, radius, direction, normal, offset, False),
                    ball_plane(end, radius, direction, normal, offset, False))
    height_start, height_end = plane_height(start, normal, offset), plane_height(end, normal, offset)
    up, down = radius - minimum(height_start, height_end), radius + maximum(height_start, height_end)
    depth = minimum(up, down)
    if not depth >= 0:
        return best
    upwards = up <= down
    side = plus_zero(normal if upwards else (-normal[0], -normal[1], -normal[2]))
    if ignore_separating and dot(direction, side) >= 0:
        return miss(radius)
    lowest = start if upwards == (height_start <= height_end) else end
    foot = sub(lowest, scale(plane_height(lowest, normal, offset), normal))
    return LaneAnswer(like(radius, 0.0), foot, side, depth if depth > 0 else like(radius, math.nan), FACE, 0)


# --- one lane, called from Python ---------------------------------------------------------

@entry
def capsule_segment_answer(start, end, radius, direction, other_start, other_end, target_radius, ignore_separating):
    """``capsule_segment``'s answer as a plain tuple (``lane_answer.plain``)."""
    return plain(capsule_segment(start, end, radius, direction, other_start, other_end, target_radius,
                                 ignore_separating))


@entry
def capsule_polygon_answer(start, end, radius, direction, vertices, ignore_separating):
    """``capsule_polygon``'s answer as a plain tuple (``lane_answer.plain``)."""
    return plain(capsule_polygon(start, end, radius, direction, vertices, ignore_separating))


@entry
def capsule_plane_answer(start, end, radius, direction, normal, offset, ignore_separating):
    """``capsule_plane``'s answer as a plain tuple (``lane_answer.plain``)."""
    return plain(capsule_plane(start, end, radius, direction, normal, offset, ignore_separating))


# --- batches ----------------------------------------------------------------------------

@lane_loop
def capsule_segment_lanes(starts, ends, radii, directions, other_starts, other_ends, target_radii, ignore_separating,
                          out):
    for i in prange(len(radii)):
        store_answer(out, i, capsule_segment(row(starts, i), row(ends, i), radii[i], row(directions, i),
                                             row(other_starts, i), row(other_ends, i), target_radii[i],
                                             ignore_separating))


@lane_loop
def capsule_polygon_lanes(starts, ends, radii, directions, vertices, ignore_separating, out):
    for i in prange(len(radii)):
        store_answer(out, i, capsule_polygon(row(starts, i), row(ends, i), radii[i], row(directions, i), vertices[i],
                                             ignore_separating))


@lane_loop
def capsule_plane_lanes(starts, ends, radii, directions, normals, offsets, ignore_separating, out):
    for i in prange(len(radii)):
        store_answer(out, i, capsule_plane(row(starts, i), row(ends, i), radii[i], row(directions, i),
                                           row(normals, i), offsets[i], ignore_separating))


def capsule_core(moving):
    """(start, end, radius) of a moving Capsule or Segment."""
    if isinstance(moving, Segment):
        return moving.a, moving.b, np.zeros((), moving.a.dtype)
    return moving.a, moving.b, moving.radius


@pair_test
def sweep_capsule_capsule(capsule: Capsule, target: Capsule, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against capsule: core segment against core segment inflated by both
    radii.  Features of the target: edge 0 (side), vertex 0 / 1 (end caps)."""
    return _sweep_segment(capsule, target.a, target.b, target.radius, direction, ignore_separating)


@pair_test
def sweep_capsule_segment(capsule: Capsule, segment: Segment, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a segment (a capsule of radius 0).  Features: edge 0, vertex 0 / 1."""
    return _sweep_segment(capsule, segment.a, segment.b, np.zeros((), segment.a.dtype), direction, ignore_separating)


def _sweep_segment(capsule, other_start, other_end, target_radius, direction, ignore_separating) -> SweepResult:
    """A capsule against a capsule core (``capsule_segment``)."""
    start, end, radius = capsule_core(capsule)
    inputs = [(start, 1), (end, 1), (radius, 0), (direction, 1), (other_start, 1), (other_end, 1), (target_radius, 0)]
    return answer_lanes(capsule_segment_answer, capsule_segment_lanes, inputs, ignore_separating)


@pair_test
def sweep_capsule_plane(capsule: Capsule, plane: Plane, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a two-sided plane (``capsule_plane``).  Feature: face 0."""
    start, end, radius = capsule_core(capsule)
    return answer_lanes(capsule_plane_answer, capsule_plane_lanes, [(start, 1), (end, 1), (radius, 0), (direction, 1),
                                                             (plane.normal, 1), (plane.offset, 0)], ignore_separating)


@pair_test
def sweep_capsule_triangle(capsule: Capsule, triangle: Triangle, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a two-sided triangle.  Features: face 0, edge i, vertex i of
    the triangle.  Degenerate inputs: as the module says; a zero-area triangle is
    its edges."""
    return _sweep_polygon(capsule, triangle, direction, ignore_separating, face_index=None)


@pair_test
def sweep_capsule_polygon(capsule: Capsule, polygon: Polygon, direction, *, ignore_separating=False) -> SweepResult:
    """Capsule against a two-sided convex polygon; ``face_index`` 0 on every hit."""
    return _sweep_polygon(capsule, polygon, direction, ignore_separating, face_index=0)


def _sweep_polygon(capsule, polygon, direction, ignore_separating, face_index) -> SweepResult:
    """A capsule against a polygon (``capsule_polygon``)."""
    start, end, radius = capsule_core(capsule)
    inputs = [(start, 1), (end, 1), (radius, 0), (direction, 1), (polygon.vertices, 2)]
    return answer_lanes(capsule_polygon_answer, capsule_polygon_lanes, inputs, ignore_separating, face_index=face_index)
