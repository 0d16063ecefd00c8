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
        return np.asarray(shape.center, float), float(shape.radius)
    if isinstance(shape, Point):
        return np.asarray(shape.p, float), 0.0
    return None


def _closest_on_segment(p, a, b):
    edge = b - a
    length_squared = float(edge @ edge)
    s = 0.0 if length_squared == 0 else min(1.0, max(0.0, float((p - a) @ edge) / length_squared))
    kind = ("vertex", 0) if s == 0 else ("vertex", 1) if s == 1 else ("edge", 0)
    return a + s * edge, kind


def _closest_on_polygon(p, vertices):
    """Closest point of a convex polygon: the face projection if it falls inside,
    else the nearest point of the boundary."""
    count = len(vertices)
    normal = sum(np.cross(vertices[i] - vertices[0], vertices[(i + 1) % count] - vertices[0]) for i in range(count))
    length = float(np.linalg.norm(normal))
    if length > 0:
        normal = normal / length
        projected = p - float((p - vertices[0]) @ normal) * normal
        inside = all(float(np.cross(vertices[(i + 1) % count] - vertices[i], projected - vertices[i]) @ normal) >= 0
                     for i in range(count))
        if inside:
            return projected, ("face", 0)
    best = None
    for i in range(count):
        point, (kind, end) = _closest_on_segment(p, vertices[i], vertices[(i + 1) % count])
        distance = float(np.linalg.norm(p - point))
        if best is None or distance < best[0]:
            feature = ("edge", i) if kind == "edge" else ("vertex", (i + end) % count)
            best = (distance, point, feature)
    return best[1], best[2]


def _target_core(target: Shape):
    """(closest-point function, target radius, face_index on a hit) of a target."""
    if isinstance(target, Sphere):
        center = np.asarray(target.center, float)
        return (lambda p: (center, ("face", 0))), float(target.radius), None
    if isinstance(target, Point):
        point = np.asarray(target.p, float)
        return (lambda p: (point, ("vertex", 0))), 0.0, None
    if isinstance(target, Segment):
        a, b = np.asarray(target.a, float), np.asarray(target.b, float)
        return (lambda p: _closest_on_segment(p, a, b)), 0.0, None
    if isinstance(target, Plane):
        normal, offset = np.asarray(target.normal, float), float(target.offset)
        return (lambda p: (p - (float(p @ normal) - offset) * normal, ("face", 0))), 0.0, None
    if isinstance(target, Polygon):
        vertices = np.asarray(target.vertices, float)
        return (lambda p: _closest_on_polygon(p, vertices)), 0.0, (None if isinstance(target, Triangle) else 0)
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

    def gap(t: float) -> float:
        position = center + t * direction
        value = float(np.linalg.norm(position - closest(position)[0])) - total
        if trace is not None:
            trace.samples.append((t, value))
        return value

    time = first_touch(gap)
    if time is None:
        return SweepResult.from_arrays(t=np.nan, point=np.full(3, np.nan), normal=np.full(3, np.nan),
                                       face_index=-1, penetration_depth=np.nan, feature_code=-1,
                                       feature_index=-1, scalar=True)
    position = center + time * direction
    core_point, (kind, index) = closest(position)
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
