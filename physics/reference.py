"""An independent second answer for every supported sweep: bisection on an exact
distance function.  Slow (pure Python loops over one configuration); used by the
editor's disagreement badge and by fixtures whose expected values come from it.

It shares nothing with the analytic kernels but the shapes: the distance between
the moving shape's core (a sphere's or point's center, a capsule's or segment's
axis) and the target's core (found by projecting onto the face, clamping onto
edges and, for segments, Ericson's closest points of two segments) minus both
radii.  For cores that intersect, the reported depth is the summed radius (the
distance-based depth), a lower bound of the minimum translation.  Along a linear sweep
that distance is convex in t, so its minimum over [0, 1] is found by ternary
search and the first touching time by bisection before it, each to float64
resolution (``tolerance.REFERENCE_SEARCH_STEPS``).  Where the cores meet (zero
distance) the normal is undefined; the reference then reports the reversed motion
(at t > 0) or the motion (at t = 0, else +z), which comparisons should not rely on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from physics import tolerance
from physics.result import FEATURE_KINDS, SweepResult
from physics.shapes import Capsule, Plane, Point, Polygon, Segment, Shape, Sphere, Triangle, vector_argument


@dataclass
class ReferenceTrace:
    """What the reference did: every (t, gap) it evaluated, in order."""

    samples: list[tuple[float, float]] = field(default_factory=list)


def _moving_core(shape: Shape):
    """(core points, radius) of a shape that can be the moving subject: a ball's
    center, or a capsule's (segment's) two end points; None for others."""
    if isinstance(shape, Sphere):
        return (_vector(shape.center),), float(shape.radius)
    if isinstance(shape, Point):
        return (_vector(shape.p),), 0.0
    if isinstance(shape, Capsule):
        return (_vector(shape.a), _vector(shape.b)), float(shape.radius)
    if isinstance(shape, Segment):
        return (_vector(shape.a), _vector(shape.b)), 0.0
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


def segment_closest_points(p0, p1, q0, q1):
    """Closest points of segments p0-p1 and q0-q1 (Ericson, Real-Time Collision
    Detection 5.1.9), end points exact."""
    d1, d2, r = _sub(p1, p0), _sub(q1, q0), _sub(p0, q0)
    a, e, f = _dot(d1, d1), _dot(d2, d2), _dot(d2, r)
    if a == 0 and e == 0:
        return p0, q0
    if a == 0:
        s, t = 0.0, min(1.0, max(0.0, f / e))
    else:
        c = _dot(d1, r)
        if e == 0:
            s, t = min(1.0, max(0.0, -c / a)), 0.0
        else:
            b = _dot(d1, d2)
            denominator = a * e - b * b
            s = min(1.0, max(0.0, (b * f - c * e) / denominator)) if denominator != 0 else 0.0
            t = (b * s + f) / e
            if t < 0:
                t, s = 0.0, min(1.0, max(0.0, -c / a))
            elif t > 1:
                t, s = 1.0, min(1.0, max(0.0, (b - c) / a))
    return (p1 if s == 1 else _along(p0, s, d1)), (q1 if t == 1 else _along(q0, t, d2))


def _polygon_normal(vertices) -> tuple:
    """Newell's area-weighted normal of a polygon loop (zero where it has no area)."""
    count = len(vertices)
    normal = (0.0, 0.0, 0.0)
    for i in range(count):
        normal = _along(normal, 1.0, _cross(_sub(vertices[i], vertices[0]), _sub(vertices[(i + 1) % count], vertices[0])))
    return normal


def _polygon_closest(vertices):
    """The closest-point function of a convex polygon: the face projection if it
    falls inside, else the nearest point of the boundary."""
    count = len(vertices)
    normal = _polygon_normal(vertices)
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
    """(closest-point function, closest-pair-to-a-segment function, target radius,
    face_index on a hit) of a target."""
    if isinstance(target, (Sphere, Point)):
        center = _vector(target.center if isinstance(target, Sphere) else target.p)
        feature = ("face", 0) if isinstance(target, Sphere) else ("vertex", 0)
        radius = float(target.radius) if isinstance(target, Sphere) else 0.0
        return ((lambda p: (center, feature)), (lambda p0, p1: (_closest_on_segment(center, p0, p1)[0], center)),
                radius, None)
    if isinstance(target, (Segment, Capsule)):
        a, b = _vector(target.a), _vector(target.b)
        radius = float(target.radius) if isinstance(target, Capsule) else 0.0
        return (lambda p: _closest_on_segment(p, a, b)), (lambda p0, p1: segment_closest_points(p0, p1, a, b)), radius, None
    if isinstance(target, Plane):
        normal, offset = _vector(target.normal), float(target.offset)

        def plane_pair(p0, p1):
            h0, h1 = _dot(p0, normal) - offset, _dot(p1, normal) - offset
            if h0 * h1 <= 0 and h0 != h1:  # the segment crosses the plane
                pierce = _along(p0, h0 / (h0 - h1), _sub(p1, p0))
                return pierce, pierce
            point, height = (p0, h0) if abs(h0) <= abs(h1) else (p1, h1)
            return point, _along(point, -height, normal)

        return (lambda p: (_along(p, offset - _dot(p, normal), normal), ("face", 0))), plane_pair, 0.0, None
    if isinstance(target, Polygon):
        corners = [_vector(v) for v in np.asarray(target.vertices, float)]
        closest = _polygon_closest(corners)

        def polygon_pair(p0, p1):
            pairs = [(p, closest(p)[0]) for p in (p0, p1)]
            pairs += [segment_closest_points(p0, p1, corners[i], corners[(i + 1) % len(corners)]) for i in range(len(corners))]
            return min(pairs + _pierce(p0, p1, corners, closest), key=lambda pair: _length(_sub(*pair)))

        return closest, polygon_pair, 0.0, (None if isinstance(target, Triangle) else 0)
    raise TypeError(f"no reference for a {type(target).__name__} target")


def _pierce(p0, p1, corners, closest):
    """[(pierce point, pierce point)] where the segment pierces the polygon's face
    (distance exactly 0: the projection of the computed pierce point back onto the
    face would leave ~1e-16 of round-off, and a zero-radius sweep through the face
    would then seem to touch only at isolated instants), else []."""
    normal = _polygon_normal(corners)
    h0, h1 = _dot(_sub(p0, corners[0]), normal), _dot(_sub(p1, corners[0]), normal)
    if _length(normal) == 0 or h0 * h1 > 0 or h0 == h1:
        return []
    pierce = _along(p0, h0 / (h0 - h1), _sub(p1, p0))
    _, (kind, _) = closest(pierce)
    return [(pierce, pierce)] if kind == "face" else []


def reference_sweep(moving: Shape, target: Shape, direction, trace: ReferenceTrace | None = None) -> SweepResult:
    """The first contact of ``moving`` swept along ``direction`` against ``target``
    (scalar shapes), found by bisection on the exact distance; same conventions as
    ``physics.sweep``.  Raises ``TypeError`` for pairs without a ball on one side."""
    direction = np.asarray(vector_argument(direction, "direction"), float)
    if moving.batch_shape != () or target.batch_shape != () or direction.shape != (3,):
        raise ValueError("reference_sweep takes one configuration (no batch dimensions)")
    swapped = _moving_core(moving) is None
    if swapped:
        if _moving_core(target) is None:
            raise TypeError(f"no reference for a moving {type(moving).__name__} against a {type(target).__name__}")
        moving, target, direction = target, moving, -direction
    core, radius = _moving_core(moving)
    closest, segment_pair, target_radius, face_index = _target_core(target)
    total = radius + target_radius
    motion = _vector(direction)

    def nearest(t: float):
        """(point of the moving core, point of the target core) closest at time t."""
        moved = [_along(point, t, motion) for point in core]
        if len(moved) == 1:
            return moved[0], closest(moved[0])[0]
        return segment_pair(*moved)

    def gap(t: float) -> float:
        value = _length(_sub(*nearest(t))) - total
        if trace is not None:
            trace.samples.append((t, value))
        return value

    time = first_touch(gap)
    if time is None:
        return SweepResult.from_arrays(t=np.nan, point=np.full(3, np.nan), normal=np.full(3, np.nan),
                                       face_index=-1, penetration_depth=np.nan, feature_code=-1,
                                       feature_index=-1, scalar=True)
    moving_point, core_point = nearest(time)
    kind, index = closest(moving_point)[1]
    position, core_point = np.array(moving_point), np.array(core_point)
    separation = position - core_point
    distance = float(np.linalg.norm(separation))
    if distance > 0:
        normal = separation / distance
    else:  # the cores meet: no defined normal; against the motion when it arrives, along it at t = 0
        speed = float(np.linalg.norm(direction))
        normal = (1 if time == 0 else -1) * direction / speed if speed > 0 else np.array([0.0, 0.0, 1.0])
    point = core_point + target_radius * normal
    overlap = total - distance if time == 0 and distance < total else np.nan
    if swapped:
        normal = -normal
        point = point - time * direction + (0 if np.isnan(overlap) else overlap) * normal
        kind, index = _moving_feature(moving, point)
        face_index = None
    return SweepResult.from_arrays(t=np.float64(time), point=point, normal=normal,
                                   face_index=-1 if face_index is None else face_index,
                                   penetration_depth=np.float64(overlap), feature_code=FEATURE_KINDS.index(kind),
                                   feature_index=index, scalar=True)


def _moving_feature(shape: Shape, point: np.ndarray):
    """The feature of a ball or capsule (as a target, after a swap) at a contact point
    on it: a sphere's surface, a point, or a capsule's side or end cap."""
    if isinstance(shape, Sphere):
        return "face", 0
    if isinstance(shape, Point):
        return "vertex", 0
    _, feature = _closest_on_segment(tuple(float(v) for v in point), _vector(shape.a), _vector(shape.b))
    return feature


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
