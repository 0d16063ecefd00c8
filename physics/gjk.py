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
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from physics import tolerance
from physics.shapes import Capsule, ConvexPolyhedron, Point, Polygon, Segment, Sphere, vector_argument

GJK_MAX_ITERATIONS = 100
"""Steps before a cast gives up with status "max iterations" (polytopes converge in
a handful; rounded shapes approach their surface geometrically)."""


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


def core_and_margin(shape) -> tuple[np.ndarray, float]:
    """The points whose hull is the shape's core (k, 3) and its rounding radius."""
    if isinstance(shape, Sphere):
        return np.asarray(shape.center, float)[None], float(shape.radius)
    if isinstance(shape, Capsule):
        return np.stack([shape.a, shape.b]).astype(float), float(shape.radius)
    if isinstance(shape, Point):
        return np.asarray(shape.p, float)[None], 0.0
    if isinstance(shape, Segment):
        return np.stack([shape.a, shape.b]).astype(float), 0.0
    if isinstance(shape, (Polygon, ConvexPolyhedron)):
        return np.asarray(shape.vertices, float), 0.0
    raise TypeError(f"no support function for a {type(shape).__name__} (it must be bounded and convex)")


def _support(core: np.ndarray, direction: np.ndarray) -> np.ndarray:
    return core[int(np.argmax(core @ direction))]


def closest_on_simplex(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(closest point to the origin, indices of the points kept, their barycentric
    weights) of the hull of 1-4 points: every face is tried (its affine closest
    point, kept when inside the face), the nearest wins, smaller faces on ties."""
    best = None
    for size in range(1, len(points) + 1):
        for subset in itertools.combinations(range(len(points)), size):
            chosen = points[list(subset)]
            if size == 1:
                weights = np.ones(1)
            else:
                differences = chosen[1:] - chosen[0]
                gram = differences @ differences.T
                try:
                    mu = np.linalg.solve(gram, -differences @ chosen[0])
                except np.linalg.LinAlgError:
                    continue
                weights = np.concatenate([[1 - mu.sum()], mu])
                if np.any(weights < 0):
                    continue
            candidate = weights @ chosen
            if best is None or candidate @ candidate < best[0] @ best[0]:
                best = (candidate, np.array(subset), weights)
    return best


def convex_cast(moving, target, direction) -> ConvexCast:
    """First contact of ``moving`` translated along ``direction`` (t in [0, 1]) with
    ``target``, for any two bounded convex shapes with a support function."""
    direction = vector_argument(direction, "direction")
    if direction.shape != (3,) or moving.batch_shape != () or target.batch_shape != ():
        raise ValueError("convex_cast takes one moving shape, one target and one direction (no batches)")
    core_a, radius_a = core_and_margin(moving)
    core_b, radius_b = core_and_margin(target)
    margin = radius_a + radius_b
    scale = 1.0 + max(np.abs(core_a).max(), np.abs(core_b).max(), np.abs(direction).max(), margin)
    tolerance_ = tolerance.GJK_RTOL * scale

    def support(v):  # of C = B - A: farthest of B along v minus farthest of A along -v
        return _support(core_b, v), _support(core_a, -v)

    lam, x, normal = 0.0, np.zeros(3), None
    simplex_b, simplex_a = [], []
    weights = np.ones(1)
    v = x - (core_b[0] - core_a[0])
    for iteration in range(1, GJK_MAX_ITERATIONS + 1):
        length = float(np.linalg.norm(v))
        if length <= margin + tolerance_:  # within the margin of C: touching at lam
            break
        point_b, point_a = support(v)
        w = x - (point_b - point_a)
        advanced = v @ w > margin * length
        if advanced:  # x lies beyond a separating plane by more than the margin
            along = v @ direction
            if along >= 0:
                return ConvexCast(False, None, None, None, iteration, "miss")
            lam -= (v @ w - margin * length) / along
            if lam > 1:
                return ConvexCast(False, None, None, None, iteration, "miss")
            x = lam * direction
            normal = v / length
        repeated = any(np.array_equal(point_b, b) and np.array_equal(point_a, a) for b, a in zip(simplex_b, simplex_a))
        if repeated and not advanced:  # no new support point: the bounds cannot meet any closer
            if length - (v @ w) / length > tolerance.GJK_STALL_RTOL * scale:
                return ConvexCast(False, None, None, None, iteration, "stalled")
            break
        if not repeated:
            simplex_b.append(point_b)
            simplex_a.append(point_a)
        v, kept, weights = closest_on_simplex(x - (np.array(simplex_b) - np.array(simplex_a)))
        simplex_b = [simplex_b[i] for i in kept]
        simplex_a = [simplex_a[i] for i in kept]
    else:
        return ConvexCast(False, None, None, None, GJK_MAX_ITERATIONS, "max iterations")
    if normal is None:
        return ConvexCast(True, 0.0, None, None, iteration, "overlap at start")
    on_b = weights @ np.array(simplex_b) if simplex_b else core_b[0]
    return ConvexCast(True, float(lam), normal, on_b + radius_b * normal, iteration, "hit")
