"""``sweep()``: one entry point for every supported pair, in either order.

``PAIR_TESTS`` names the test of each pair (``physics.sweep.query.PairTest``); a
reversed pair is served by changing the subject, a moving ``Point`` is a sphere of
radius 0 and a moving ``Segment`` a capsule of radius 0 (``physics.sweep.query``).
"""

from __future__ import annotations

from sweeplab.physics.result import SweepResult
from sweeplab.physics.shapes import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Shape, Sphere, Triangle,
                                     TriangleMesh)
from sweeplab.physics.sweep.capsule import (sweep_capsule_capsule, sweep_capsule_plane, sweep_capsule_polygon,
                                            sweep_capsule_segment, sweep_capsule_triangle)
from sweeplab.physics.sweep.sphere import (sweep_sphere_capsule, sweep_sphere_plane, sweep_sphere_point,
                                           sweep_sphere_polygon, sweep_sphere_segment, sweep_sphere_sphere,
                                           sweep_sphere_triangle)
from sweeplab.physics.sweep.mesh import sweep_capsule_mesh, sweep_sphere_mesh
from sweeplab.physics.sweep.polyhedron import (sweep_capsule_polyhedron, sweep_polyhedron_mesh, sweep_polyhedron_plane,
                                               sweep_polyhedron_polytope, sweep_sphere_polyhedron)
from sweeplab.physics.sweep import scalar
from sweeplab.physics.sweep.query import PairTest, answer_query
from sweeplab.physics.sweep import turning

PAIR_TESTS: dict[tuple[type[Shape], type[Shape]], PairTest] = {
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

def sweep(moving: Shape, target: Shape, direction, *, rotation=None, pivot=None, interpolation: str = "slerp",
          ignore_separating: bool = False, **options) -> SweepResult:
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

    Turning: with a ``rotation`` (the rotation vector, axis times angle in radians,
    of the whole turn over the sweep) the moving shape also turns about ``pivot`` (a
    world point at t = 0 travelling with the translation; None: its centroid),
    ``interpolation`` "slerp" (constant angular velocity) or "nlerp" (Box2D's
    normalized quaternion lerp, below pi): conservative advancement, with what it
    guarantees in ``physics.sweep.turning``; the answer also holds ``moving_feature``
    and ``advancement``.  A zero rotation is the linear sweep.  Raises ``ValueError``
    for a non-finite or wrongly shaped ``rotation`` or ``pivot``, an unknown
    interpolation, nlerp at pi or more, a turning plane, or options with a turn.
    """
    if rotation is not None:
        if not ignore_separating and not options:  # one plain pair: straight to its kernel
            answer = turning.one_pair(moving, target, direction, rotation, pivot, interpolation)
            if answer is not None:
                return answer
        motion = turning.Motion(direction, rotation, pivot, interpolation)
        if motion.turns:
            if ignore_separating or options:
                raise ValueError("a turning sweep takes no ignore_separating or pair options "
                                 f"(got {sorted(options) + (['ignore_separating'] if ignore_separating else [])})")
            return turning.time_of_impact(moving, motion, target, turning.STILL)
    if not options:  # one plain query: straight to its kernel (``physics.sweep.scalar``)
        answer = scalar.answer(moving, target, direction, ignore_separating)
        if answer is not None:
            return answer
    return answer_query(PAIR_TESTS, moving, target, direction, ignore_separating, options)


def sweep_each(moving: Shape, targets: list[Shape], direction, *, ignore_separating: bool = False) -> list[SweepResult]:
    """``[sweep(moving, target, direction) for target in targets]``: the editor's way of
    asking about every target of a scene.  Raises what ``sweep`` raises for a target
    it cannot sweep.

    Degenerate inputs: as ``sweep``; an empty ``targets`` gives []."""
    return [sweep(moving, target, direction, ignore_separating=ignore_separating) for target in targets]
