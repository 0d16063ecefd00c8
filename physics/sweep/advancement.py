"""Conservative advancement: the first contact of two shapes that move *and turn*, compiled.

A body's motion over t in [0, 1] (``MOTION_WIDTH`` floats: direction d, unit axis u,
angle θ, pivot p, interpolation) puts its point x (at t = 0) at

    x(t) = p + t d + R(t) (x - p),    R(t) = the turn about u by φ(t),

    slerp:  φ(t) = θ t                                   (constant angular velocity)
    nlerp:  φ(t) = 2 atan2(t sin(θ/2), 1 - t + t cos(θ/2)) (the quaternion lerped from
            identity to the end turn and normalized, as Box2D / Box3D sweep)

and φ(1) = θ either way.  The angular speed φ' is θ for slerp; for nlerp
φ'(t) = 2 sin(θ/2) / ((1-t)² + t² + 2t(1-t) cos(θ/2)), from 2 sin(θ/2) at the ends to
4 tan(θ/4) at t = 1/2 (``angular_speeds``).  So a point at distance r from the pivot
moves at most at |d| + Ω_max r (``turning.speed_bound``).

Conservative advancement (Mirtich; Zhang et al.'s C²A bound, taken per vertex): at
t_k the cores' closest features (GJK: ``gjk.closest_between``) give a unit axis n
from A to B (``feature_axis``).  The separation of the cores' hulls along the fixed n
is the least gap n · (b_j - a_i) - radii over their vertices, and each vertex's
approach along n over the next h is bounded by b h + a h² / 2 (``approach_terms``:
its speed now, the turn's lever arm about the axis line for how fast that speed can
grow), so no contact can come before

    t_{k+1} = t_k + min over (i, j) of the positive root of
              (a_i + a_j) h² / 2 + (b_i + b_j) h = gap_ij        (``safe_advance``)

(none: never, a miss).  The vertex that touches first has b equal to its actual
approach speed, so near the contact the steps converge about quadratically, not
with the fixed ratio of a global Lipschitz bound.  The steps repeat until the
cores' distance minus the radii is within ``tolerance`` (a hit at t_k: the shapes
touch there to within the tolerance, and by the bound no contact came before t_k),
t passes ``bound`` (a miss), or ``MAX_ADVANCES`` steps are taken (``UNDECIDED``: no
contact before the last t_k, nothing known after).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import prange

from sweeplab.physics.core import EDGE, FACE, VERTEX
from sweeplab.physics.gjk import closest_between, largest_core, put
from sweeplab.physics.geometry import add, cross, dot, maximum, row, scale, sqrt, sub
from sweeplab.physics.kernels import entry, kernel
from sweeplab.physics.lanes import lane_loop
from sweeplab.physics.sweep.lane_answer import LaneAnswer, miss
from sweeplab.physics.traversal import FIRST_HIT, walk_query

PARALLEL_MIN_PAIRS = 256
"""Pair lanes from which a batch runs in parallel (an advancement is tens of GJK
distances: far more work than a linear pair test)."""

LANE_CHUNK = 64
"""Lanes of a batch that share one ``workspace`` (a chunk runs on one thread)."""

PARALLEL_MIN_WALKS = 64
"""Mesh lanes from which the walks run in parallel (each walks a tree and advances at
its leaves: far more work than a pair)."""

SLERP, NLERP = 0, 1
"""Interpolation codes (a motion's last float)."""

MOTION_WIDTH = 11
"""A motion's floats: direction (3), unit axis (3), angle, pivot (3), interpolation code."""

MAX_ADVANCES = 1000
"""Most advancement steps of one pair (each one GJK distance of at most
``gjk.GJK_MAX_ITERATIONS`` steps); a pair that has not touched nor passed t = 1 by
then answers ``UNDECIDED``.  A contact made by translating converges in a few steps;
one made by turning, whose bound counts the farthest point's speed, in tens; only
near-grazing turns (a minimum distance just above the tolerance) come near it."""

DISTANCE_ROUNDING = 8.0 * 2.220446049250313e-16
"""How far GJK's distance may be off, as a fraction of the pair's size: twice the
4 ulps its bounds meet within (``gjk.closest_between``).  The fallback step for cores
too close for their axis takes it off the distance."""

SLOW_STEPS = 0.25
"""A segment core is advanced piece by piece (``split_advance``, a dozen GJK distances)
only once a step has left more than this of the gap before it: where a vertex makes
the contact the steps converge about quadratically and need no pieces."""

BALL_SLACK = 2.0 ** -40
"""How much nearer than touching (a fraction of the pair's size) two bounding balls
must stay to rule a pair out (``never_meet``): far more than their rounding."""

WELL_APART = 2.0 ** -20
"""Cores this far apart (a fraction of the pair's size) have an axis sharp to about
ulp / 2^-20 = 2e-10 rad: a hit takes the normal of its own closest points there (a
rounded shape's cores stay its radii apart); closer, the normal of the step before."""

HIT, MISS, AT_START, UNDECIDED = range(4)
"""Status of an advancement: touching at t > 0; never touching in [0, bound]; touching
or overlapping at t = 0 (the linear test at t = 0 answers it); out of steps."""


@kernel
def turned_angle(angle, t, interpolation):
    """φ(t): the angle turned by time t (module docstring)."""
    if interpolation == NLERP:
        half = 0.5 * angle
        return 2.0 * math.atan2(t * math.sin(half), (1.0 - t) + t * math.cos(half))
    return angle * t


@kernel
def largest_angular_speed(angle, interpolation):
    """Ω = max over t of φ'(t): θ for slerp, 4 tan(θ/4) for nlerp."""
    if interpolation == NLERP:
        return 4.0 * math.tan(0.25 * angle)
    return angle


@kernel
def turn_rows(axis, angle):
    """Rows of the rotation by ``angle`` about the unit ``axis`` (Rodrigues:
    R = cos φ I + sin φ [u]x + (1 - cos φ) u uᵀ); exactly the identity at angle 0."""
    c, s = math.cos(angle), math.sin(angle)
    k = 1.0 - c
    x, y, z = axis
    return ((c + k * x * x, k * x * y - s * z, k * x * z + s * y),
            (k * y * x + s * z, c + k * y * y, k * y * z - s * x),
            (k * z * x - s * y, k * z * y + s * x, c + k * z * z))


@kernel
def motion_parts(motion):
    """(direction, axis, angle, pivot, interpolation code) of a motion row."""
    return ((motion[0], motion[1], motion[2]), (motion[3], motion[4], motion[5]), motion[6],
            (motion[7], motion[8], motion[9]), int(motion[10]))


@kernel
def pose_points(points, motion, t, out):
    """``out[i]`` := where ``points[i]`` (at t = 0) is at time t; at t = 0, the points."""
    direction, axis, angle, pivot, interpolation = motion_parts(motion)
    if t == 0.0:
        out[:points.shape[0]] = points
        return
    rows = turn_rows(axis, turned_angle(angle, t, interpolation))
    origin = add(pivot, scale(t, direction))
    for i in range(points.shape[0]):
        r = sub(row(points, i), pivot)
        out[i, 0] = origin[0] + dot(rows[0], r)
        out[i, 1] = origin[1] + dot(rows[1], r)
        out[i, 2] = origin[2] + dot(rows[2], r)


@kernel
def angular_speeds(angle, interpolation):
    """(Ω_min, Ω_max): the least and largest angular speed over the sweep (slerp: θ,
    θ; nlerp: φ'(0) = 2 sin(θ/2) at the ends, 4 tan(θ/4) at t = 1/2)."""
    if interpolation == NLERP:
        return 2.0 * math.sin(0.5 * angle), largest_angular_speed(angle, interpolation)
    return angle, angle


@kernel
def lever_arms(points, motion, t, out):
    """``out[i]``: the distance of ``points[i]`` (posed at t) from the turn's axis line
    through the pivot (at t), which the turn keeps (so it bounds the turning speed at
    every t)."""
    direction, axis, angle, pivot, interpolation = motion_parts(motion)
    pivot = add(pivot, scale(t, direction))
    for i in range(points.shape[0]):
        r = sub(row(points, i), pivot)
        along_axis = dot(r, axis)
        out[i] = sqrt(maximum(dot(r, r) - along_axis * along_axis, 0.0))


@kernel
def fastest_approach(levers_a, motion_a, levers_b, motion_b):
    """The most the distance between the bodies can fall per unit t: |d_A - d_B| plus
    each body's largest angular speed times its longest lever arm."""
    relative = sub((motion_a[0], motion_a[1], motion_a[2]), (motion_b[0], motion_b[1], motion_b[2]))
    speed = sqrt(dot(relative, relative))
    for levers, motion in ((levers_a, motion_a), (levers_b, motion_b)):
        if motion[6] > 0.0:
            longest = 0.0
            for i in range(len(levers)):
                longest = maximum(longest, levers[i])
            speed += angular_speeds(motion[6], int(motion[10]))[1] * longest
    return speed


@kernel
def approach_terms(posed, i, lever, motion, t, toward):
    """(b, a): how fast point i of a body can approach along the unit ``toward`` over
    the next h of t: toward · x_i(t + h) - toward · x_i(t) <= b h + a h² / 2.

    x_i' = d + Ω(s) u x r_i(s) (u the unit axis, r_i from the travelling pivot), so
    toward · x_i' = toward · d + Ω(s) r_i(s) · (toward x u).  The turn moves r_i(s) by at
    most its lever arm times the angle turned, so r_i(s) · (toward x u) <= c + |toward
    x u| lever Ω_max h with c = r_i(t) · (toward x u); Ω(s) is in [Ω_min, Ω_max]:

        b = toward · d + (Ω_max if c >= 0 else Ω_min) c,   a = Ω_max² |toward x u| lever
    """
    direction, axis, angle, pivot, interpolation = motion_parts(motion)
    speed = dot(toward, direction)
    if angle == 0.0:
        return speed, 0.0
    slowest, fastest = angular_speeds(angle, interpolation)
    r = sub(row(posed, i), add(pivot, scale(t, direction)))
    across = cross(toward, axis)
    c = dot(r, across)
    return speed + (fastest if c >= 0.0 else slowest) * c, fastest * fastest * sqrt(dot(across, across)) * lever


@kernel
def nearest_of_still(posed, motion, axis, sign):
    """For a body that does not turn, the row least far along ``sign`` × ``axis`` (its
    vertex nearest the other body); -1 for a turning body (each vertex has its own
    speed)."""
    if motion[6] != 0.0:
        return -1
    nearest, lowest = 0, math.inf
    for i in range(posed.shape[0]):
        height = sign * dot(axis, row(posed, i))
        if height < lowest:
            nearest, lowest = i, height
    return nearest


@kernel
def safe_advance(posed_a, levers_a, motion_a, posed_b, levers_b, motion_b, axis, radii, t):
    """The largest h such that no point of A can come within ``radii`` of B along the
    fixed ``axis`` (from A to B) before t + h: the least over core rows (i, j) of the
    positive root of (a_i + a_j) h² / 2 + (b_i + b_j) h = gap_ij, with gap_ij =
    axis · (b_j - a_i) - radii and (b, a) from ``approach_terms`` (A approaching
    along the axis, B against it).  The separation of the cores' hulls along the axis
    is the least gap over vertex pairs, so none closes before h; inf: none ever.
    Returns (h, that separation); h = 0 where it is gone."""
    against = (-axis[0], -axis[1], -axis[2])
    step, least = math.inf, math.inf
    # a body that does not turn approaches with every vertex alike: only its nearest one counts
    nearest_b = nearest_of_still(posed_b, motion_b, axis, 1.0)
    nearest_a = nearest_of_still(posed_a, motion_a, axis, -1.0)
    first_a, last_a = (0, posed_a.shape[0]) if nearest_a < 0 else (nearest_a, nearest_a + 1)
    first_b, last_b = (0, posed_b.shape[0]) if nearest_b < 0 else (nearest_b, nearest_b + 1)
    for i in range(first_a, last_a):
        b_a, a_a = approach_terms(posed_a, i, levers_a[i], motion_a, t, axis)
        height_a = dot(axis, row(posed_a, i))
        for j in range(first_b, last_b):
            b_b, a_b = approach_terms(posed_b, j, levers_b[j], motion_b, t, against)
            gap = dot(axis, row(posed_b, j)) - height_a - radii
            linear, quadratic = b_a + b_b, a_a + a_b
            least = min(least, gap)
            if gap <= 0.0:
                return 0.0, least
            root_term = linear * linear + 2.0 * quadratic * gap
            denominator = linear + sqrt(root_term)
            if denominator > 0.0:
                step = min(step, 2.0 * gap / denominator)
    return step, least


@kernel
def split_advance(posed_a, motion_a, posed_b, levers_b, motion_b, plane, side, radii, t, on_a, gap):
    """A safe step for a segment core A (``safe_advance``'s, taken piece by piece).

    Along one fixed axis a turning segment's far end limits the step: it approaches
    the plane through B's support at its own speed, though B is not under it, so the
    steps converge only by the ratio of the contact's lever to the end's (a rod hit
    near its pivot: thousands of steps).  The distance from A to B is the least over
    pieces of A, so A is cut around its closest point c into [a0, c - δ], [c - δ, c + δ]
    and [c + δ, a1], each advanced along its own closest features' axis; the middle
    piece's ends are within δ of c, so its bound is nearly the contact's speed, and the
    outer pieces are at least about δ² / (2 R) further from B than c is.  The best of
    three δ (about sqrt(gap × length)) is taken.  0: no piece cut helps."""
    piece, levers, indices = np.empty((2, 3)), np.empty(2), np.full((2, 4), -1, np.int64)
    scratch = (np.empty((4, 3)), np.empty((4, 3)), np.empty((4, 3)))
    start, edge = row(posed_a, 0), sub(row(posed_a, 1), row(posed_a, 0))
    length_squared = dot(edge, edge)
    if length_squared == 0.0:
        return 0.0
    length = sqrt(length_squared)
    middle = min(max(dot(sub(on_a, start), edge) / length_squared, 0.0), 1.0)
    base = sqrt(maximum(gap, 0.0) * length)
    best = 0.0
    for delta in (0.25 * base, base, 4.0 * base):
        low, high = max(middle - delta / length, 0.0), min(middle + delta / length, 1.0)
        step = math.inf
        for first, last in ((0.0, low), (low, high), (high, 1.0)):
            if last <= first and not (first == low and last == high):  # (an empty outer piece)
                continue
            put(piece, 0, add(start, scale(first, edge)))
            put(piece, 1, add(start, scale(last, edge)))
            lever_arms(piece, motion_a, t, levers)
            distance, lower, axis, on_piece, on_b, count = separation(piece, posed_b, plane, side, motion_b, t,
                                                                      scratch, indices)
            if not distance - radii > 0.0:
                step = 0.0
                break
            piece_step, separated = safe_advance(piece, levers, motion_a, posed_b, levers_b, motion_b, axis, radii, t)
            step = min(step, piece_step)
            if step <= best:
                break
        best = maximum(best, step)
    return best


@kernel
def plane_gap(posed_a, plane, side, motion_b, t):
    """(separation along the plane's normal towards A's side, index of A's nearest
    core point) of A's posed core and a plane (normal, offset) translated by t d_B."""
    normal = (plane[0], plane[1], plane[2])
    offset = plane[3] + t * dot(normal, (motion_b[0], motion_b[1], motion_b[2]))
    nearest, gap = 0, math.inf
    for i in range(posed_a.shape[0]):
        height = side * (dot(normal, row(posed_a, i)) - offset)
        if height < gap:
            nearest, gap = i, height
    return gap, nearest


@kernel
def separation(posed_a, posed_b, plane, side, motion_b, t, scratch, indices):
    """(distance, separation, axis from A to B (unit), point on A's core, point on B's
    core, feature count): the cores' distance (an upper bound), their separation
    along the axis (a lower bound: exact supports), the closest points, and how many
    (A row, B row) pairs span them (in ``indices`` (2, 4); -1 for B's rows against a
    plane).  ``side`` != 0: B is the plane ``plane`` with A on that side of it."""
    if side != 0.0:
        gap, nearest = plane_gap(posed_a, plane, side, motion_b, t)
        axis = (-side * plane[0], -side * plane[1], -side * plane[2])
        on_a = row(posed_a, nearest)
        indices[0, 0], indices[1, 0] = nearest, -1
        return gap, gap, axis, on_a, add(on_a, scale(gap, axis)), 1
    simplex_a, simplex_b, differences = scratch
    distance, lower, v, weights, count = closest_between(posed_a, posed_b, simplex_a, simplex_b, differences,
                                                          indices[0], indices[1])
    on_a, on_b = scale(weights[0], row(simplex_a, 0)), scale(weights[0], row(simplex_b, 0))
    for k in range(1, count):
        on_a, on_b = add(on_a, scale(weights[k], row(simplex_a, k))), add(on_b, scale(weights[k], row(simplex_b, k)))
    axis = feature_axis(simplex_a, simplex_b, indices, count, v, distance)
    return distance, lower, axis, on_a, on_b, count


@kernel
def distinct_rows(rows, count):
    """(how many distinct core rows among ``rows[:count]``, the positions of the first
    three)."""
    first, second, third, distinct = 0, -1, -1, 1
    for k in range(1, count):
        if rows[k] != rows[first] and (second < 0 or rows[k] != rows[second]):
            if distinct == 1:
                second = k
            elif distinct == 2:
                third = k
            distinct += 1
    return distinct, first, second, third


@kernel
def point_or_edge_pair(indices, count):
    """Whether GJK's closest points are spanned by at most two rows of each core, in a
    simplex of fewer than four points (vertex or edge against vertex or edge)."""
    return count < 4 and distinct_rows(indices[0], count)[0] <= 2 and distinct_rows(indices[1], count)[0] <= 2


@kernel
def feature_axis(simplex_a, simplex_b, indices, count, v, distance):
    """The unit axis from A to B to advance along: the closest features' normal where
    they span a plane (a face of B, else of A: the normal of three of its points; two
    edges: their cross product; an edge and a vertex: v less its part along the edge),
    else v / |v|.  Near contact v is the small difference
    of large coordinates and its direction is off by about ulp(size) / |v|, which over a
    wide face loses more separation than is left; a face's own normal does not.
    Oriented along v; (0, 0, 0) where the cores meet."""
    if not distance > 0.0:
        return (0.0, 0.0, 0.0)
    n_a, a0, a1, a2 = distinct_rows(indices[0], count)
    n_b, b0, b1, b2 = distinct_rows(indices[1], count)
    normal = (0.0, 0.0, 0.0)
    if n_b >= 3:
        normal = cross(sub(row(simplex_b, b1), row(simplex_b, b0)), sub(row(simplex_b, b2), row(simplex_b, b0)))
    elif n_a >= 3:
        normal = cross(sub(row(simplex_a, a1), row(simplex_a, a0)), sub(row(simplex_a, a2), row(simplex_a, a0)))
    elif n_a == 2 and n_b == 2:
        normal = cross(sub(row(simplex_a, a1), row(simplex_a, a0)), sub(row(simplex_b, b1), row(simplex_b, b0)))
    elif n_a == 2 or n_b == 2:  # an edge and a vertex: v without its part along the edge
        edge = sub(row(simplex_a, a1), row(simplex_a, a0)) if n_a == 2 else \
            sub(row(simplex_b, b1), row(simplex_b, b0))
        edge_squared = dot(edge, edge)
        if edge_squared > 0.0:
            normal = sub(v, scale(dot(v, edge) / edge_squared, edge))
    length = sqrt(dot(normal, normal))
    if length > 0.0:
        sign = 1.0 if dot(normal, v) >= 0.0 else -1.0
        unit = scale(sign / length, normal)
        if dot(unit, v) > 0.5 * distance:  # the features' normal, not a sliver's
            return unit
    return scale(1.0 / distance, v)


@kernel
def scale_of(core_a, core_b, radius_a, radius_b, motion_a, motion_b):
    """The size a pair's tolerance is relative to: its largest coordinate, radius,
    pivot or direction component."""
    size = maximum(largest_core(core_a), largest_core(core_b))
    size = maximum(size, maximum(radius_a, radius_b))
    for k in (0, 1, 2, 7, 8, 9):
        size = maximum(size, maximum(abs(motion_a[k]), abs(motion_b[k])))
    return size


@kernel
def workspace(rows_a, rows_b):
    """Scratch for ``advance`` of cores of ``rows_a`` and ``rows_b`` rows: posed cores,
    lever arms, GJK's simplex (three (4, 3)), the spanning rows now and at the last
    step.  Made once per chunk of lanes (a dozen small arrays made for every pair took
    more time than the pair's steps)."""
    return (np.empty((rows_a, 3)), np.empty((rows_b, 3)), np.empty(rows_a), np.empty(rows_b),
            (np.empty((4, 3)), np.empty((4, 3)), np.empty((4, 3))), np.empty((2, 4), np.int64),
            np.empty((2, 4), np.int64))


@kernel
def never_meet(core_a, radius_a, motion_a, core_b, radius_b, motion_b, bound, slack):
    """Whether balls holding each body at every t (``ball_of``) stay apart by more
    than ``slack`` over [0, ``bound``]: then the bodies never touch."""
    center_a, reach_a = ball_of(core_a, radius_a, motion_a)
    center_b, reach_b = ball_of(core_b, radius_b, motion_b)
    velocity = sub((motion_a[0], motion_a[1], motion_a[2]), (motion_b[0], motion_b[1], motion_b[2]))
    return not entry_time(sub(center_a, center_b), velocity, reach_a + reach_b, slack) <= bound


@kernel
def advance(core_a, radius_a, motion_a, core_b, radius_b, motion_b, plane, relative_tolerance, bound, trace, work):
    """Conservative advancement of core A (k, 3) rounded by ``radius_a`` under
    ``motion_a`` against core B rounded by ``radius_b`` under ``motion_b`` (or, with
    ``plane`` = (normal, offset) not NaN, the plane, which only translates), until
    touching within ``relative_tolerance`` × the pair's size (module docstring).
    Bodies whose bounding balls never meet miss at once (``never_meet``).

    Returns (status, t, iterations, point on B's surface, normal from B towards A,
    indices (2, 4): the A and B core rows that span the closest points, count of
    them).  ``trace`` (t, distance, rate, advance arrays; length 0: none) gets one row
    per step; ``work``: a ``workspace`` for these cores."""
    nan3 = (math.nan, math.nan, math.nan)
    posed_a, posed_b, levers_a, levers_b, scratch, indices, last_indices = work
    indices[:, :] = -1
    radii = radius_a + radius_b
    size = scale_of(core_a, core_b, radius_a, radius_b, motion_a, motion_b)
    tolerance = relative_tolerance * size
    rounding = DISTANCE_ROUNDING * size
    if plane[0] != plane[0] and never_meet(core_a, radius_a, motion_a, core_b, radius_b, motion_b, bound,
                                           tolerance + BALL_SLACK * size):
        return MISS, math.nan, 0, nan3, nan3, indices, 0
    lever_arms(core_a, motion_a, 0.0, levers_a)
    lever_arms(core_b, motion_b, 0.0, levers_b)
    fastest = fastest_approach(levers_a, motion_a, levers_b, motion_b)
    side = 0.0
    if plane[0] == plane[0]:  # which side of the plane A starts on (its first core point's)
        height = dot((plane[0], plane[1], plane[2]), row(core_a, 0)) - plane[3]
        side = 1.0 if height >= 0.0 else -1.0
    t, iterations, steps = 0.0, 0, len(trace[0])
    last_axis, last_count, last_gap = nan3, 0, math.inf
    last_indices[:, :] = -1
    while True:
        pose_points(core_a, motion_a, t, posed_a)
        if side == 0.0:
            pose_points(core_b, motion_b, t, posed_b)
        else:  # every point of the plane is as far along its normal: one stands for all
            offset = plane[3] + t * (plane[0] * motion_b[0] + plane[1] * motion_b[1] + plane[2] * motion_b[2])
            posed_b[0, 0], posed_b[0, 1], posed_b[0, 2] = plane[0] * offset, plane[1] * offset, plane[2] * offset
        distance, lower, axis, on_a, on_b, count = separation(posed_a, posed_b, plane, side, motion_b, t, scratch,
                                                              indices)
        gap = distance - radii
        if gap <= tolerance:
            if t == 0.0:
                normal = (-axis[0], -axis[1], -axis[2])
                return AT_START, 0.0, iterations, add(on_b, scale(radius_b, normal)), normal, indices, count
            if distance > WELL_APART * size:  # rounded shapes: the cores' own axis is sharp at touching
                normal = (-axis[0], -axis[1], -axis[2])
                return HIT, t, iterations, add(on_b, scale(radius_b, normal)), normal, indices, count
            # cores that meet: the normal and features of the last advance, whose axis the shapes closed along,
            # found while they were apart by more than rounding (at touching GJK's direction and simplex are noise)
            normal = (-last_axis[0], -last_axis[1], -last_axis[2])
            return HIT, t, iterations, add(on_b, scale(radius_b, normal)), normal, last_indices, last_count
        if iterations == MAX_ADVANCES:
            return UNDECIDED, t, iterations, nan3, nan3, indices, count
        step, separated = safe_advance(posed_a, levers_a, motion_a, posed_b, levers_b, motion_b, axis, radii, t)
        if posed_a.shape[0] == 2 and step < math.inf and gap > SLOW_STEPS * last_gap:
            # a segment core whose steps shrink its gap slowly: its pieces, each with their own axis
            step = maximum(step, split_advance(posed_a, motion_a, posed_b, levers_b, motion_b, plane, side, radii, t,
                                               on_a, gap))
        if not step > 0.0 and gap > 2.0 * rounding and side == 0.0 and point_or_edge_pair(indices, count):
            # vertices and edges closer than their axis can be told (a zero-radius rod through a point: the axis is
            # off by ulp(size) / distance, and its far end's separation along it is gone): the distance itself,
            # less its rounding, over the fastest any point can approach.  Only there is GJK's distance its
            # closest features' own: against a face its simplex can stop flat, farther than the faces are
            step = (gap - 2.0 * rounding) / fastest
        if iterations < steps:
            trace[0][iterations], trace[1][iterations], trace[2][iterations], trace[3][iterations] = \
                t, separated, separated / step, step
        iterations += 1
        if not step > 0.0:  # no bound allows a step: the distance is within rounding but not the tolerance
            return UNDECIDED, t, iterations, nan3, nan3, indices, count
        if t + step > bound:
            return MISS, math.nan, iterations, nan3, nan3, indices, count
        t += step
        last_axis, last_count, last_gap = axis, count, gap
        last_indices[:, :] = indices


# --- a mesh: its sphere tree walked with the swept bound of the convex body ---------------

@kernel
def ball_of(points, radius, motion):
    """(center, radius) of a ball holding the body at every t, centred on where the
    center of its core's bounding ball goes by translation alone: the core's ball
    radius, plus ``radius``, plus the most a turn moves that center, |c - p| min(θ, 2)
    (a chord 2 |c - p| sin(φ/2) with φ <= θ)."""
    direction, axis, angle, pivot, interpolation = motion_parts(motion)
    low, high = row(points, 0), row(points, 0)
    for i in range(1, points.shape[0]):
        p = row(points, i)
        low = (min(low[0], p[0]), min(low[1], p[1]), min(low[2], p[2]))
        high = (max(high[0], p[0]), max(high[1], p[1]), max(high[2], p[2]))
    center = scale(0.5, add(low, high))
    farthest = 0.0
    for i in range(points.shape[0]):
        r = sub(row(points, i), center)
        farthest = maximum(farthest, dot(r, r))
    lever = sub(center, pivot)
    return center, sqrt(farthest) + radius + sqrt(dot(lever, lever)) * min(angle, 2.0)


@kernel
def entry_time(offset, velocity, reach_, slack):
    """Earliest t in [0, 1] with |offset + t velocity| <= reach_ + slack; +inf if none."""
    limit = reach_ + slack
    c = dot(offset, offset) - limit * limit
    if c <= 0.0:
        return 0.0
    a, b = dot(velocity, velocity), dot(offset, velocity)
    if a == 0.0 or b >= 0.0:
        return math.inf
    discriminant = b * b - a * c
    if discriminant < 0.0:
        return math.inf
    t = c / (-b + sqrt(discriminant))  # the smaller root, written without cancellation
    return t if t <= 1.0 else math.inf


class MeshQuery(NamedTuple):
    """One convex body against a mesh's sphere tree (``walk_query``'s query): the body's
    ``core``, ``radius`` and ``motion``; the ``ball`` (center, radius) holding it at
    every t and its translation ``velocity`` relative to the mesh's; the mesh's
    ``mesh_motion`` with its pivot and ``lever`` min(θ, 2); the node tests' ``slack``;
    the leaves' ``relative_tolerance``; ``no_plane`` (NaN), ``no_trace`` and the leaves'
    ``work`` (``workspace``)."""

    core: np.ndarray
    radius: float
    motion: np.ndarray
    ball_center: tuple
    ball_radius: float
    velocity: tuple
    mesh_motion: np.ndarray
    mesh_pivot: tuple
    lever: float
    slack: float
    relative_tolerance: float
    no_plane: np.ndarray
    no_trace: tuple
    work: tuple


@kernel(inline=True)
def node_entry(query, center, radius):
    """When the body's ball can first reach a node's sphere (which moves with the mesh,
    its reach grown by the most the mesh's turn moves its center): ``entry_time``."""
    lever = sub(center, query.mesh_pivot)
    node_reach = radius + sqrt(dot(lever, lever)) * query.lever
    return entry_time(sub(query.ball_center, center), query.velocity, query.ball_radius + node_reach, query.slack)


@kernel
def polygon_feature(indices, count, corners):
    """(feature code, index) of the closest points spanned by rows ``indices[:count]`` of
    a polygon's ``corners`` loop: one corner a vertex, two an edge (edge i from corner
    i to i + 1), three or more its face 0."""
    distinct, at_first, at_second, _ = distinct_rows(indices, count)
    first, second = indices[at_first], indices[at_second]
    if distinct == 1:
        return VERTEX, first
    if distinct == 2:
        low, high = min(first, second), max(first, second)
        return EDGE, (high if (low == 0 and high == corners - 1 and corners > 2) else low)
    return FACE, 0


@kernel(inline=True)
def leaf_advance(query, face, triangle, bound):
    """The advancement of the body against one triangle (moving with the mesh), as a
    ``LaneAnswer``: a hit; t = 0 with feature code ``AT_START_CODE`` where they touch
    at the start; t = the last safe time with ``UNDECIDED_CODE`` where the steps ran
    out (so the first-hit rule keeps the earliest of hits and undecided leaves)."""
    status, t, iterations, point, normal, indices, count = advance(
        query.core, query.radius, query.motion, triangle, 0.0, query.mesh_motion, query.no_plane,
        query.relative_tolerance, bound, query.no_trace, query.work)
    nan = math.nan
    if status == MISS:
        return LaneAnswer(nan, (nan, nan, nan), (nan, nan, nan), nan, -1, -1)
    if status == HIT:
        code, index = polygon_feature(indices[1], count, 3)
        return LaneAnswer(t, point, normal, nan, code, index)
    return LaneAnswer(t, (nan, nan, nan), (nan, nan, nan), nan, AT_START_CODE if status == AT_START else UNDECIDED_CODE,
                      0)


AT_START_CODE, UNDECIDED_CODE = 4, 3
"""Feature codes a mesh leaf answers for a touch at t = 0 and for steps run out (beyond
``core.FACE``: the first-hit rule ranks them first at equal t)."""


@kernel
def mesh_advance(tree, core, radius, motion, mesh_motion, relative_tolerance, slack):
    """The first contact of a convex body with a mesh (local coordinates): (LaneAnswer,
    face) of the walk (``walk_query`` with ``node_entry`` and ``leaf_advance``).  The
    walk's every-hit and trace arrays are the lane's own, empty (a first-hit walk
    without a trace writes none): made here, as a tuple of tuples they could not be an
    argument of the lane loop (numba's parfor lowering refuses one reaching a
    ``prange`` body: "scalar type Tuple(...) given for non scalar argument")."""
    direction, axis, angle, pivot, interpolation = motion_parts(mesh_motion)
    center, ball_radius = ball_of(core, radius, motion)
    velocity = sub((motion[0], motion[1], motion[2]), direction)
    no_plane = np.full(4, math.nan)
    no_trace = (np.empty(0), np.empty(0), np.empty(0), np.empty(0))
    query = MeshQuery(core, radius, motion, center, ball_radius, velocity, mesh_motion, pivot, min(angle, 2.0), slack,
                      relative_tolerance, no_plane, no_trace, workspace(core.shape[0], 3))
    found = (np.empty(0), np.empty((0, 3)), np.empty((0, 3)), np.empty(0), np.empty(0, np.int64),
             np.empty(0, np.int64), np.empty(0, np.int64))
    trace = (np.empty(0, np.int64), np.empty(0), np.empty(0, np.int64))
    return walk_query(tree, query, node_entry, leaf_advance, FIRST_HIT, math.inf, found, np.zeros(1, np.int64), trace,
                      np.zeros(1, np.int64), miss(0.0))


# --- lanes ---------------------------------------------------------------------------------

@kernel
def store_features(i, indices, count, corners_a, corners_b, codes, features, spans):
    """Row i of the features of both bodies at a contact: ``codes``/``features`` (N, 2)
    by ``polygon_feature`` over each core's rows, ``spans`` (N, 2, 4) the core rows
    that span the closest points (-1 past ``count``)."""
    for body, corners in ((0, corners_a), (1, corners_b)):
        if indices[body, 0] < 0:  # a plane
            codes[i, body], features[i, body] = FACE, 0
        else:
            codes[i, body], features[i, body] = polygon_feature(indices[body], count, corners)
        for k in range(4):
            spans[i, body, k] = indices[body, k] if k < count else -1


@lane_loop(min_lanes=PARALLEL_MIN_PAIRS)
def pair_lanes(core_a, radius_a, motion_a, core_b, radius_b, motion_b, plane, relative_tolerance, status, t,
               iterations, point, normal, codes, features, spans):
    """Lane i: ``advance`` of row i of each input to 1, its answer into row i of the
    outputs (status, t, iterations, point, normal; features: ``store_features``); in
    chunks of ``LANE_CHUNK`` lanes sharing one ``workspace``."""
    no_trace = (np.empty(0), np.empty(0), np.empty(0), np.empty(0))
    count = len(radius_a)
    for chunk in prange((count + LANE_CHUNK - 1) // LANE_CHUNK):
        work = workspace(core_a.shape[1], core_b.shape[1])
        for i in range(chunk * LANE_CHUNK, min(count, (chunk + 1) * LANE_CHUNK)):
            answer = advance(core_a[i], radius_a[i], motion_a[i], core_b[i], radius_b[i], motion_b[i], plane[i],
                             relative_tolerance, 1.0, no_trace, work)
            status[i], t[i], iterations[i] = answer[0], answer[1], answer[2]
            for k in range(3):
                point[i, k], normal[i, k] = answer[3][k], answer[4][k]
            store_features(i, answer[5], answer[6], core_a.shape[1], core_b.shape[1], codes, features, spans)


@entry
def traced_advance(core_a, radius_a, motion_a, core_b, radius_b, motion_b, plane, relative_tolerance, trace):
    """One pair's ``advance`` to 1 with every step written to ``trace``: (status, t,
    iterations)."""
    answer = advance(core_a, radius_a, motion_a, core_b, radius_b, motion_b, plane, relative_tolerance, 1.0, trace,
                     workspace(core_a.shape[0], core_b.shape[0]))
    return answer[0], answer[1], answer[2]


@lane_loop(min_lanes=PARALLEL_MIN_WALKS)
def mesh_lanes(tree, vertices, faces, core, radius, motion, mesh_motion, relative_tolerance, slack, status, t,
               iterations, point, normal, codes, features, spans, face):
    """Lane i: the body's first contact with the mesh (``mesh_advance``; local
    coordinates), the winning triangle advanced once more for its steps and the body's
    feature."""
    no_plane = np.full(4, math.nan)
    no_trace = (np.empty(0), np.empty(0), np.empty(0), np.empty(0))
    for i in prange(len(radius)):
        best, best_face = mesh_advance(tree, core[i], radius[i], motion[i], mesh_motion[i], relative_tolerance, slack)
        face[i] = best_face
        if best_face < 0:
            status[i], t[i], iterations[i] = MISS, math.nan, 0
            continue
        triangle = np.empty((3, 3))  # (the lane's own: lanes run on several threads)
        for corner in range(3):
            for k in range(3):
                triangle[corner, k] = vertices[faces[best_face, corner], k]
        answer = advance(core[i], radius[i], motion[i], triangle, 0.0, mesh_motion[i], no_plane, relative_tolerance,
                         1.0, no_trace, workspace(core.shape[1], 3))
        status[i], t[i], iterations[i] = answer[0], answer[1], answer[2]
        for k in range(3):
            point[i, k], normal[i, k] = answer[3][k], answer[4][k]
        store_features(i, answer[5], answer[6], core.shape[1], 3, codes, features, spans)


@entry
def one_advance(core_a, radius_a, motion_a, core_b, radius_b, motion_b, plane, relative_tolerance):
    """One pair's ``advance`` to 1 for Python (``turning``'s scalar path): (status, t,
    iterations, point, normal, A's feature code and index, B's, the spanning rows
    (2, 4))."""
    no_trace = (np.empty(0), np.empty(0), np.empty(0), np.empty(0))
    status, t, iterations, point, normal, indices, count = advance(
        core_a, radius_a, motion_a, core_b, radius_b, motion_b, plane, relative_tolerance, 1.0, no_trace,
        workspace(core_a.shape[0], core_b.shape[0]))
    code_a, index_a = polygon_feature(indices[0], count, core_a.shape[0])
    code_b, index_b = polygon_feature(indices[1], count, core_b.shape[0])
    for body in range(2):
        for k in range(count, 4):
            indices[body, k] = -1
    return status, t, iterations, point, normal, code_a, index_a, code_b, index_b, indices
