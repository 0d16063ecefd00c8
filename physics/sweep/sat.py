"""The separating axis test over time for translating convex polytopes, and what
touches where: compiled scalar kernels for one pair.

For a translating pair of convex polytopes A (moving along d) and B, every candidate
axis gives the interval of t in which their projections overlap (linear in t: A's
interval moves at ``dot(d, axis)``).  They touch first at the latest entry over all
axes, and miss when that exceeds the earliest exit or 1.  The candidates are the face
normals of both and the cross products of their edge directions — the face normals
of the Minkowski difference A - B, so the answer is exact for translations.  When
neither shape is solid (a flat, straight or point polytope against a polygon, segment
or point) the difference can be flat or thinner, and axes built from the motion are
added.  At t = 0 the axis of least penetration is the minimum translation.

A polytope is its vertices (V, 3), unit face normals (F, 3), one edge vector per edge
direction (E, 3: the axes need no more) and the vertex pairs of all its edges (E', 2).
Degenerate inputs: zero-area faces and zero-length edges give zero axes, which never
separate (the shape is answered as the lower-dimensional polytope it is).
"""

from __future__ import annotations

import math

import numpy as np

from sweeplab.physics.kernels import entry, kernel
from sweeplab.physics import tolerance
from sweeplab.physics.closest import clip01, closest_parameters
from sweeplab.physics.core import EDGE, FACE, VERTEX
from sweeplab.physics.geometry import (add, any_perpendicular, cross, dot, epsilon, largest_magnitude, length, like,
                                       maximum, minimum, normalize_or, plus_zero, row, scale, sqrt, sub)


@kernel
def project(axis, point):
    """dot(axis, point), summed from 0 as x, then y, then z."""
    return ((like(axis[0], 0.0) + axis[0] * point[0]) + axis[1] * point[1]) + axis[2] * point[2]


@entry
def axis_count(a_normals, a_edges, b_normals, b_edges, motion_axes) -> int:
    """How many candidate axes a pair has (``candidate_axis``)."""
    faces, edges = a_normals.shape[0] + b_normals.shape[0], a_edges.shape[0] + b_edges.shape[0]
    count = faces + a_edges.shape[0] * b_edges.shape[0]
    return count + 3 + 2 * edges + faces * edges if motion_axes else count


@kernel
def candidate_axis(k, a_normals, a_edges, b_normals, b_edges, direction, perpendicular):
    """(axis, kind) of the k-th candidate axis: A's face normals (kind 0), B's (1), the
    cross products of A's and B's edge directions (2: the face normals of the Minkowski
    difference, so the test is exact for translations); then, for two non-solid
    shapes, axes from the motion (3): d, two perpendiculars of d, every edge (A's then
    B's) crossed with d, those crossed with their edge again, and every face normal
    crossed with every edge (the in-plane normals)."""
    fa, fb, ea, eb = a_normals.shape[0], b_normals.shape[0], a_edges.shape[0], b_edges.shape[0]
    if k < fa:
        return row(a_normals, k), 0
    k -= fa
    if k < fb:
        return row(b_normals, k), 1
    k -= fb
    if k < ea * eb:
        return cross(row(a_edges, k // eb), row(b_edges, k % eb)), 2
    k -= ea * eb
    edges = ea + eb
    if k == 0:
        return direction, 3
    if k == 1:
        return perpendicular, 3
    if k == 2:
        return cross(direction, perpendicular), 3
    k -= 3
    if k < 2 * edges:
        i = k % edges
        edge = row(a_edges, i) if i < ea else row(b_edges, i - ea)
        across = cross(edge, direction)
        return (across, 3) if k < edges else (cross(across, edge), 3)
    k -= 2 * edges
    j, i = k // edges, k % edges
    normal = row(a_normals, j) if j < fa else row(b_normals, j - fa)
    return cross(normal, row(a_edges, i) if i < ea else row(b_edges, i - ea)), 3


@kernel
def _extent(axis, vertices):
    """(lowest, highest) projection of ``vertices`` on ``axis``."""
    low = high = project(axis, row(vertices, 0))
    for i in range(1, vertices.shape[0]):
        value = project(axis, row(vertices, i))
        low, high = minimum(low, value), maximum(high, value)
    return low, high


@kernel
def _overlap_in_time(entry, leave, instant):
    """Whether the interval [entry, leave] in which every axis overlaps so far meets
    [0, 1] (it only narrows as axes are added).  When the earliest exit is an axis
    whose overlap lasts one instant (two flat shapes parallel to each other, coplanar
    at that instant: ``instant``), an entry up to ``tolerance.SAT_TOUCH_ULPS`` after
    it is that touch, its axes rounded apart."""
    if instant and entry > leave:
        return entry - leave <= like(entry, tolerance.SAT_TOUCH_ULPS) * epsilon(entry) * abs(leave) and entry <= 1 \
            and leave >= 0
    return entry <= leave and entry <= 1 and leave >= 0


@kernel
def sat_sweep(a_vertices, a_normals, a_edges, b_vertices, b_normals, b_edges, motion_axes, direction,
              ignore_separating, trace):
    """The separating axis test over time for a translating pair of convex polytopes:
    (t NaN where no hit, unit normal from B towards A, depth NaN unless overlapping,
    the chosen axis).

    On every candidate axis the projections of A (moving at ``dot(d, axis)``) and B
    overlap during an interval of t; they touch first at the latest entry over all
    axes, and miss when that is after the earliest exit or 1 (the separating-axis test
    for moving convex objects, Ericson, Real-Time Collision Detection (2005), 5.5.2).
    At t = 0 the axis of least penetration is the minimum translation (its depth and
    direction).  ``trace`` (axes (K, 3), kinds, enter, exit arrays) records every axis when long
    enough; untraced, the test stops at the first axis that separates the pair over
    all of [0, 1] (the chosen axis is then -1).  A penetration is measured only on
    axes that overlap at t = 0 (the minimum translation needs every axis to)."""
    zero = like(direction[0], 0.0)
    inf = like(zero, math.inf)
    moving = direction[0] != 0 or direction[1] != 0 or direction[2] != 0
    perpendicular = any_perpendicular(direction) if moving else (zero, zero, zero)
    entry, leave = -inf, inf
    instant = False  # whether the earliest exit so far is an axis overlapping for one instant only
    last, last_enter = 0, -inf
    least, least_penetration = 0, inf
    trace_axes, trace_kinds, trace_enter, trace_exit = trace
    traced = len(trace_kinds) > 0
    for k in range(axis_count(a_normals, a_edges, b_normals, b_edges, motion_axes)):
        # 1. axis L and the projections [low_a, high_a] of A at t = 0 and [low_b, high_b]
        #    of B; A's moves at v = L . d
        axis, kind = candidate_axis(k, a_normals, a_edges, b_normals, b_edges, direction, perpendicular)
        is_axis = axis[0] != 0 or axis[1] != 0 or axis[2] != 0
        low_a, high_a = _extent(axis, a_vertices)
        low_b, high_b = _extent(axis, b_vertices)
        speed = dot(axis, direction)
        # 2. they overlap while low_b - high_a <= t v <= high_b - low_a: for v != 0 from
        #    min to max of (low_b - high_a) / v and (high_b - low_a) / v; for v = 0 always
        #    or never; a zero axis never separates
        overlapping_now = low_a <= high_b and high_a >= low_b
        if not is_axis:
            enter, leave_k = -inf, inf
        elif speed == 0:
            enter, leave_k = (-inf, inf) if overlapping_now else (inf, -inf)
        else:
            towards, away = (low_b - high_a) / speed, (high_b - low_a) / speed
            enter, leave_k = minimum(towards, away), maximum(towards, away)
        # 3. every axis overlapping at once: the latest entry and earliest exit so far
        #    (and the axis of the latest entry: the contact normal)
        if leave_k < leave or (leave_k == leave and enter == leave_k):
            instant = enter == leave_k
        entry, leave = maximum(entry, enter), minimum(leave, leave_k)
        if enter > last_enter or k == 0:
            last, last_enter = k, enter
        # 4. at t = 0 the penetration along the unit axis, the lesser of the two ways out:
        #    min(high_b - low_a, high_a - low_b) / |L|; the least over the axes is the depth
        if overlapping_now:
            axis_length = length(axis)
            penetration = minimum((high_b - low_a) / axis_length, (high_a - low_b) / axis_length) if is_axis else inf
            if penetration < least_penetration or k == 0:
                least, least_penetration = k, penetration
        if k < len(trace_kinds):
            trace_axes[k, 0], trace_axes[k, 1], trace_axes[k, 2] = axis
            trace_kinds[k], trace_enter[k], trace_exit[k] = kind, enter, leave_k
        if not traced and not _overlap_in_time(entry, leave, instant):  # separated over [0, 1]: a miss
            nan = like(zero, math.nan)
            return nan, (nan, nan, nan), nan, -1
    # 5. a hit where [latest entry, earliest exit] meets [0, 1]: at t = 0 (entry <= 0) the
    #    least penetration's axis, pointing the shorter way out from B towards A; later,
    #    the latest entry's axis, against the motion
    hit = _overlap_in_time(entry, leave, instant)
    at_start = hit and entry <= 0
    chosen = least if at_start else last
    axis, _ = candidate_axis(chosen, a_normals, a_edges, b_normals, b_edges, direction, perpendicular)
    unit = normalize_or(axis, axis)  # at unit size: the cross of two edges 1e-171 long is a direction too
    if at_start:
        low_a, high_a = _extent(axis, a_vertices)
        low_b, high_b = _extent(axis, b_vertices)
        sign = like(zero, 1.0) if high_b - low_a <= high_a - low_b else -like(zero, 1.0)
    else:
        sign = like(zero, 1.0) if dot(axis, direction) < 0 else -like(zero, 1.0)
    normal = plus_zero(scale(sign, unit))
    depth = least_penetration if at_start else like(zero, math.nan)
    if ignore_separating and at_start and dot(direction, normal) >= 0:
        hit = False
    nan = like(zero, math.nan)
    if not hit:
        return nan, normal, nan, chosen
    return maximum(entry, zero), normal, depth if depth > 0 else nan, chosen


# --- which features touch, and where ---------------------------------------------------------

def contact_rtol(dtype) -> float:
    """How close to the extreme along the normal a vertex counts as touching, as a
    fraction of the scale, for shapes given in ``dtype``: ``tolerance.HULL_RTOL``, or
    the rounding of the dtype's coordinates (``tolerance.COORDINATE_ROUNDING_ULPS``
    ulps) if coarser.  The kernels compute in float64, but a float32 box's faces are
    flat only to 1e-8: with the float64 slack its touching face read as one corner,
    and the contact point went 0.03-0.5 off the surface (issue #31)."""
    return max(tolerance.HULL_RTOL, tolerance.COORDINATE_ROUNDING_ULPS * float(np.finfo(dtype).eps))


@kernel
def _nearest_on_segment(start, end, point):
    """The point of the segment ``start``-``end`` nearest ``point``."""
    along = sub(end, start)
    length_squared = dot(along, along)
    s = dot(sub(point, start), along) / length_squared if length_squared > 0 else like(length_squared, 0.0)
    return add(start, scale(clip01(s), along))


@kernel
def touching_feature(vertices, on, slack):
    """What the ``on`` vertices of ``vertices`` span, within ``slack``: (kind, first,
    last) — 1 a point (all within it of each other), 2 a segment (all within it of
    the line through the two farthest apart, ``first`` and ``last``: three collinear
    corners of a sliver triangle are its longest edge, not a face), else 3 a polygon."""
    count = vertices.shape[0]
    farthest, first_index, last_index = -like(slack, 1.0), 0, 0
    for i in range(count):
        for j in range(count):
            if on[i] and on[j]:
                gap = sub(row(vertices, i), row(vertices, j))
                distance = sqrt(dot(gap, gap))
                if distance > farthest:
                    farthest, first_index, last_index = distance, i, j
    first, last = row(vertices, first_index), row(vertices, last_index)
    along = sub(last, first)
    extent = sqrt(dot(along, along))
    straight = True
    for i in range(count):
        if on[i]:
            crossed = cross(sub(row(vertices, i), first), along)
            if not sqrt(dot(crossed, crossed)) / extent <= slack:
                straight = False
    kind = 1 if extent <= slack else 2 if straight else 3
    return kind, first, last


@kernel
def _support(vertices, normal, lowest, slack, on):
    """Mark in ``on`` the vertices extreme along ``normal`` (lowest or highest) within
    ``slack``; returns how many."""
    extreme = dot(row(vertices, 0), normal)
    for i in range(1, vertices.shape[0]):
        height = dot(row(vertices, i), normal)
        extreme = minimum(extreme, height) if lowest else maximum(extreme, height)
    count = 0
    for i in range(vertices.shape[0]):
        on[i] = abs(dot(row(vertices, i), normal) - extreme) <= slack
        count += on[i]
    return count


@kernel
def _feature_edge(edge_ends, on, e) -> bool:
    """Whether edge ``e`` lies in a touching feature (both ends on it)."""
    return on[edge_ends[e, 0]] and on[edge_ends[e, 1]]


@kernel
def _middle(vertices, on):
    """The mean of the ``on`` vertices."""
    zero = like(vertices[0, 0], 0.0)
    total, count = (zero, zero, zero), 0
    for i in range(vertices.shape[0]):
        if on[i]:
            total, count = add(total, row(vertices, i)), count + 1
    count = max(count, 1)
    return (total[0] / count, total[1] / count, total[2] / count)


@kernel
def in_feature(point, vertices, edge_ends, on, kind, first, last, normal, slack):
    """Whether ``point`` (in the contact plane) lies in a polytope's touching feature
    (its vertices projected onto that plane): within ``slack`` of a touching point
    or segment, or inside every boundary edge of a touching polygon (on the side of
    its other vertices, seen along the normal).  An edge with touching vertices
    beyond it on both sides is inside the polygon, not a boundary: two triangles of
    a hull coplanar within ``slack`` (a float32 box's face) touch as one quad, and
    their shared diagonal must not cut it (issue #31: a point 0.08 off)."""
    nearest = _nearest_on_segment(first, last, point)
    gap = sub(point, nearest)
    near_segment = sqrt(dot(gap, gap)) <= slack
    if edge_ends.shape[0] == 0 or kind != 3:
        return near_segment
    for e in range(edge_ends.shape[0]):
        if not _feature_edge(edge_ends, on, e):
            continue
        start = row(vertices, edge_ends[e, 0])
        edge = sub(row(vertices, edge_ends[e, 1]), start)
        inward = cross(normal, edge)  # in the plane, square to the edge
        margin = slack * sqrt(dot(edge, edge))
        lowest, highest = like(slack, 0.0), like(slack, 0.0)
        for i in range(vertices.shape[0]):
            if on[i]:
                side = dot(inward, sub(row(vertices, i), start))
                lowest, highest = minimum(lowest, side), maximum(highest, side)
        if lowest < -margin and highest > margin:
            continue  # a diagonal of the touching polygon
        if highest <= margin and lowest < -margin:
            inward = (-inward[0], -inward[1], -inward[2])
        if not dot(inward, sub(point, start)) >= -margin:
            return False
    return True


@kernel
def _nearest_in_feature(point, vertices, edge_ends, on, kind, first, last, normal):
    """The point of a polytope's touching feature nearest ``point``: of a touching
    point or segment; of a polygon, the point itself where it is inside, else the
    nearest point of the polygon's edges."""
    if edge_ends.shape[0] == 0 or kind != 3:
        return _nearest_on_segment(first, last, point)
    if in_feature(point, vertices, edge_ends, on, kind, first, last, normal, like(point[0], 0.0)):
        return point
    best, best_distance = point, like(point[0], math.inf)
    for e in range(edge_ends.shape[0]):
        if _feature_edge(edge_ends, on, e):
            candidate = _nearest_on_segment(row(vertices, edge_ends[e, 0]), row(vertices, edge_ends[e, 1]), point)
            gap = sub(candidate, point)
            distance = sqrt(dot(gap, gap))
            if distance < best_distance:
                best, best_distance = candidate, distance
    return best


@kernel
def contact_point(flat_a, a_edge_ends, on_a, kind_a, first_a, last_a, flat_b, b_edge_ends, on_b, kind_b, first_b,
                  last_b, normal, slack):
    """A point of the contact set, on B's supporting plane (both shapes' vertices
    projected onto it along the normal).

    The touching features are convex sets in that plane; where they overlap is the
    contact set, a convex polygon whose corners are A's touching corners inside B's
    feature, B's inside A's, and the crossings of their touching edges (not parallel
    ones: their overlap's ends are already corners).  Their mean lies in it: in both
    shapes, where they touch.  Where round-off leaves no corner (features touching
    within ``slack`` only), the nearest point of B's feature to the middle of A's."""
    zero = like(slack, 0.0)
    total_a, total_b, total_crossings, number = (zero, zero, zero), (zero, zero, zero), (zero, zero, zero), 0
    for i in range(flat_a.shape[0]):
        point = row(flat_a, i)
        if on_a[i] and in_feature(point, flat_b, b_edge_ends, on_b, kind_b, first_b, last_b, normal, slack):
            total_a, number = add(total_a, point), number + 1
    for i in range(flat_b.shape[0]):
        point = row(flat_b, i)
        if on_b[i] and in_feature(point, flat_a, a_edge_ends, on_a, kind_a, first_a, last_a, normal, slack):
            total_b, number = add(total_b, point), number + 1
    for i in range(a_edge_ends.shape[0]):
        if not _feature_edge(a_edge_ends, on_a, i):
            continue
        a0 = row(flat_a, a_edge_ends[i, 0])
        along_a = sub(row(flat_a, a_edge_ends[i, 1]), a0)
        for j in range(b_edge_ends.shape[0]):
            if not _feature_edge(b_edge_ends, on_b, j):
                continue
            b0 = row(flat_b, b_edge_ends[j, 0])
            along_b = sub(row(flat_b, b_edge_ends[j, 1]), b0)
            turn = cross(along_a, along_b)
            if not sqrt(dot(turn, turn)) > like(slack, tolerance.HULL_RTOL) * sqrt(dot(along_a, along_a)) \
                    * sqrt(dot(along_b, along_b)):
                continue
            s, w = closest_parameters(a0, along_a, b0, along_b)
            on_b_edge = add(b0, scale(w, along_b))
            gap = sub(add(a0, scale(s, along_a)), on_b_edge)
            if sqrt(dot(gap, gap)) <= slack:
                total_crossings, number = add(total_crossings, on_b_edge), number + 1
    if number > 0:
        total = add(add(total_a, total_b), total_crossings)
        return (total[0] / number, total[1] / number, total[2] / number)
    return _nearest_in_feature(_middle(flat_a, on_a), flat_b, b_edge_ends, on_b, kind_b, first_b, last_b, normal)


@kernel
def _onto_plane(vertices, normal, plane):
    """``vertices`` projected along ``normal`` onto the plane ``dot(normal, x) == plane``."""
    flat = np.empty((vertices.shape[0], 3), vertices.dtype)
    for i in range(vertices.shape[0]):
        point = row(vertices, i)
        flat[i, 0], flat[i, 1], flat[i, 2] = sub(point, scale(dot(point, normal) - plane, normal))
    return flat


@kernel
def contact_features(a_vertices, a_edge_ends, b_vertices, b_edge_ends, b_normals, b_faces, b_dimension, direction,
                     t, normal, rtol):
    """(point, B's feature code and index, face index, what A's and B's touching
    features span (1 a point, 2 a segment, 3 a polygon)) at a contact: B's vertices
    extreme along the normal and A's (moved to t) extreme against it say which
    features touch (within ``rtol`` of the scale: ``contact_rtol``)."""
    zero = like(direction[0], 0.0)
    hit = t == t
    moved = np.empty_like(a_vertices)
    largest = zero
    for i in range(a_vertices.shape[0]):
        for k in range(3):
            moved[i, k] = a_vertices[i, k] + (t if hit else zero) * direction[k]
            largest = maximum(largest, abs(moved[i, k]))
    largest_b = zero
    for i in range(b_vertices.shape[0]):
        largest_b = maximum(largest_b, largest_magnitude(row(b_vertices, i)))
    slack = like(zero, rtol) * maximum(largest, largest_b)
    normal = normal if hit else (zero, zero, zero)
    plane = dot(row(b_vertices, 0), normal)
    for i in range(1, b_vertices.shape[0]):
        plane = maximum(plane, dot(row(b_vertices, i), normal))
    flat_a, flat_b = _onto_plane(moved, normal, plane), _onto_plane(b_vertices, normal, plane)
    on_a, on_b = np.empty(moved.shape[0], np.bool_), np.empty(b_vertices.shape[0], np.bool_)
    _support(moved, normal, True, slack, on_a)
    _support(b_vertices, normal, False, slack, on_b)
    kind_a, first_a, last_a = touching_feature(flat_a, on_a, slack)
    kind_b, first_b, last_b = touching_feature(flat_b, on_b, slack)
    face_index = -1
    if b_faces > 0:
        face_index, best = 0, dot(row(b_normals, 0), normal)
        for f in range(1, b_normals.shape[0]):
            if dot(row(b_normals, f), normal) > best:
                face_index, best = f, dot(row(b_normals, f), normal)
    code, index = _feature_of(flat_b, b_edge_ends, b_dimension, on_b, kind_b, first_b, last_b, face_index)
    point = contact_point(flat_a, a_edge_ends, on_a, kind_a, first_a, last_a, flat_b, b_edge_ends, on_b, kind_b,
                          first_b, last_b, normal, slack)
    return point, code, index, face_index, kind_a, kind_b


@kernel
def _feature_of(flat_b, edge_ends, dimension, on, kind, first, last, face_index):
    """(code, index) of B's touching feature: its vertex; the edge joining the ends of
    a touching segment (any edge of a straight polytope; failing such an edge, the
    face); its face."""
    first_vertex, last_vertex = -1, -1
    for i in range(flat_b.shape[0]):
        point = row(flat_b, i)
        if on[i] and first_vertex < 0 and point[0] == first[0] and point[1] == first[1] and point[2] == first[2]:
            first_vertex = i
        if on[i] and last_vertex < 0 and point[0] == last[0] and point[1] == last[1] and point[2] == last[2]:
            last_vertex = i
    first_vertex, last_vertex = max(first_vertex, 0), max(last_vertex, 0)
    joining = -1
    for e in range(edge_ends.shape[0]):
        ends = (edge_ends[e, 0], edge_ends[e, 1])
        if joining < 0 and (ends == (first_vertex, last_vertex) or ends == (last_vertex, first_vertex)):
            joining = e
    if kind == 1:
        return VERTEX, first_vertex
    if kind == 2 and (joining >= 0 or dimension == 1):
        return EDGE, 0 if dimension == 1 else max(joining, 0)
    return FACE, max(face_index, 0)
