"""``sweep()``: one entry point for every supported pair, in either order.

A pair without its own test is served by changing the subject: sweeping A
against B along d is sweeping B against A along -d.  The answer is then mapped
back: the normal flips (it points from the target towards the moving shape),
the contact point moves with the frame (it was found with B at rest, so it gains
``t * d``), and on initial overlap the witness moves to the other shape's surface
(``point + depth * normal``).  A moving ``Point`` is a sphere of radius 0 and a
moving ``Segment`` a capsule of radius 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from sweeplab.physics.core import EDGE, FACE, VERTEX, dot_rows, row_lengths
from sweeplab.physics.result import SweepResult
from sweeplab.physics.shapes import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Shape, Sphere, Triangle,
                                     TriangleMesh, broadcast_batch_shapes, vector_argument)
from sweeplab.physics.sweep.capsule import (sweep_capsule_capsule, sweep_capsule_plane, sweep_capsule_polygon,
                                            sweep_capsule_segment, sweep_capsule_triangle)
from sweeplab.physics.sweep.sphere import (sweep_sphere_capsule, sweep_sphere_plane, sweep_sphere_point,
                                           sweep_sphere_polygon, sweep_sphere_segment, sweep_sphere_sphere,
                                           sweep_sphere_triangle)
from sweeplab.physics.sweep.mesh import sweep_capsule_mesh, sweep_sphere_mesh
from sweeplab.physics.sweep.polyhedron import (SatTrace, point_or_segment, sweep_capsule_polyhedron,
                                               sweep_polyhedron_mesh, sweep_polyhedron_plane, sweep_polyhedron_polytope,
                                               sweep_sphere_polyhedron)
from sweeplab.physics.sweep import scalar
from sweeplab.physics.sweep.sat import contact_rtol
from sweeplab.physics.traversal import TraversalTrace
from sweeplab.physics.sweep.unit_size import largest_component, unit_size_plan

PAIR_TESTS: dict[tuple[type[Shape], type[Shape]], Callable[..., SweepResult]] = {
    (Sphere, Point): sweep_sphere_point,
    (Sphere, Sphere): sweep_sphere_sphere,
    (Sphere, Segment): sweep_sphere_segment,
    (Sphere, Capsule): sweep_sphere_capsule,
    (Sphere, Plane): sweep_sphere_plane,
    (Sphere, Triangle): sweep_sphere_triangle,
    (Sphere, Polygon): sweep_sphere_polygon,
    (Capsule, Segment): sweep_capsule_segment,
    (Capsule, Capsule): sweep_capsule_capsule,
    (Capsule, Plane): sweep_capsule_plane,
    (Capsule, Triangle): sweep_capsule_triangle,
    (Capsule, Polygon): sweep_capsule_polygon,
    (Sphere, TriangleMesh): sweep_sphere_mesh,
    (Capsule, TriangleMesh): sweep_capsule_mesh,
    **{(ConvexPolyhedron, target): sweep_polyhedron_polytope
       for target in (Point, Segment, Triangle, Polygon, ConvexPolyhedron)},
    (ConvexPolyhedron, Plane): sweep_polyhedron_plane,
    (Sphere, ConvexPolyhedron): sweep_sphere_polyhedron,
    (Capsule, ConvexPolyhedron): sweep_capsule_polyhedron,
    (ConvexPolyhedron, TriangleMesh): sweep_polyhedron_mesh,
}
"""(moving type, target type) -> test.  Reverse orders are served by ``sweep``."""

SURFACES = (Plane, Triangle, Polygon, TriangleMesh)
"""Shapes without volume.  Two of them have no sweep test, in either order: they meet
where one's boundary first crosses the other, a different question (for two meshes,
``broadphase.first_mesh_contact``'s bisection narrowphase answers it).  Every other
pair of shape types has a test in ``PAIR_TESTS``, for itself, its moving point or
segment promoted, or its reverse order (``tests/test_shape_kinds.py``)."""

def _promoted(shape: Shape) -> Shape:
    """A point as a sphere of radius 0, a segment as a capsule of radius 0."""
    if isinstance(shape, Point):
        return Sphere(shape.p, np.zeros((), shape.p.dtype))
    if isinstance(shape, Segment):
        return Capsule(shape.a, shape.b, np.zeros((), shape.a.dtype))
    return shape


def _find(moving: Shape, target: Shape):
    """The test for ``moving`` against ``target``, promoting the moving shape if needed."""
    for candidate in (moving, _promoted(moving)):
        test = PAIR_TESTS.get((type(candidate), type(target)))
        if test is not None:
            return test, candidate
    return None, None


def sweep(moving: Shape, target: Shape, direction, *, ignore_separating: bool = False, **options) -> SweepResult:
    """Sweep ``moving`` along ``direction`` (t from 0 to 1) against the still ``target``.

    Returns the first contact as a ``SweepResult`` (see ``physics.result`` for the
    conventions; batched when any input has batch dimensions).  Touching counts as
    a hit.  ``ignore_separating=True`` drops a contact at t = 0 whose motion does not
    move deeper into the target.  Further keyword ``options`` go to the pair test:
    the mesh tests (``physics.sweep.mesh``) take ``raw_edge_normals`` and ``trace``.
    Raises ``ValueError`` for a non-finite or wrongly shaped ``direction`` and
    ``TypeError`` for an unsupported pair, an argument that is not a shape, or an
    option its test does not take (or of the wrong type: ``trace`` is a
    ``TraversalTrace`` against a mesh, else a ``SatTrace``).

    Any finite size: a query far from unit size (beyond 2^+-64 in float64, 2^+-8 in
    float32) or whose direction is far longer than its shapes is answered at unit
    size, scaled by an exact power of two (``physics.sweep.unit_size``): it gets its
    scaled twin's answer, exactly.

    Degenerate inputs: a zero ``direction`` is an overlap test at t = 0; a moving
    ``Point`` is a sphere of radius 0 (a ray cast) and a moving ``Segment`` a
    capsule of radius 0; zero radii, zero-length segments and zero-area triangles
    fall back to the point or edges they collapse to; an initial overlap answers
    t = 0 with the depth and separating normal.  Each pair test's docstring
    (``physics.sweep.sphere``, ``physics.sweep.capsule``, ``physics.sweep.mesh``)
    says what its answer is.
    """
    if not options:  # one plain query: straight to its kernel (``physics.sweep.scalar``)
        answer = scalar.answer(moving, target, direction, ignore_separating)
        if answer is not None:
            return answer
    return general_sweep(moving, target, direction, ignore_separating, options)


def general_sweep(moving: Shape, target: Shape, direction, ignore_separating: bool, options: dict) -> SweepResult:
    """``sweep`` for every query (the scalar path serves some of them as it would)."""
    _check_arguments(moving, target, options)
    direction = vector_argument(direction, "direction", copy=False, check_finite=False)  # only read
    longest = largest_component(direction)  # (inf for NaN or infinity: the finiteness check, in the same pass)
    if not math.isfinite(longest):
        raise ValueError("direction must be finite (got NaN or infinity)")
    if moving.batch_shape or target.batch_shape or direction.ndim > 1:
        broadcast_batch_shapes(moving.batch_shape, target.batch_shape, direction.shape[:-1],
                               names="moving, target, direction")
    plan = unit_size_plan(moving, target, direction, longest)
    if plan is None:
        return _sweep_as_given(moving, target, direction, ignore_separating, options)
    return plan.answer(_sweep_as_given(plan.shape(moving), plan.shape(target), plan.direction(direction),
                                       ignore_separating, options))


def _check_arguments(moving, target, options: dict) -> None:
    """A ``TypeError`` naming ``moving`` or ``target`` where it is not a shape, and
    ``trace`` where it is not the trace its pair test fills."""
    for name, shape in (("moving", moving), ("target", target)):
        if not isinstance(shape, Shape):
            raise TypeError(f"{name} must be a shape (Sphere, Capsule, Point, Segment, Plane, Triangle, Polygon, "
                            f"ConvexPolyhedron or TriangleMesh), got {type(shape).__name__}")
    trace = options.get("trace")
    expected = TraversalTrace if isinstance(target, TriangleMesh) else SatTrace
    if trace is not None and not isinstance(trace, expected):
        raise TypeError(f"trace must be a {expected.__name__}, got {type(trace).__name__}")


def _sweep_as_given(moving: Shape, target: Shape, direction: np.ndarray, ignore_separating: bool,
                    options: dict) -> SweepResult:
    """``sweep`` of a validated query, without its rescale to unit size."""
    test, subject = _find(moving, target)
    if test is not None:  # the pair test without its own check of the direction, just done
        with np.errstate(all="ignore"):
            return test.__wrapped__(subject, target, direction, ignore_separating=ignore_separating, **options)
    test, subject = _find(target, moving)
    if test is None:  # two SURFACES (tests/test_shape_kinds.py: every other pair is served)
        raise TypeError(f"no sweep test for a moving {type(moving).__name__} against a {type(target).__name__} "
                        "(two surfaces: no volume between them)")
    with np.errstate(all="ignore"):
        swapped = test.__wrapped__(subject, moving, -direction, ignore_separating=ignore_separating, **options)
    return _unswap(swapped, direction, target)


def sweep_each(moving: Shape, targets: list[Shape], direction, *, ignore_separating: bool = False) -> list[SweepResult]:
    """``[sweep(moving, target, direction) for target in targets]``: the editor's way of
    asking about every target of a scene.  Raises what ``sweep`` raises for a target
    it cannot sweep.

    Degenerate inputs: as ``sweep``; an empty ``targets`` gives []."""
    return [sweep(moving, target, direction, ignore_separating=ignore_separating) for target in targets]


def _polyhedron_feature(target: ConvexPolyhedron, point: np.ndarray):
    """(code, index, face index) of the polyhedron feature a surface point lies on:
    the face planes through it say face (one), edge (two: the nearest edge) or vertex
    (three or more: the nearest vertex).  Through means within ``sat.contact_rtol`` of
    the scale for the point's dtype: a float32 point is ~1e-7 off an edge it lies on."""
    heights = dot_rows(target.normals, point[..., None, :]) - target.offsets
    slack = contact_rtol(point.dtype) * (np.abs(target.vertices).max(axis=(-2, -1)) + np.abs(point).max(axis=-1))
    planes = (np.abs(heights) <= slack[..., None]).sum(axis=-1)
    nearest_vertex = np.argmin(row_lengths(target.vertices - point[..., None, :]), axis=-1)
    starts = target.vertices[..., target.edges[:, 0], :]
    along = target.vertices[..., target.edges[:, 1], :] - starts
    with np.errstate(all="ignore"):
        s = np.clip(dot_rows(point[..., None, :] - starts, along) / dot_rows(along, along), 0, 1)
    nearest_edge = np.argmin(row_lengths(starts + s[..., None] * along - point[..., None, :]), axis=-1)
    face = np.argmax(heights, axis=-1)
    code = np.where(planes >= 3, VERTEX, np.where(planes == 2, EDGE, FACE))
    return code, np.where(code == VERTEX, nearest_vertex, np.where(code == EDGE, nearest_edge, face)), face


def _target_feature(target: Shape, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Feature codes and indices of a target reached only by a subject swap, from the
    contact point on it: a sphere's surface, a point, a capsule's / segment's side
    or end, or a polyhedron's face, edge or vertex."""
    count_shape = point.shape[:-1]
    if isinstance(target, ConvexPolyhedron) and target.dimension < 2:
        target = point_or_segment(target)  # its vertices and edge are numbered as the polyhedron's
    if isinstance(target, ConvexPolyhedron):
        return _polyhedron_feature(target, point)[:2]
    if isinstance(target, Sphere):
        return np.full(count_shape, FACE), np.zeros(count_shape, int)
    if isinstance(target, Point):
        return np.full(count_shape, VERTEX), np.zeros(count_shape, int)
    assert isinstance(target, (Segment, Capsule)), "a swap reaches no other target"
    along = target.b - target.a
    length_squared = dot_rows(along, along)
    with np.errstate(all="ignore"):
        s = np.where(length_squared > 0, dot_rows(point - target.a, along) / length_squared, 0)
    code = np.where((s > 0) & (s < 1), EDGE, VERTEX)
    return code, np.where(s >= 1, 1, 0)


def _unswap(result: SweepResult, direction: np.ndarray, target: Shape) -> SweepResult:
    """Map an answer computed with the subject swapped back to the caller's frame."""
    scalar = not isinstance(result.hit, np.ndarray)
    if scalar and not result.hit:
        return result
    hit = np.asarray(result.hit)
    dtype = np.asarray(result.normal).dtype  # the answer's: a scalar's t and depth are Python floats
    t = np.where(hit, np.asarray(result.t, dtype), np.nan) if scalar else result.t
    depth = np.full((), np.nan, dtype) if result.penetration_depth is None else np.asarray(result.penetration_depth)
    normal = 0.0 - np.asarray(result.normal)  # 0.0 - x keeps +0.0 where x is 0
    shift = np.where(np.isnan(t), 0, t)[..., None] * direction + np.nan_to_num(depth)[..., None] * normal
    point = np.asarray(result.point) + shift
    code, index = _target_feature(target, point)
    faces = _polyhedron_feature(target, point)[2] if isinstance(target, ConvexPolyhedron) and target.dimension >= 2 \
        else -1
    return SweepResult.from_arrays(
        t=t, point=point, normal=normal,
        face_index=np.where(hit, faces, -1) * np.ones(np.shape(hit), int),
        penetration_depth=np.broadcast_to(np.asarray(depth, dtype), np.shape(hit)),
        feature_code=np.where(hit, code, -1), feature_index=np.where(hit, index, -1), scalar=scalar)
