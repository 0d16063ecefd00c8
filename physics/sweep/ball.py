"""A moving ball (center + radius) against a target core inflated by a radius: the
whole sphere family, reduced (compiled scalar kernels, one lane at a time).

A sphere, point, segment, triangle or polygon target is a convex polygon *core*
(``physics.core``: V = 1 a point, 2 a segment, >= 3 a polygon) with a radius (the
target sphere's or capsule's, else 0); the moving sphere's radius inflates it
further, so the sweep is the center point against the rounded core (inflate and
deflate).  The rounded core is split by features (the seed's decomposition): a slab
over the face (kept where the contact projects into the face), an infinite cylinder
around each edge (kept where the contact projects inside the edge), a ball around
each vertex.  The first contact is the earliest entry; ties go to the face, then
edges, then vertices (their order).  A plane is the one target with an unbounded
core and has its own slab.

At t = 0 the nearest feature decides touching or overlap: t = 0 with the minimum
translation's depth and direction.  Otherwise the contact normal is the direction
from the feature to the center at that time, from anchor-relative offsets (far from
the origin the coordinates do not swamp it).

Degenerate inputs: a center on the core itself (exactly, or on an edge or face up to
the rounding of the coordinates: its separation would be round-off) leaves by the
*escape rule*: every direction off the core's widest feature (its face, else its
longest edge, else the vertex) separates by the full radius, and the one nearest the
motion is taken (a face's normal, an edge's perpendicular ``any_perpendicular``, +z,
when the motion gives none).  With zero radius (a ray) the normal at an edge or
vertex is the limit just before contact: the reversed motion, made perpendicular.
"""

from __future__ import annotations

import math

from numba import prange

from sweeplab.physics.kernels import entry, kernel
from sweeplab.physics.core import (EDGE, FACE, VERTEX, bounding_ball, edge_count, edge_of, inside_face,
                                   is_within_rounding, polygon_face, widest_feature)
from sweeplab.physics.geometry import (add, any_perpendicular, dot, largest_magnitude, length_at_most, like,
                                       maximum, normalize_or, plane_height, plus_zero, row, scale, sqrt, sub)
from sweeplab.physics.lanes import lane_loop
from sweeplab.physics.sweep.bounds import may_touch
from sweeplab.physics.sweep.lane_answer import LaneAnswer, miss, plain, store_answer
from sweeplab.physics.sweep.rounded import ball_entry_time, slab_entry_time


# --- one lane -------------------------------------------------------------------------

@kernel
def off_feature(vector, code, axis):
    """The part of ``vector`` that leaves a feature: all of it from a vertex (zero axis),
    the part across an edge (axis = the edge vector), the part along a face's unit
    normal (axis)."""
    axis_squared = dot(axis, axis)
    along = scale(dot(vector, axis) / axis_squared if axis_squared > 0 else like(axis_squared, 0.0), axis)
    return along if code == FACE else sub(vector, along)


@kernel
def normal_along(motion, code, axis):
    """The normal of a feature picked by a motion, for a center on the feature itself:
    the motion's off-feature part, normalised; failing that, any perpendicular of an
    edge, a face's own normal, or +z for a vertex."""
    zero = like(axis[0], 0.0)
    if code == EDGE:
        secondary = any_perpendicular(axis)
    elif code == FACE:
        secondary = axis
    else:
        secondary = (zero, zero, like(zero, 1.0))
    return normalize_or(off_feature(motion, code, axis), secondary)


@kernel
def resolve(center, direction, total_radius, target_radius, anchor, axis, code, index, t, touching,
            ignore_separating, widest_code, widest_axis):
    """Turn the chosen feature (``anchor``, ``axis``, ``code``, ``index``) and time into
    an answer: (t, point, normal, depth, code, index), NaN and -1 where no hit.

    Where ``touching`` at t = 0, the normal is the minimum translation's direction
    and, with ``ignore_separating``, a contact the motion does not deepen is dropped;
    a center on the core (module docstring) takes the escape rule off the widest
    feature, a ray at an edge or vertex the reversed motion.  Elsewhere the normal
    is the approach direction at contact."""
    nan = like(total_radius, math.nan)
    hit = t <= 1
    at_time = add(sub(center, anchor), scale(t if hit else like(t, 0.0), direction))
    separation = off_feature(at_time, code, axis)
    distance = sqrt(dot(separation, separation))
    needs_tie = separation[0] == 0 and separation[1] == 0 and separation[2] == 0
    magnitude = maximum(largest_magnitude(center), largest_magnitude(anchor))
    needs_tie = needs_tie or (touching and code != VERTEX and is_within_rounding(separation, magnitude))
    needs_tie = needs_tie or (not touching and total_radius == 0)
    if needs_tie and hit:  # (a zero separation always needs the tie rule)
        if touching:
            normal = plus_zero(normal_along(direction, widest_code, widest_axis))
        else:
            normal = plus_zero(normal_along((-direction[0], -direction[1], -direction[2]), code, axis))
    else:
        normal = plus_zero(normalize_or(separation, separation))
    point = add(add(anchor, sub(at_time, separation)), scale(target_radius, normal))
    if ignore_separating and touching and dot(direction, normal) >= 0:
        hit = False
    if not hit:
        return miss(nan)
    depth = total_radius - distance if (touching and distance < total_radius) else nan
    return LaneAnswer(t, point, normal, depth, code, index)


@kernel
def ball_point(center, radius, direction, point, target_radius, ignore_separating):
    """The root of the family: a ball against a one-point core (a point, or a sphere of
    ``target_radius``): its center enters the ball of the summed radius about
    ``point`` (``ball_entry_time``).  Feature: vertex 0.  Answers as ``resolve``."""
    total_radius = radius + target_radius
    offset = sub(center, point)
    touching = length_at_most(offset, total_radius)
    t = like(total_radius, 0.0) if touching else ball_entry_time(offset, direction, total_radius)
    if not (touching or t <= 1):
        return miss(total_radius)
    zero = (like(total_radius, 0.0), like(total_radius, 0.0), like(total_radius, 0.0))
    return resolve(center, direction, total_radius, target_radius, point, zero, VERTEX, 0, t, touching,
                   ignore_separating, VERTEX, zero)


@entry
def ball_core(center, radius, direction, vertices, target_radius, ignore_separating):
    """A ball (``center``, ``radius``) moving along ``direction`` against the core
    ``vertices`` (V, 3) inflated by ``target_radius``: (t, point, normal, depth, code,
    index) as ``resolve`` gives it.  A one-point core is ``ball_point``'s.

    The center point c + t d against the core inflated by R = radius + target radius,
    split into a slab over the face, a cylinder around each edge and a ball around
    each vertex: the decomposition of Ericson, Real-Time Collision Detection (2005),
    5.5.6 (a moving sphere against a triangle or polygon), with every feature's entry
    time computed and the earliest kept rather than the face tested first."""
    # 1. a one-point core is the root kernel
    if vertices.shape[0] == 1:
        return ball_point(center, radius, direction, row(vertices, 0), target_radius, ignore_separating)
    # 2. bounding balls that never meet over [0, 1] (widened: ``bounds``) skip the rest
    total_radius = radius + target_radius
    core_center, core_radius = bounding_ball(vertices)
    if not may_touch(center, radius, direction, core_center, core_radius + target_radius):
        return miss(total_radius)
    inf = like(total_radius, math.inf)
    count = vertices.shape[0]
    # features in order: the face (polygons), the edges, the vertices; each with the
    # first t it is entered and its squared distance at t = 0 (inf: not its region),
    # and the nearest one's offset (its square may underflow: ``length_at_most``)
    best_time, time_feature, best_start, start_feature = inf, 0, inf, 0
    start_offset = (inf, inf, inf)
    feature = 0
    normal = (like(inf, 0.0), like(inf, 0.0), like(inf, 0.0))
    # 3. the face (a polygon with area, ``polygon_face``; zero normal: edges only).  With
    #    h = n . (c - v_0), the slab |h + t (n . d)| <= R is entered at
    #    t = (+-R - h) / (n . d) (``slab_entry_time``, Ericson 5.5.3), kept where c + t d
    #    projects into the face; at t = 0 the face is the nearest feature if |h| <= R
    #    over it, at squared distance h^2
    if count >= 3:
        zero_length = like(core_radius, 0.0)
        normal, slack = polygon_face(vertices, core_radius)
        offset = sub(center, row(vertices, 0))
        height = dot(offset, normal)
        time = slab_entry_time(height, dot(direction, normal), total_radius)
        # (each is kept only where it projects into the face: tested only where it counts,
        # a slab entered in [0, 1], a start close enough to touch)
        at_hit = add(offset, scale(time, direction))
        best_time = time if time <= 1 and inside_face(vertices, normal, at_hit, slack, zero_length) else inf
        if abs(height) <= total_radius and inside_face(vertices, normal, offset, slack, zero_length):
            best_start, start_offset = height * height, (height, like(height, 0.0), like(height, 0.0))
        feature = 1
    # 4. the edges: edge i from a along e.  With s = (c - a) . e / |e|^2 and
    #    s' = d . e / |e|^2, the parts square to the edge, m = (c - a) - s e and
    #    v = d - s' e, enter the cylinder |m + t v| <= R at ``ball_entry_time`` (Ray
    #    Tracing Gems, ch. 7), kept where 0 < s + t s' < 1 at that time
    for i in range(edge_count(vertices)):
        start, edge = edge_of(vertices, i)
        length_squared = dot(edge, edge)
        inverse_squared = like(length_squared, 1.0) / length_squared if length_squared > 0 else like(inf, 0.0)
        offset = sub(center, start)
        along = dot(offset, edge) * inverse_squared
        rate_along = dot(direction, edge) * inverse_squared
        across = sub(offset, scale(along, edge))
        time = ball_entry_time(across, sub(direction, scale(rate_along, edge)), total_radius)
        along_at_hit = along + (time if time <= 1 else like(time, 0.0)) * rate_along
        is_edge = inverse_squared > 0  # a zero-length edge is left to its vertices
        if is_edge and along_at_hit > 0 and along_at_hit < 1 and time < best_time:
            best_time, time_feature = time, feature
        # at t = 0 the center is the edge's where it projects strictly between the edge's
        # ends by the sign of its offsets from them (``along`` rounds: a center inside by
        # less than that would be given to the end vertex, and leave along the edge)
        between = dot(offset, edge) > 0 and dot(sub(center, row(vertices, (i + 1) % count)), edge) < 0
        if is_edge and between and dot(across, across) < best_start:
            best_start, start_feature, start_offset = dot(across, across), feature, across
        feature += 1
    # 5. the vertices: |c - v_i + t d| <= R (``ball_entry_time``)
    for i in range(count):
        offset = sub(center, row(vertices, i))
        time = ball_entry_time(offset, direction, total_radius)
        if time < best_time:
            best_time, time_feature = time, feature
        if dot(offset, offset) < best_start:
            best_start, start_feature, start_offset = dot(offset, offset), feature, offset
        feature += 1
    # 6. touching at t = 0 (the nearest feature within R) decides alone; else the
    #    earliest entry in [0, 1] (ties: face, edges, vertices in order)
    touching = length_at_most(start_offset, total_radius)
    if not (touching or best_time <= 1):  # nothing reached: no feature to resolve
        return miss(total_radius)
    chosen = start_feature if touching else time_feature
    t = like(inf, 0.0) if touching else best_time
    zero = (like(inf, 0.0), like(inf, 0.0), like(inf, 0.0))
    faces = 1 if count >= 3 else 0
    if chosen < faces:
        anchor, axis, code, index = row(vertices, 0), normal, FACE, 0
    elif chosen < faces + edge_count(vertices):
        anchor, axis = edge_of(vertices, chosen - faces)
        code, index = EDGE, chosen - faces
    else:
        anchor, axis, code, index = row(vertices, chosen - faces - edge_count(vertices)), zero, VERTEX, \
            chosen - faces - edge_count(vertices)
    # 7. the answer from the chosen feature: normal, point, depth (``resolve``)
    widest_code, widest_axis = widest_feature(vertices, normal)
    return resolve(center, direction, total_radius, target_radius, anchor, axis, code, index, t, touching,
                   ignore_separating, widest_code, widest_axis)


@entry
def ball_plane(center, radius, direction, normal, offset, ignore_separating):
    """A ball against the two-sided plane ``dot(normal, x) == offset`` (unit normal):
    its center against the slab of half-width ``radius``.  Feature: face 0."""
    height = plane_height(center, normal, offset)
    touching = abs(height) <= radius
    t = like(radius, 0.0) if touching else slab_entry_time(height, dot(direction, normal), radius)
    return resolve(center, direction, radius, like(radius, 0.0), sub(center, scale(height, normal)), normal, FACE, 0,
                   t, touching, ignore_separating, FACE, normal)


# --- one lane, called from Python ---------------------------------------------------------

@entry
def ball_core_answer(center, radius, direction, vertices, target_radius, ignore_separating):
    """``ball_core``'s answer as a plain tuple (``lane_answer.plain``)."""
    return plain(ball_core(center, radius, direction, vertices, target_radius, ignore_separating))


@entry
def ball_plane_answer(center, radius, direction, normal, offset, ignore_separating):
    """``ball_plane``'s answer as a plain tuple (``lane_answer.plain``)."""
    return plain(ball_plane(center, radius, direction, normal, offset, ignore_separating))


# --- batches ----------------------------------------------------------------------------

@lane_loop
def ball_core_lanes(centers, radii, directions, vertices, target_radii, ignore_separating, out):
    for i in prange(len(radii)):
        store_answer(out, i, ball_core(row(centers, i), radii[i], row(directions, i), vertices[i], target_radii[i],
                                       ignore_separating))


@lane_loop
def ball_point_lanes(centers, radii, directions, vertices, target_radii, ignore_separating, out):
    """``ball_core_lanes`` of one-point cores (``vertices`` (n, 1, 3)), each passed to
    ``ball_point`` as its 3-vector (an array view of a lane's core costs more than the
    whole point test)."""
    for i in prange(len(radii)):
        point = (vertices[i, 0, 0], vertices[i, 0, 1], vertices[i, 0, 2])
        store_answer(out, i, ball_point(row(centers, i), radii[i], row(directions, i), point, target_radii[i],
                                        ignore_separating))


@lane_loop
def ball_plane_lanes(centers, radii, directions, normals, offsets, ignore_separating, out):
    for i in prange(len(radii)):
        store_answer(out, i, ball_plane(row(centers, i), radii[i], row(directions, i), row(normals, i), offsets[i],
                                        ignore_separating))
