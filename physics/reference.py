"""An independent second answer for every supported sweep: bisection on an exact
distance function.  Used by the editor's disagreement badge and by fixtures whose
expected values come from it.

It shares nothing with the analytic kernels (``physics.sweep``) but the shapes and
Ericson's closest points of two segments (``physics.closest``): the distance
between the moving shape's core (a sphere's or point's center, a capsule's or
segment's axis) and the target's core (found by projecting onto the face, clamping
onto edges and, for segments, the closest points of two segments) minus both radii.
For cores that intersect, the reported depth is the summed radius (the
distance-based depth), a lower bound of the minimum translation.  Along a linear
sweep that distance is convex in t, so its minimum over [0, 1] is found by ternary
search and the first touching time by bisection before it, each to float64
resolution (``tolerance.REFERENCE_SEARCH_STEPS``).  Where the cores meet (zero
distance) the normal is undefined; the reference then reports the reversed motion
(at t > 0) or the motion (at t = 0, else +z), which comparisons should not rely on.

The distance and the searches are compiled scalar kernels (float64, 3-vectors as
tuples).  A configuration is a ``SweptPair``: the moving core as (k, 3) points, the
target as an integer code with its data in arrays, so that one kernel
(``pair_gap``) evaluates every target.  The searches ``first_touch`` and
``minimum_time`` take any convex gap: a ``SweptPair`` in compiled code, or a Python
callable of t from Python (the tests' own distances); ``gap_at`` evaluates either.
Python extracts the cores, swaps the pair where the moving shape has no core of its
own, and builds the ``SweepResult``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from sweeplab.physics.kernels import entry, kernel
from sweeplab.physics import tolerance
from sweeplab.physics.closest import closest_parameters
from sweeplab.physics.core import EDGE, FACE, VERTEX
from sweeplab.physics.geometry import add, along, cross, dot, row, sqrt, sub
from sweeplab.physics.result import SweepResult
from sweeplab.physics.shapes import Capsule, Plane, Point, Polygon, Segment, Shape, Sphere, Triangle, vector_argument

POINT, SEGMENT, PLANE, POLYGON = range(4)
"""Target codes of a ``SweptPair`` (what its ``points``, ``normal`` and ``offset``
hold: see there).  A sphere's or capsule's radius is in the pair's summed radius."""

TRACE_CAPACITY = 3 * tolerance.REFERENCE_SEARCH_STEPS + 5
"""Most gap evaluations of one reference sweep (the rows of a trace's sample array):
gap(0), two per ternary step, the minimum's four other candidates, one per bisection
step."""


@dataclass
class ReferenceTrace:
    """What the reference did: every (t, gap) it evaluated, in order."""

    samples: list[tuple[float, float]] = field(default_factory=list)


class SweptPair(NamedTuple):
    """One configuration, as the compiled gap reads it.

    ``core``: the moving core at t = 0, (1, 3) a point or (2, 3) a segment's ends;
    ``motion``: its displacement over the sweep; ``total``: the summed radius.
    The target: ``code`` and its ``points`` — POINT: the center (1, 3); SEGMENT: the
    ends (2, 3); POLYGON: the corners in order (V, 3); PLANE: none (0, 3) — its
    ``normal`` — POLYGON: Newell's area-weighted normal (zero without area); PLANE:
    the unit normal; else zero — and ``offset``: the plane's ``dot(normal, x)``.
    ``samples`` (N, 2) and ``sample_count`` (1,): each evaluated (t, gap) goes to row
    ``sample_count[0]`` while it fits (N = 0: no trace), and the count grows."""

    core: np.ndarray
    motion: tuple
    total: float
    code: int
    points: np.ndarray
    normal: tuple
    offset: float
    samples: np.ndarray
    sample_count: np.ndarray


# --- closest points, one lane -----------------------------------------------------------

@kernel
def point_at(start, s, edge, end):
    """start + s edge, the end point exactly itself at s = 1."""
    return end if s == 1 else along(start, s, edge)


@kernel
def segment_closest_points(p0, p1, q0, q1):
    """Closest points of segments p0-p1 and q0-q1 (Ericson, Real-Time Collision
    Detection 5.1.9: ``physics.closest.closest_parameters``), end points exact.
    Float 3-tuples in and out."""
    d1, d2 = sub(p1, p0), sub(q1, q0)
    s, w = closest_parameters(p0, d1, q0, d2)
    return point_at(p0, s, d1, p1), point_at(q0, w, d2, q1)


@kernel
def closest_on_segment(p, start, end):
    """(point of the segment start-end closest to ``p``, feature code, index): vertex
    0 or 1 at an end, edge 0 between.  ``p`` is a zero-length segment, projected onto
    ours: s = clamp((p - start) · e / e · e) with e = end - start (0 for e = 0)."""
    edge = sub(end, start)
    s, _ = closest_parameters(start, edge, p, (0.0, 0.0, 0.0))
    if s == 0:
        return start, VERTEX, 0
    if s == 1:
        return end, VERTEX, 1
    return along(start, s, edge), EDGE, 0


@entry
def newell_normal(corners):
    """Newell's area-weighted normal of a polygon loop (V, 3): Σ (v_i - v_0) x (v_i+1 - v_0),
    twice the area long, oriented by the winding; zero where it has no area.

    Deliberately not ``physics.core.newell_vector`` (nor, in ``closest_on_polygon``,
    ``core.inside_face``): the reference is a second opinion and imports nothing of
    the sweep kernels' geometry, so a bug there cannot hide by showing on both sides."""
    count = corners.shape[0]
    first = row(corners, 0)
    normal = (0.0, 0.0, 0.0)
    for i in range(count):
        normal = add(normal, cross(sub(row(corners, i), first), sub(row(corners, (i + 1) % count), first)))
    return normal


@kernel
def closest_on_polygon(corners, normal, p):
    """(point of a convex polygon closest to ``p``, feature code, index): the
    projection onto the face if it falls inside every edge (by the sign of
    (b - a) x (x - a) · n), else the nearest point of the boundary (the first edge
    of equally near ones; its end points are vertices)."""
    count = corners.shape[0]
    length = sqrt(dot(normal, normal))
    if length > 0:
        unit = (normal[0] / length, normal[1] / length, normal[2] / length)
        projected = along(p, -dot(sub(p, row(corners, 0)), unit), unit)
        inside = True
        for i in range(count):
            start = row(corners, i)
            inside = inside and dot(cross(sub(row(corners, (i + 1) % count), start), sub(projected, start)), unit) >= 0
        if inside:
            return projected, FACE, 0
    best, best_distance, best_code, best_index = p, math.inf, -1, -1
    for i in range(count):
        point, code, index = closest_on_segment(p, row(corners, i), row(corners, (i + 1) % count))
        distance = sqrt(dot(sub(p, point), sub(p, point)))
        if best_code < 0 or distance < best_distance:
            best, best_distance, best_code = point, distance, code
            best_index = i if code == EDGE else (i + index) % count
    return best, best_code, best_index


@kernel
def closest_on_target(pair, p):
    """(point of the target core closest to ``p``, feature code, index)."""
    if pair.code == POINT:
        return row(pair.points, 0), VERTEX, 0
    if pair.code == SEGMENT:
        return closest_on_segment(p, row(pair.points, 0), row(pair.points, 1))
    if pair.code == PLANE:
        return along(p, pair.offset - dot(p, pair.normal), pair.normal), FACE, 0
    return closest_on_polygon(pair.points, pair.normal, p)


@kernel
def distance_between(pair_of_points):
    """Distance between the two points of a (point, point) pair."""
    difference = sub(pair_of_points[0], pair_of_points[1])
    return sqrt(dot(difference, difference))


@kernel
def nearer(best, best_distance, candidate):
    """(closest-point pair, its distance): ``candidate`` where it is strictly nearer
    than ``best`` (at ``best_distance``), else ``best``."""
    distance = distance_between(candidate)
    return (candidate, distance) if distance < best_distance else (best, best_distance)


@kernel
def segment_to_plane(p0, p1, normal, offset):
    """Closest points of the segment p0-p1 and the plane ``dot(normal, x) == offset``:
    where the segment crosses it (heights h0, h1 of opposite signs), the crossing
    p0 + h0 / (h0 - h1) (p1 - p0) twice; else the nearer end and its projection."""
    h0, h1 = dot(p0, normal) - offset, dot(p1, normal) - offset
    if h0 * h1 <= 0 and h0 != h1:
        pierce = along(p0, h0 / (h0 - h1), sub(p1, p0))
        return pierce, pierce
    point, height = (p0, h0) if abs(h0) <= abs(h1) else (p1, h1)
    return point, along(point, -height, normal)


@kernel
def segment_to_polygon(p0, p1, corners, normal):
    """Closest points of the segment p0-p1 and a convex polygon: the nearest of (each
    end, its closest polygon point), (the segment, each edge) and, where the segment
    pierces the face, (the pierce point, itself) — distance exactly 0: the pierce
    point projected back onto the face would leave ~1e-16 of round-off, and a
    zero-radius sweep through the face would then seem to touch only at isolated
    instants.  The first of equally near pairs."""
    count = corners.shape[0]
    best, best_distance = nearer((p0, p0), math.inf, (p0, closest_on_polygon(corners, normal, p0)[0]))
    best, best_distance = nearer(best, best_distance, (p1, closest_on_polygon(corners, normal, p1)[0]))
    for i in range(count):
        best, best_distance = nearer(best, best_distance,
                                     segment_closest_points(p0, p1, row(corners, i), row(corners, (i + 1) % count)))
    h0, h1 = dot(sub(p0, row(corners, 0)), normal), dot(sub(p1, row(corners, 0)), normal)
    if dot(normal, normal) > 0 and h0 * h1 <= 0 and h0 != h1 and best_distance > 0:
        pierce = along(p0, h0 / (h0 - h1), sub(p1, p0))
        if closest_on_polygon(corners, normal, pierce)[1] == FACE:
            best = (pierce, pierce)
    return best


@kernel
def nearest(pair, t):
    """(point of the moving core, point of the target core) closest at time t."""
    start = along(row(pair.core, 0), t, pair.motion)
    if pair.core.shape[0] == 1:
        return start, closest_on_target(pair, start)[0]
    end = along(row(pair.core, 1), t, pair.motion)
    if pair.code == POINT:
        return closest_on_segment(row(pair.points, 0), start, end)[0], row(pair.points, 0)
    if pair.code == SEGMENT:
        return segment_closest_points(start, end, row(pair.points, 0), row(pair.points, 1))
    if pair.code == PLANE:
        return segment_to_plane(start, end, pair.normal, pair.offset)
    return segment_to_polygon(start, end, pair.points, pair.normal)


@kernel
def pair_gap(pair, t):
    """gap(t) = |closest points at t| - summed radius, recorded in the pair's samples."""
    value = distance_between(nearest(pair, t)) - pair.total
    i = pair.sample_count[0]
    if i < pair.samples.shape[0]:
        pair.samples[i, 0] = t
        pair.samples[i, 1] = value
    pair.sample_count[0] = i + 1
    return value


# --- the searches: one source for compiled pairs and Python callables ----------------------

def gap_at(gap, t):
    """gap(t) of a ``SweptPair`` (``pair_gap``) or of a Python callable of t."""
    return pair_gap(gap, t) if isinstance(gap, SweptPair) else gap(t)


@overload(gap_at)
def _gap_at(gap, t):
    if isinstance(gap, types.BaseNamedTuple) and gap.instance_class is SweptPair:
        return lambda gap, t: pair_gap(gap, t)


@register_jitable
def lowest_gap(gap, at_start):
    """(t, gap(t)) where a convex gap of t in [0, 1] is smallest, given ``at_start`` =
    gap(0): ternary search to float64 resolution (a step keeps the two thirds of the
    bracket [low, high] on the smaller side of its inner points), then the first
    smallest of t = 0, the bracket's ends and middle, and t = 1."""
    low, high = 0.0, 1.0
    for _ in range(tolerance.REFERENCE_SEARCH_STEPS):
        third = (high - low) / 3
        left, right = low + third, high - third
        if not low < left < right < high:
            break
        if gap_at(gap, left) <= gap_at(gap, right):
            high = right
        else:
            low = left
    best, smallest = 0.0, at_start
    for t in (low, (low + high) / 2, high, 1.0):
        value = gap_at(gap, t)
        if value < smallest:
            best, smallest = t, value
    return best, smallest


@register_jitable
def touch_time(gap):
    """First t in [0, 1] with gap(t) <= 0 for a convex gap of t, NaN if none: the
    minimum (``lowest_gap``), then bisection of [0, minimum] to float64 resolution."""
    at_start = gap_at(gap, 0.0)
    if at_start <= 0:
        return 0.0
    lowest, smallest = lowest_gap(gap, at_start)
    if smallest > 0:
        return math.nan
    outside, inside = 0.0, lowest
    for _ in range(tolerance.REFERENCE_SEARCH_STEPS):
        middle = (outside + inside) / 2
        if not outside < middle < inside:
            break
        if gap_at(gap, middle) <= 0:
            inside = middle
        else:
            outside = middle
    return inside


def minimum_time(gap) -> float:
    """The t in [0, 1] where a convex ``gap`` of t is smallest (ternary search to
    float64 resolution: ``lowest_gap``)."""
    return lowest_gap(gap, gap_at(gap, 0.0))[0]


def first_touch(gap) -> float | None:
    """First t in [0, 1] with gap(t) <= 0 for a convex ``gap`` of t, or None: the
    minimum by ternary search, then bisection before it, to float64 resolution
    (``touch_time``)."""
    time = touch_time(gap)
    return None if math.isnan(time) else time


# --- one sweep, compiled -------------------------------------------------------------------

@entry
def reference_contact(pair, target_radius, swapped):
    """The reference's answer for a pair: (t, point, normal, depth, feature code,
    index), t NaN and code -1 where no hit.

    ``point`` is on the target's surface (its core point + ``target_radius`` along the
    normal); ``depth`` the summed radius minus the cores' distance where they are
    closer at t = 0, else NaN.  ``swapped``: the pair is the original one with the
    subject changed (the original target moving along -d against the original moving
    shape): the normal is reversed, the point moved back to the original frame (and
    onto the original target's surface where they overlap), and the feature is the
    original target's: its core's feature at the point (vertex 0 of a ball's center)."""
    nan = math.nan
    time = touch_time(pair)
    if time != time:
        return nan, (nan, nan, nan), (nan, nan, nan), nan, -1, -1
    moving_point, core_point = nearest(pair, time)
    _, code, index = closest_on_target(pair, moving_point)
    difference = sub(moving_point, core_point)
    distance = sqrt(dot(difference, difference))
    if distance > 0:
        normal = (difference[0] / distance, difference[1] / distance, difference[2] / distance)
    else:  # the cores meet: no defined normal; against the motion when it arrives, along it at t = 0
        speed = sqrt(dot(pair.motion, pair.motion))
        sign = 1.0 if time == 0 else -1.0
        motion = pair.motion
        normal = (sign * motion[0] / speed, sign * motion[1] / speed, sign * motion[2] / speed) if speed > 0 \
            else (0.0, 0.0, 1.0)
    point = along(core_point, target_radius, normal)
    depth = pair.total - distance if time == 0 and distance < pair.total else nan
    if swapped:
        normal = (-normal[0], -normal[1], -normal[2])
        point = along(along(point, -time, pair.motion), 0.0 if depth != depth else depth, normal)
        if pair.core.shape[0] == 1:
            code, index = VERTEX, 0
        else:
            _, code, index = closest_on_segment(point, row(pair.core, 0), row(pair.core, 1))
    return time, point, normal, depth, code, index


# --- Python entry point --------------------------------------------------------------------

def _moving_core(shape: Shape):
    """(core points (k, 3), radius) of a shape that can be the moving subject: a
    ball's center, or a capsule's (segment's) two end points; None for others."""
    if isinstance(shape, (Sphere, Point)):
        center = shape.center if isinstance(shape, Sphere) else shape.p
        return np.array([center], float), float(shape.radius) if isinstance(shape, Sphere) else 0.0
    if isinstance(shape, (Capsule, Segment)):
        return np.array([shape.a, shape.b], float), float(shape.radius) if isinstance(shape, Capsule) else 0.0
    return None


def _target_core(target: Shape):
    """(code, points, normal, offset, radius) of a target (``SweptPair``)."""
    moving = _moving_core(target)
    zero = (0.0, 0.0, 0.0)
    if moving is not None:
        points, radius = moving
        return (POINT if len(points) == 1 else SEGMENT), points, zero, 0.0, radius
    if isinstance(target, Plane):
        return PLANE, np.zeros((0, 3)), tuple(float(v) for v in target.normal), float(target.offset), 0.0
    if isinstance(target, Polygon):
        corners = np.array(target.vertices, float)
        return POLYGON, corners, newell_normal(corners), 0.0, 0.0
    raise TypeError(f"no reference for a {type(target).__name__} target")


def _swept_pair(moving: Shape, target: Shape, direction, trace_rows: int) -> tuple[SweptPair, float, bool]:
    """(the ``SweptPair`` of one configuration, the target's radius, whether the pair
    was swapped: the target moving along -d where the moving shape has no core of
    its own); ``trace_rows`` rows for its samples.  ``TypeError`` for pairs without a
    ball on one side."""
    direction = np.asarray(vector_argument(direction, "direction"), float)
    if moving.batch_shape != () or target.batch_shape != () or direction.shape != (3,):
        raise ValueError("the reference takes one configuration (no batch dimensions)")
    swapped = _moving_core(moving) is None
    if swapped:
        if _moving_core(target) is None:
            raise TypeError(f"no reference for a moving {type(moving).__name__} against a {type(target).__name__}")
        moving, target, direction = target, moving, -direction
    core, radius = _moving_core(moving)
    code, points, normal, offset, target_radius = _target_core(target)
    pair = SweptPair(core, tuple(float(v) for v in direction), radius + target_radius, code, points, normal, offset,
                     np.empty((trace_rows, 2)), np.zeros(1, np.int64))
    return pair, target_radius, swapped


@entry
def lowest_pair_gap(pair):
    """(t, gap(t)) where the pair's gap is smallest over [0, 1] (``lowest_gap``)."""
    return lowest_gap(pair, pair_gap(pair, 0.0))


def closest_approach(moving: Shape, target: Shape, direction) -> tuple[float, float]:
    """(t, gap) where the cores of ``moving`` swept along ``direction`` and ``target``
    come closest over t in [0, 1]: gap = the cores' distance minus the summed radius,
    negative where the shapes overlap (down to minus the summed radius where the cores
    meet), found by ternary search to float64 resolution.  Scalar shapes; ``TypeError``
    for pairs without a ball on one side, as ``reference_sweep``."""
    pair, _, _ = _swept_pair(moving, target, direction, 0)
    t, gap = lowest_pair_gap(pair)
    return float(t), float(gap)


def reference_sweep(moving: Shape, target: Shape, direction, trace: ReferenceTrace | None = None) -> SweepResult:
    """The first contact of ``moving`` swept along ``direction`` against ``target``
    (scalar shapes), found by bisection on the exact distance; same conventions as
    ``physics.sweep``.  Raises ``TypeError`` for pairs without a ball on one side.
    ``trace`` receives every (t, gap) evaluated."""
    pair, target_radius, swapped = _swept_pair(moving, target, direction, TRACE_CAPACITY if trace is not None else 0)
    t, point, normal, depth, feature_code, feature_index = reference_contact(pair, target_radius, swapped)
    if trace is not None:
        trace.samples.extend((float(time), float(value)) for time, value in pair.samples[:pair.sample_count[0]])
    if isinstance(target, Sphere) and feature_code >= 0:  # a sphere's surface is its face 0
        feature_code = FACE
    face_index = 0 if isinstance(target, Polygon) and not isinstance(target, Triangle) else -1
    return SweepResult.from_arrays(t=np.float64(t), point=np.array(point), normal=np.array(normal),
                                   face_index=face_index, penetration_depth=np.float64(depth),
                                   feature_code=feature_code, feature_index=feature_index, scalar=True)
