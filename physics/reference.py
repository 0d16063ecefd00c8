"""An independent second answer for every supported sweep: bisection on an exact
distance function.  Slow (pure Python loops over one configuration); used by the
editor's disagreement badge and by fixtures whose expected values come from it.

It shares nothing with the analytic kernels but the shapes: the distance between
the moving ball (a sphere, or a point as a ball of radius 0) and the target is
the distance from the ball's center to the target's core (found by projecting
onto the face and clamping onto edges) minus both radii.  Along a linear sweep
that distance is convex in t, so its minimum over [0, 1] is found by ternary
search and the first touching time by bisection before it, each to float64
resolution (``tolerance.REFERENCE_SEARCH_STEPS``).  Where the center lies on the
target's core the normal is undefined; the reference then reports the motion's
direction (or +z), which comparisons should not rely on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from physics import tolerance
from physics.result import FEATURE_KINDS, SweepResult
from physics.shapes import Plane, Point, Polygon, Segment, Shape, Sphere, Triangle, vector_argument


@dataclass
class ReferenceTrace:
    """What the reference did: every (t, gap) it evaluated, in order."""

    samples: list[tuple[float, float]] = field(default_factory=list)


def _ball(shape: Shape):
    if isinstance(shape, Sphere):
        return _vector(shape.center), float(shape.radius)
    if isinstance(shape, Point):
        return _vector(shape.p), 0.0
    return None


# Plain-float 3-vectors: one configuration at a time, hundreds of evaluations each,
# where numpy's per-call overhead would dominate.
def _vector(values) -> tuple:
    return tuple(float(v) for v in np.asarray(values, float))


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _along(a, s, b):
    """a + s * b"""
    return (a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _length(a) -> float:
    return math.sqrt(_dot(a, a))


def _closest_on_segment(p, a, b):
    edge = _sub(b, a)
    length_squared = _dot(edge, edge)
    s = 0.0 if length_squared == 0 else min(1.0, max(0.0, _dot(_sub(p, a), edge) / length_squared))
    kind = ("vertex", 0) if s == 0 else ("vertex", 1) if s == 1 else ("edge", 0)
    return _along(a, s, edge), kind


def _polygon_closest(vertices):
    """The closest-point function of a convex polygon: the face projection if it
    falls inside, else the nearest point of the boundary."""
    count = len(vertices)
    normal = (0.0, 0.0, 0.0)
    for i in range(count):
        normal = _along(normal, 1.0, _cross(_sub(vertices[i], vertices[0]), _sub(vertices[(i + 1) % count], vertices[0])))
    length = _length(normal)
    unit = tuple(c / length for c in normal) if length > 0 else None
    edges = [(vertices[i], vertices[(i + 1) % count]) for i in range(count)]

    def closest(p):
        if unit is not None:
            projected = _along(p, -_dot(_sub(p, vertices[0]), unit), unit)
            if all(_dot(_cross(_sub(b, a), _sub(projected, a)), unit) >= 0 for a, b in edges):
                return projected, ("face", 0)
        best = None
        for i, (a, b) in enumerate(edges):
            point, (kind, end) = _closest_on_segment(p, a, b)
            distance = _length(_sub(p, point))
            if best is None or distance < best[0]:
                best = (distance, point, ("edge", i) if kind == "edge" else ("vertex", (i + end) % count))
        return best[1], best[2]

    return closest


def _target_core(target: Shape):
    """(closest-point function, target radius, face_index on a hit) of a target."""
    if isinstance(target, Sphere):
        center = _vector(target.center)
        return (lambda p: (center, ("face", 0))), float(target.radius), None
    if isinstance(target, Point):
        point = _vector(target.p)
        return (lambda p: (point, ("vertex", 0))), 0.0, None
    if isinstance(target, Segment):
        a, b = _vector(target.a), _vector(target.b)
        return (lambda p: _closest_on_segment(p, a, b)), 0.0, None
    if isinstance(target, Plane):
        normal, offset = _vector(target.normal), float(target.offset)
        return (lambda p: (_along(p, offset - _dot(p, normal), normal), ("face", 0))), 0.0, None
    if isinstance(target, Polygon):
        closest = _polygon_closest([_vector(v) for v in np.asarray(target.vertices, float)])
        return closest, 0.0, (None if isinstance(target, Triangle) else 0)
    raise TypeError(f"no reference for a {type(target).__name__} target")


def reference_sweep(moving: Shape, target: Shape, direction, trace: ReferenceTrace | None = None) -> SweepResult:
    """The first contact of ``moving`` swept along ``direction`` against ``target``
    (scalar shapes), found by bisection on the exact distance; same conventions as
    ``physics.sweep``.  Raises ``TypeError`` for pairs without a ball on one side."""
    direction = np.asarray(vector_argument(direction, "direction"), float)
    if moving.batch_shape != () or target.batch_shape != () or direction.shape != (3,):
        raise ValueError("reference_sweep takes one configuration (no batch dimensions)")
    swapped = _ball(moving) is None
    if swapped:
        if _ball(target) is None:
            raise TypeError(f"no reference for a moving {type(moving).__name__} against a {type(target).__name__}")
        moving, target, direction = target, moving, -direction
    center, radius = _ball(moving)
    closest, target_radius, face_index = _target_core(target)
    total = radius + target_radius
    motion = _vector(direction)

    def gap(t: float) -> float:
        position = _along(center, t, motion)
        value = _length(_sub(position, closest(position)[0])) - total
        if trace is not None:
            trace.samples.append((t, value))
        return value

    time = first_touch(gap)
    if time is None:
        return SweepResult.from_arrays(t=np.nan, point=np.full(3, np.nan), normal=np.full(3, np.nan),
                                       face_index=-1, penetration_depth=np.nan, feature_code=-1,
                                       feature_index=-1, scalar=True)
    position = np.array(_along(center, time, motion))
    core_point, (kind, index) = closest(tuple(position))
    core_point = np.array(core_point)
    separation = position - core_point
    distance = float(np.linalg.norm(separation))
    if distance > 0:
        normal = separation / distance
    else:  # the center on the core: no defined normal; the motion's direction (else +z) stands in
        speed = float(np.linalg.norm(direction))
        normal = direction / speed if speed > 0 else np.array([0.0, 0.0, 1.0])
    point = core_point + target_radius * normal
    overlap = total - distance if time == 0 and distance < total else np.nan
    if swapped:
        normal = -normal
        point = point - time * direction + (0 if np.isnan(overlap) else overlap) * normal
        kind, index = ("face", 0) if isinstance(moving, Sphere) else ("vertex", 0)
        face_index = None
    return SweepResult.from_arrays(t=np.float64(time), point=point, normal=normal,
                                   face_index=-1 if face_index is None else face_index,
                                   penetration_depth=np.float64(overlap), feature_code=FEATURE_KINDS.index(kind),
                                   feature_index=index, scalar=True)


def minimum_time(gap) -> float:
    """The t in [0, 1] where a convex ``gap`` of t is smallest (ternary search to
    float64 resolution)."""
    low, high = 0.0, 1.0
    for _ in range(tolerance.REFERENCE_SEARCH_STEPS):
        third = (high - low) / 3
        left, right = low + third, high - third
        if not low < left < right < high:
            break
        if gap(left) <= gap(right):
            high = right
        else:
            low = left
    return min((0.0, low, (low + high) / 2, high, 1.0), key=gap)


def first_touch(gap) -> float | None:
    """First t in [0, 1] with gap(t) <= 0 for a convex ``gap`` of t, or None: the
    minimum by ternary search, then bisection before it, to float64 resolution."""
    if gap(0.0) <= 0:
        return 0.0
    lowest = minimum_time(gap)
    if gap(lowest) > 0:
        return None
    outside, inside = 0.0, lowest
    for _ in range(tolerance.REFERENCE_SEARCH_STEPS):
        middle = (outside + inside) / 2
        if not outside < middle < inside:
            break
        if gap(middle) <= 0:
            inside = middle
        else:
            outside = middle
    return inside
