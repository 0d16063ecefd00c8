"""``sweep()``: one entry point for every supported pair, in either order.

A pair without its own test is served by changing the subject: sweeping A
against B along d is sweeping B against A along -d.  The answer is then mapped
back: the normal flips (it points from the target towards the moving shape),
the contact point moves with the frame (it was found with B at rest, so it gains
``t * d``), and on initial overlap the witness moves to the other shape's surface
(``point + depth * normal``).  A moving ``Point`` is a sphere of radius 0.
"""

from __future__ import annotations

import numpy as np

from physics.core import FACE, VERTEX
from physics.result import Feature, SweepResult
from physics.shapes import Plane, Point, Polygon, Segment, Shape, Sphere, Triangle, vector_argument
from physics.sweep.sphere import (sweep_sphere_plane, sweep_sphere_point, sweep_sphere_polygon,
                                  sweep_sphere_segment, sweep_sphere_sphere, sweep_sphere_triangle)

PAIR_TESTS = {
    (Sphere, Point): sweep_sphere_point,
    (Sphere, Sphere): sweep_sphere_sphere,
    (Sphere, Segment): sweep_sphere_segment,
    (Sphere, Plane): sweep_sphere_plane,
    (Sphere, Triangle): sweep_sphere_triangle,
    (Sphere, Polygon): sweep_sphere_polygon,
}
"""(moving type, target type) -> test.  Reverse orders are served by ``sweep``."""

TARGET_ONLY_FEATURE = {Sphere: FACE, Point: VERTEX}
"""Targets reached only by a subject swap, and the one feature each has."""


def _as_sphere(shape: Shape) -> Shape:
    return Sphere(shape.p, np.zeros((), shape.p.dtype)) if isinstance(shape, Point) else shape


def sweep(moving: Shape, target: Shape, direction, *, ignore_separating: bool = False) -> SweepResult:
    """Sweep ``moving`` along ``direction`` (t from 0 to 1) against the still ``target``.

    Returns the first contact as a ``SweepResult`` (see ``physics.result`` for the
    conventions; batched when any input has batch dimensions).  Touching counts as
    a hit.  ``ignore_separating=True`` drops a contact at t = 0 whose motion does not
    move deeper into the target.  Raises ``ValueError`` for a non-finite or
    wrongly shaped ``direction`` and ``TypeError`` for an unsupported pair.

    Degenerate inputs: a zero ``direction`` is an overlap test at t = 0; a moving
    ``Point`` is a sphere of radius 0 (a ray cast); zero radii, zero-length segments
    and zero-area triangles fall back to the point or edges they collapse to; an
    initial overlap answers t = 0 with the depth and separating normal.  Each pair
    test's docstring (``physics.sweep.sphere``) says what its answer is.
    """
    direction = vector_argument(direction, "direction")
    test = PAIR_TESTS.get((type(_as_sphere(moving)), type(target)))
    if test is not None:
        return test(_as_sphere(moving), target, direction, ignore_separating=ignore_separating)
    test = PAIR_TESTS.get((type(_as_sphere(target)), type(moving)))
    if test is None:
        raise TypeError(f"no sweep test for a moving {type(moving).__name__} "
                        f"against a {type(target).__name__}")
    swapped = test(_as_sphere(target), moving, -direction, ignore_separating=ignore_separating)
    return _unswap(swapped, direction, TARGET_ONLY_FEATURE[type(target)])


def _unswap(result: SweepResult, direction: np.ndarray, target_feature: int) -> SweepResult:
    """Map an answer computed with the subject swapped back to the caller's frame."""
    scalar = not isinstance(result.hit, np.ndarray)
    if scalar and not result.hit:
        return result
    hit = np.asarray(result.hit)
    t = np.where(hit, np.asarray(result.t, dtype=float), np.nan) if scalar else result.t
    depth = np.nan if result.penetration_depth is None else np.asarray(result.penetration_depth)
    normal = 0.0 - np.asarray(result.normal)  # 0.0 - x keeps +0.0 where x is 0
    shift = np.where(np.isnan(t), 0, t)[..., None] * direction + np.nan_to_num(depth)[..., None] * normal
    code = np.where(hit, target_feature, -1)
    return SweepResult.from_arrays(
        t=t, point=np.asarray(result.point) + shift, normal=normal,
        face_index=np.full(np.shape(hit), -1), penetration_depth=np.asarray(depth, dtype=float) * np.ones(np.shape(hit)),
        feature_code=code, feature_index=np.where(hit, 0, -1), scalar=scalar)
