"""A general convex cast: the GJK ray cast on the Minkowski difference (van den Bergen 2004).

Sweeping A along d against B is casting a ray from the origin along d against the
Minkowski difference C = B - A: the first contact is the smallest λ with λ d in C.
GJK only asks each shape for its *support point* (its point farthest along a
direction), so one algorithm serves every pair of convex shapes — which makes it a
second opinion for the analytic tests, not a replacement (it converges to a
tolerance, and the analytic tests are exact).

Rounded shapes (spheres, capsules) are cast as their cores (a point, a segment) with
the summed radius as a margin R: the ray advances until it is within R of the cores'
difference.  Each step (van den Bergen's Algorithm 1 with a margin): v is the
closest point to the ray point x of the current simplex (in x - C); the support
point p of C along v gives a plane; if x is more than R beyond it the ray jumps
forward to distance R (a miss if the ray leaves through the plane or passes 1);
otherwise p joins the simplex, which is reduced to the points whose hull holds v
(Johnson's sub-algorithm, here by trying every face of the simplex).  It stops when
the upper bound |v| and the lower bound (v·w)/|v| of the distance meet within
``tolerance.GJK_RTOL``, or after ``GJK_MAX_ITERATIONS`` with status "max
iterations".  Scalar shapes only (one configuration per call).

The iteration is one compiled scalar kernel (``cast``, float64: cores are (k, 3)
arrays, vectors 3-tuples); Python extracts the cores and builds the ``ConvexCast``.
A simplex is held as the rows of (4, 3) arrays with a count; one of its faces as a
bit mask of its points (bit i: point i).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from sweeplab.physics.kernels import entry, kernel
from sweeplab.physics import tolerance
from sweeplab.physics.geometry import along, cross, dot, largest_magnitude, maximum, row, scale, sqrt, sub
from sweeplab.physics.shapes import Capsule, ConvexPolyhedron, Point, Polygon, Segment, Sphere, vector_argument

GJK_MAX_ITERATIONS = 100
"""Steps before a cast gives up with status "max iterations" (polytopes converge in
a handful; rounded shapes approach their surface geometrically)."""

HIT, MISS, OVERLAP_AT_START, MAX_ITERATIONS, STALLED = range(5)
STATUS_NAMES = ("hit", "miss", "overlap at start", "max iterations", "stalled")
"""Status codes of ``cast``: code i is ``STATUS_NAMES[i]`` (``ConvexCast.status``)."""

FACES = (0b0001, 0b0010, 0b0100, 0b1000, 0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100, 0b0111, 0b1011, 0b1101,
         0b1110, 0b1111)
"""Every face of a 4-point simplex as a bit mask, smaller faces first and each size in
``itertools.combinations`` order; a simplex of fewer points skips the faces holding
points it lacks.  ``closest_on_simplex`` keeps the first of equally near faces."""

NO_WEIGHTS = (0.0, 0.0, 0.0, 0.0, False)
"""``affine_weights`` of a face whose points are affinely dependent."""


class ConvexCast(NamedTuple):
    """``hit``; ``t`` (None on a miss); ``normal`` from B towards A and ``point`` on
    B at t (None on a miss, and when the shapes overlap at t = 0: a ray cast gives
    no penetration); ``iterations``; ``status``: "hit", "miss", "overlap at start"
    "max iterations" or "stalled" (the last two: no answer)."""

    hit: bool
    t: float | None
    normal: np.ndarray | None
    point: np.ndarray | None
    iterations: int
    status: str


def core_of(shape) -> tuple[np.ndarray, np.ndarray]:
    """(core points (..., k, 3), rounding radius (...)) of a bounded convex shape, batched
    as the shape is: a sphere's or point's center, a capsule's or segment's ends, a
    polygon's or polyhedron's vertices."""
    if isinstance(shape, Sphere):
        return shape.center[..., None, :], shape.radius
    if isinstance(shape, Point):
        return shape.p[..., None, :], np.zeros(shape.batch_shape)
    if isinstance(shape, (Capsule, Segment)):
        radius = shape.radius if isinstance(shape, Capsule) else np.zeros(shape.batch_shape)
        return np.stack(np.broadcast_arrays(shape.a, shape.b), axis=-2), radius
    if isinstance(shape, (Polygon, ConvexPolyhedron)):
        return shape.vertices, np.zeros(shape.batch_shape)
    raise TypeError(f"no support function for a {type(shape).__name__} (it must be bounded and convex)")


def core_and_margin(shape) -> tuple[np.ndarray, float]:
    """The points whose hull is one shape's core (k, 3), in float64, and its rounding
    radius (``core_of``)."""
    core, radius = core_of(shape)
    return np.asarray(core, float), float(radius)


# --- one cast, compiled ---------------------------------------------------------------

@kernel
def support(core, direction):
    """Row of ``core`` farthest along ``direction`` (the first of equals)."""
    best, farthest = 0, dot(row(core, 0), direction)
    for i in range(1, core.shape[0]):
        height = dot(row(core, i), direction)
        if height > farthest:
            best, farthest = i, height
    return best


@kernel
def put(array, i, vector):
    """Row ``i`` of an (N, 3) array := a 3-vector tuple."""
    for k in range(3):
        array[i, k] = vector[k]


@kernel
def member(face, k):
    """Index of the ``k``-th point of a face (its k-th set bit)."""
    for i in range(4):
        if face >> i & 1:
            if k == 0:
                return i
            k -= 1
    return -1


@kernel
def face_size(face):
    """How many points a face has (its set bits)."""
    return (face & 1) + (face >> 1 & 1) + (face >> 2 & 1) + (face >> 3 & 1)


@kernel
def largest_core(core):
    """Largest |coordinate| of a core (k, 3)."""
    largest = 0.0
    for i in range(core.shape[0]):
        largest = maximum(largest, largest_magnitude(row(core, i)))
    return largest


@kernel
def affine_weights(points, face):
    """(w0, w1, w2, w3, defined): the barycentric coordinates, in the face's point
    order (zero past its size), of the point of the face's affine hull closest to the
    origin; not defined where the face's points are affinely dependent.

    With y0 the face's first point and d_i = y_i - y0, the closest point y0 + Σ μ_i d_i
    solves the normal equations G μ = -(d_i · y0) (G the Gram matrix of the d_i).
    Solved by Cramer's rule, the determinants written as cross and triple products
    (Lagrange's identity: det G = |d1 x d2|^2 for a triangle; for a tetrahedron the
    affine hull is all of space, so D μ = -y0 with det D = d1 · (d2 x d3)):

        segment      μ1 = -(d1 · y0) / (d1 · d1)
        triangle     n = d1 x d2,  μ1 = (d2 x y0) · n / n·n,  μ2 = (y0 x d1) · n / n·n
        tetrahedron  μ1 = -y0 · (d2 x d3) / det,  μ2 = -d1 · (y0 x d3) / det,  μ3 = -d1 · (d2 x y0) / det

    and w0 = 1 - (μ1 + μ2 + μ3)."""
    size = face_size(face)
    first = row(points, member(face, 0))
    if size == 1:
        return 1.0, 0.0, 0.0, 0.0, True
    d1 = sub(row(points, member(face, 1)), first)
    if size == 2:
        determinant = dot(d1, d1)
        if determinant == 0:
            return NO_WEIGHTS
        mu1 = -dot(d1, first) / determinant
        return 1.0 - mu1, mu1, 0.0, 0.0, True
    d2 = sub(row(points, member(face, 2)), first)
    if size == 3:
        normal = cross(d1, d2)
        determinant = dot(normal, normal)
        if determinant == 0:
            return NO_WEIGHTS
        mu1, mu2 = dot(cross(d2, first), normal) / determinant, dot(cross(first, d1), normal) / determinant
        return 1.0 - (mu1 + mu2), mu1, mu2, 0.0, True
    d3 = sub(row(points, member(face, 3)), first)
    determinant = dot(d1, cross(d2, d3))
    if determinant == 0:
        return NO_WEIGHTS
    mu1, mu2, mu3 = -dot(first, cross(d2, d3)) / determinant, -dot(d1, cross(first, d3)) / determinant, \
        -dot(d1, cross(d2, first)) / determinant
    return 1.0 - (mu1 + mu2 + mu3), mu1, mu2, mu3, True


@entry
def closest_on_simplex_kernel(points, count):
    """(closest point to the origin, its face, the face's weights (w0, w1, w2, w3) in
    its point order) of the hull of ``points[:count]`` (1-4 points): every face is
    tried (its affine closest point, kept when inside the face: no negative weight),
    the nearest wins, the first of equals (``FACES`` order: smaller faces first)."""
    best_face, best_squared, best_point, best_weights = 0, math.inf, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0)
    for face in FACES:
        if face >> count:  # holds a point the simplex lacks
            continue
        w0, w1, w2, w3, defined = affine_weights(points, face)
        if not defined or w0 < 0 or w1 < 0 or w2 < 0 or w3 < 0:
            continue
        candidate = scale(w0, row(points, member(face, 0)))
        size = face_size(face)
        if size > 1:
            candidate = along(candidate, w1, row(points, member(face, 1)))
        if size > 2:
            candidate = along(candidate, w2, row(points, member(face, 2)))
        if size > 3:
            candidate = along(candidate, w3, row(points, member(face, 3)))
        squared = dot(candidate, candidate)
        if best_face == 0 or squared < best_squared:
            best_face, best_squared, best_point, best_weights = face, squared, candidate, (w0, w1, w2, w3)
    return best_point, best_face, best_weights


@kernel
def keep_face(simplex, face):
    """Move the rows of ``face`` to the front of ``simplex`` (4, 3), in order."""
    for k in range(face_size(face)):
        put(simplex, k, row(simplex, member(face, k)))


@entry
def cast(core_a, core_b, direction, radius_a, radius_b):
    """The GJK ray cast of core A (k, 3) with radius ``radius_a`` moving along
    ``direction`` against core B with ``radius_b`` (module docstring): (status,
    iterations, t, normal from B towards A, point on B); t is 0 for
    ``OVERLAP_AT_START``, and t and the vectors are NaN where no time is known."""
    nan = math.nan
    missed = (nan, nan, nan)
    margin = radius_a + radius_b
    coordinate_scale = maximum(maximum(maximum(largest_core(core_a), largest_core(core_b)),
                                       largest_magnitude(direction)), margin)
    slack = tolerance.GJK_RTOL * coordinate_scale
    simplex_b, simplex_a, differences = np.empty((4, 3)), np.empty((4, 3)), np.empty((4, 3))
    count, weights = 0, (1.0, 0.0, 0.0, 0.0)
    lam, x, normal, advanced_once = 0.0, (0.0, 0.0, 0.0), missed, False
    v = sub(x, sub(row(core_b, 0), row(core_a, 0)))
    touching, iteration = False, 0
    for iteration in range(1, GJK_MAX_ITERATIONS + 1):
        length = sqrt(dot(v, v))
        if length <= margin + slack:  # within the margin of C: touching at lam
            touching = True
            break
        # support point of C = B - A along v: farthest of B along v minus farthest of A along -v
        point_b = row(core_b, support(core_b, v))
        point_a = row(core_a, support(core_a, (-v[0], -v[1], -v[2])))
        w = sub(x, sub(point_b, point_a))
        advanced = dot(v, w) > margin * length
        if advanced:  # x lies beyond a separating plane by more than the margin
            rate = dot(v, direction)
            if rate >= 0:
                return MISS, iteration, nan, missed, missed
            lam -= (dot(v, w) - margin * length) / rate
            if lam > 1:
                return MISS, iteration, nan, missed, missed
            x = scale(lam, direction)
            normal = (v[0] / length, v[1] / length, v[2] / length)
            advanced_once = True
        repeated = False
        for k in range(count):
            repeated = repeated or (row(simplex_b, k) == point_b and row(simplex_a, k) == point_a)
        if repeated and not advanced:  # no new support point: the bounds cannot meet any closer
            if length - dot(v, w) / length > tolerance.GJK_STALL_RTOL * coordinate_scale:
                return STALLED, iteration, nan, missed, missed
            touching = True
            break
        if not repeated:
            put(simplex_b, count, point_b)
            put(simplex_a, count, point_a)
            count += 1
        for k in range(count):
            put(differences, k, sub(x, sub(row(simplex_b, k), row(simplex_a, k))))
        v, face, weights = closest_on_simplex_kernel(differences, count)
        keep_face(simplex_b, face)
        keep_face(simplex_a, face)
        count = face_size(face)
    if not touching:
        return MAX_ITERATIONS, GJK_MAX_ITERATIONS, nan, missed, missed
    if not advanced_once:
        return OVERLAP_AT_START, iteration, 0.0, missed, missed
    on_b = scale(weights[0], row(simplex_b, 0))
    for k in range(1, count):
        on_b = along(on_b, weights[k], row(simplex_b, k))
    return HIT, iteration, lam, normal, along(on_b, radius_b, normal)


# --- Python entry points ------------------------------------------------------------------

def closest_on_simplex(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(closest point to the origin, indices of the points kept, their barycentric
    weights) of the hull of 1-4 points (``closest_on_simplex_kernel``)."""
    points = np.array(points, float)  # a fresh writable copy: one compiled signature
    point, face, weights = closest_on_simplex_kernel(points, len(points))
    kept = np.array([i for i in range(len(points)) if face >> i & 1])
    return np.array(point), kept, np.array(weights[:len(kept)])


def convex_cast(moving, target, direction, grow: float = 0.0) -> ConvexCast:
    """First contact of ``moving`` translated along ``direction`` (t in [0, 1]) with
    ``target``, for any two bounded convex shapes with a support function; with
    ``grow`` (length units), of the shapes rounded by that much more (their summed
    radius plus ``grow``, which must stay >= 0): where an engine that stops ``grow``
    short of touching stops."""
    direction = vector_argument(direction, "direction")
    if direction.shape != (3,) or moving.batch_shape != () or target.batch_shape != ():
        raise ValueError("convex_cast takes one moving shape, one target and one direction (no batches)")
    core_a, radius_a = core_and_margin(moving)
    core_b, radius_b = core_and_margin(target)
    if not radius_a + radius_b + grow >= 0:
        raise ValueError(f"grow must keep the summed radius {radius_a + radius_b!r} >= 0, got {grow!r}")
    radius_b += grow
    # fresh writable copies: one compiled signature whatever the shapes' arrays are (read-only ones type apart)
    status, iterations, t, normal, point = cast(np.array(core_a, float), np.array(core_b, float),
                                                tuple(float(v) for v in direction), radius_a, radius_b)
    if status == HIT:
        return ConvexCast(True, float(t), np.array(normal), np.array(point), iterations, "hit")
    if status == OVERLAP_AT_START:
        return ConvexCast(True, 0.0, None, None, iterations, STATUS_NAMES[status])
    return ConvexCast(False, None, None, None, iterations, STATUS_NAMES[status])


# --- the distance between two cores (conservative advancement's oracle) -------------------

@kernel
def closest_between(core_a, core_b, simplex_a, simplex_b, differences, index_a, index_b):
    """GJK distance between the hulls of core A (k, 3) and core B (m, 3) (no radii):
    (upper, lower, v, weights, count).  ``v = b - a`` is the shortest vector found from
    the hull of A to the hull of B (``upper = |v|``, an upper bound of the distance);
    ``lower`` is the separation of the cores along ``v / |v|`` (min over B of
    v̂ · b minus max over A of v̂ · a, a lower bound: both supports are exact); the
    closest points are the ``weights`` of the first ``count`` rows of ``simplex_a``
    and ``simplex_b`` (their core rows in ``index_a`` / ``index_b``).  Where the
    hulls meet, upper = 0 and lower <= 0.

    Each step adds the support point w = b - a of B - A along -v (B's farthest along
    -v, A's farthest along v) and keeps the face of the simplex nearest the origin
    (``closest_on_simplex_kernel``); it stops when no new support point comes, when
    the bounds meet within rounding of the cores' size, when a step comes no nearer
    (near touching, rounding makes the simplex cycle), or after
    ``GJK_MAX_ITERATIONS`` (``lower`` is always along the returned ``v``).  Scratch:
    (4, 3) float arrays and (4,) int arrays."""
    size = maximum(largest_core(core_a), largest_core(core_b))
    resolution = 4.0 * 2.220446049250313e-16 * size
    simplex_a[0, 0], simplex_a[0, 1], simplex_a[0, 2] = core_a[0, 0], core_a[0, 1], core_a[0, 2]
    simplex_b[0, 0], simplex_b[0, 1], simplex_b[0, 2] = core_b[0, 0], core_b[0, 1], core_b[0, 2]
    index_a[0], index_b[0] = 0, 0
    count, weights = 1, (1.0, 0.0, 0.0, 0.0)
    v = sub(row(core_b, 0), row(core_a, 0))
    previous = math.inf
    for _ in range(GJK_MAX_ITERATIONS + 1):
        length = sqrt(dot(v, v))
        if length == 0.0:
            return 0.0, 0.0, v, weights, count
        b = support(core_b, (-v[0], -v[1], -v[2]))
        a = support(core_a, v)
        w = sub(row(core_b, b), row(core_a, a))
        lower = dot(v, w) / length
        if length - lower <= resolution or length >= previous:  # met, or no nearer (rounding: it would cycle)
            break
        previous = length
        repeated = False
        for k in range(count):
            repeated = repeated or (index_a[k] == a and index_b[k] == b)
        if repeated or count == 4:  # (4 kept points, the origin outside: a flat simplex, no room to grow)
            break
        put(simplex_a, count, row(core_a, a))
        put(simplex_b, count, row(core_b, b))
        index_a[count], index_b[count] = a, b
        count += 1
        for k in range(count):
            put(differences, k, sub(row(simplex_b, k), row(simplex_a, k)))
        v, face, weights = closest_on_simplex_kernel(differences, count)
        keep_face(simplex_a, face)
        keep_face(simplex_b, face)
        kept = 0
        for k in range(4):
            if face >> k & 1:
                index_a[kept], index_b[kept] = index_a[k], index_b[k]
                kept += 1
        count = kept
    else:  # out of steps: the bounds along the last v
        length = sqrt(dot(v, v))
        w = sub(row(core_b, support(core_b, (-v[0], -v[1], -v[2]))), row(core_a, support(core_a, v)))
        lower = dot(v, w) / length if length > 0.0 else 0.0
    return length, min(lower, length), v, weights, count
