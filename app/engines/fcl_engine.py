"""python-fcl as an engine: ``continuousCollide`` with translational motion, or
with fcl's ``ScrewMotion`` for a turning sweep.

Shapes map to fcl's own: a sphere to ``Sphere``, a capsule to ``Capsule`` (fcl's
axis is its local z, centred), a point and a segment to a sphere and a capsule of
radius 0, a triangle or polygon to a ``BVHModel`` of its fan, a polyhedron to
``Convex``, a mesh to a ``BVHModel`` of its world triangles.  fcl reports a hit and
a time of contact (a fraction of the motion, as sweeplab's t); it gives no contact
point or normal.  The solver is one of ``SOLVERS`` (fcl's default: conservative
advancement); ``toc_err`` and ``num_max_iterations`` are fcl's.

Seen here (python-fcl 0.7.0.11): ``continuousCollide`` of a sphere and a
``Plane`` printed "collision function between node type 10 and node type 18 is
not supported" and crashed the process, so planes are not mapped; with
conservative advancement a ``BVHModel`` target (triangle, polygon, mesh) crashed
the process (segfault) for a moving sphere, capsule, point, segment or
polyhedron, so those pairs raise ``TypeError`` unless another solver is chosen
(``naive`` samples 10 times and answers a sample time; ``ray_shooting`` and
``polynomial`` answered every such sweep "miss").

A turning sweep (#35).  ``continuousCollide`` takes the moving object's start and
end transforms and builds its motion from them by ``ccd_motion_type``
(fcl ``getMotionBase``; read in fcl's source, ``include/fcl/math/motion/``):

* ``CCDM_TRANS`` (``TranslationMotion``): translation only.
* ``CCDM_LINEAR`` (``InterpMotion(tf1, tf2)``): the object's reference point moves
  linearly from ``tf1 * ref`` to ``tf2 * ref`` while the object turns about it with
  constant angular velocity, R(t) = AngleAxis(t θ, u) R1 ((u, θ) the angle-axis of
  R2 R1ᵀ, θ in [0, π]): sweeplab's ``"slerp"`` motion when the reference point is
  the pivot.  But that constructor never sets ``reference_p`` (its comment says
  "default reference point is local zero point"; Eigen leaves it uninitialized), so
  the answer depends on what the heap held: measured, a bar turning 1.5 rad about
  its centre into a ball (contact at t = 0.93557) answered miss, a hit at t = 0,
  t = 0.4546 or t = 0.93552 for glibc's ``MALLOC_PERTURB_`` 255, 1, 85 and unset,
  the naive solver alike (python-fcl 0.7.0.11; python-fcl issue #11 reports
  continuous collision answers changing from run to run).  Not used.
* ``CCDM_SCREW`` (``ScrewMotion``): a constant twist from tf1 to tf2, turning about
  an axis line while sliding along it; every member set from the two poses (the
  same answer for every ``MALLOC_PERTURB_``).  It is sweeplab's path when the
  direction is parallel to the rotation (or zero): the screw's axis line then runs
  through the pivot along the rotation, and the pivot slides along it by t d.
  Otherwise the two paths share only their ends.
* ``CCDM_SPLINE``: a spline through the poses; with conservative advancement it
  answered a hit at t = 0 for a box turning clear of a ball (measured).

So a turning query is asked with ``CCDM_SCREW``, the geometry given in a frame
whose origin is the pivot (a polyhedron's, polygon's or mesh's vertices relative to
it, posed there), and only when the direction is parallel to the rotation within
``SCREW_ALIGNMENT``; otherwise, for a turn of π or more (read from the end pose as
the shorter turn the other way), and for a sphere or capsule turning about a pivot
other than its centre (fcl's are centred on their own origin; the default pivot,
the centroid, is taken as that centre), ``ValueError`` (not judged).  Only
``"slerp"`` is fcl's (``interpolations``).  fcl's conservative advancement ignores
``toc_err`` and ``num_max_iterations`` for shape pairs (measured: the same t for
1e-4 to 1e-10 and 10 to 1000): the bar above answered t = 0.9355199933, the contact
being at acos(1/6) / 1.5 = 0.9355654984.
"""

from __future__ import annotations

import fcl
import numpy as np

from sweeplab.engines import package_version
from sweeplab.scene.query_log import Engine, EngineAnswer
from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, TriangleMesh
from sweeplab.physics.sweep.turning import Motion, centroid

SOLVERS = {"conservative_advancement": fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT,
           "naive": fcl.CCDSolverType.CCDC_NAIVE, "ray_shooting": fcl.CCDSolverType.CCDC_RAY_SHOOTING,
           "polynomial": fcl.CCDSolverType.CCDC_POLYNOMIAL_SOLVER}

SCREW_ALIGNMENT = 2.0 ** -40
"""The largest sine of the angle between a turning query's direction and its rotation
(about 9.1e-13) for which fcl's screw motion is taken as sweeplab's path: a point's
paths then part by about |d| sin / θ (θ the turn), far below fcl's own error
(its conservative advancement stops ~5e-5 of the sweep early)."""

UNSUPPORTED = {Plane: "continuousCollide with fcl's Plane crashed the process"}
"""Shape types with no fcl geometry, and why (every other shape type is mapped)."""


class FclAdapter:
    interpolations = ("slerp",)
    """How fcl can turn the moving shape (``InterpMotion``: constant angular velocity)."""

    def __init__(self, solver: str = "conservative_advancement", toc_err: float | None = None,
                 num_max_iterations: int | None = None):
        if solver not in SOLVERS:
            raise ValueError(f"solver must be one of {', '.join(SOLVERS)}, got {solver!r}")
        self.solver = solver
        self.request = fcl.ContinuousCollisionRequest()
        self.request.ccd_solver_type = SOLVERS[solver]
        self.request.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
        if toc_err is not None:
            self.request.toc_err = toc_err
        if num_max_iterations is not None:
            self.request.num_max_iterations = num_max_iterations
        self.info = Engine("fcl", f"python-fcl {package_version('python-fcl')} ({solver})", "float64")
        self.turning_request = fcl.ContinuousCollisionRequest()
        for name in ("ccd_solver_type", "toc_err", "num_max_iterations"):
            setattr(self.turning_request, name, getattr(self.request, name))
        self.turning_request.ccd_motion_type = fcl.CCDMotionType.CCDM_SCREW

    def answer(self, moving, target, direction, *, rotation=None, pivot=None,
               interpolation: str = "slerp") -> EngineAnswer:
        """fcl's answer; turning as ``sweep``'s keyword arguments say (module
        docstring: ``ValueError`` for a turn fcl's motion cannot follow)."""
        if self.solver == "conservative_advancement" and isinstance(target, (Polygon, TriangleMesh)) \
                and not isinstance(moving, TriangleMesh):
            raise TypeError("fcl's conservative advancement crashes the process (segfault) on a triangle, polygon "
                            "or mesh target: choose another fcl solver for those")
        direction = np.asarray(direction, float)
        request, turn, anchor = self.request, np.eye(3), None
        if rotation is not None and np.any(np.asarray(rotation, float) != 0):
            request, turn = self.turning_request, _end_rotation(direction, rotation, interpolation)
            anchor = centroid(moving) if pivot is None else np.asarray(pivot, float)
        geometry, start_rotation, origin = fcl_geometry(moving, anchor)
        if pivot is not None and anchor is not None and not np.array_equal(origin, anchor):
            raise ValueError(f"fcl turns a {type(moving).__name__} about its centre {origin.tolist()} only (its "
                             f"geometry is centred on its origin), not about the pivot {anchor.tolist()}")
        target_geometry, target_rotation, target_origin = fcl_geometry(target)
        start = fcl.CollisionObject(geometry, fcl.Transform(start_rotation, origin))
        still = fcl.Transform(target_rotation, target_origin)
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(start, fcl.Transform(turn @ start_rotation, origin + direction),
                              fcl.CollisionObject(target_geometry, still), still, request, result)
        return EngineAnswer(bool(result.is_collide), float(result.time_of_contact) if result.is_collide else None)


def _end_rotation(direction: np.ndarray, rotation, interpolation: str) -> np.ndarray:
    """The end rotation exp([rotation]×) of a turn that fcl's ``ScrewMotion`` follows
    as sweeplab does (module docstring); ``TypeError`` for an interpolation other than
    slerp (fcl has none), ``ValueError`` for a turn of π or more or a direction not
    parallel to the rotation (``SCREW_ALIGNMENT``)."""
    if interpolation != "slerp":
        raise TypeError(f"fcl turns with constant angular velocity (slerp) only, not {interpolation!r}")
    rotation = np.asarray(rotation, float)
    angle = float(np.linalg.norm(rotation))
    if not angle < np.pi:
        raise ValueError(f"fcl reads a turn from its end pose: a turn of π or more (here {angle!r} rad) would be "
                         "the shorter turn the other way")
    across = float(np.linalg.norm(np.cross(direction, rotation)))
    if across > SCREW_ALIGNMENT * float(np.linalg.norm(direction)) * angle:
        raise ValueError("fcl's one turning motion that does not read uninitialized memory (ScrewMotion) follows "
                         "sweeplab's path only for a direction parallel to the rotation (or zero)")
    return Motion(direction, rotation).matrix(1.0)


def make_adapter(**options) -> FclAdapter:
    return FclAdapter(**options)


def fcl_geometry(shape, origin=None) -> tuple[object, np.ndarray, np.ndarray]:
    """fcl's geometry of a single physics shape and its pose (rotation, origin): a
    polygon's, polyhedron's or mesh's vertices relative to ``origin`` (None: the world
    origin), a sphere or capsule about its centre, whatever ``origin`` says."""
    identity, origin = np.eye(3), np.zeros(3) if origin is None else np.asarray(origin, float)
    if isinstance(shape, Sphere):
        return fcl.Sphere(float(shape.radius)), identity, np.asarray(shape.center, float)
    if isinstance(shape, Point):
        return fcl.Sphere(0.0), identity, np.asarray(shape.p, float)
    if isinstance(shape, (Capsule, Segment)):
        radius = float(shape.radius) if isinstance(shape, Capsule) else 0.0
        return capsule_geometry(np.asarray(shape.a, float), np.asarray(shape.b, float), radius)
    if isinstance(shape, Polygon):  # a triangle too (fcl's TriangleP has no CCD: it answered every sweep "miss")
        corners = np.asarray(shape.vertices, float)
        fan = np.array([[0, k, k + 1] for k in range(1, len(corners) - 1)])
        return _bvh(corners - origin, fan), identity, origin
    if isinstance(shape, ConvexPolyhedron):
        corners = np.asarray(shape.vertices, float)
        faces = np.concatenate([[len(loop), *loop] for loop in shape.faces]).astype(np.int64)
        return fcl.Convex(corners - origin, len(shape.faces), faces), identity, origin
    if isinstance(shape, TriangleMesh):
        return _bvh(shape.world_vertices() - origin, shape.faces), identity, origin
    raise TypeError(f"no fcl geometry for a {type(shape).__name__}: {UNSUPPORTED.get(type(shape), 'not mapped')}")


def capsule_geometry(a: np.ndarray, b: np.ndarray, radius: float) -> tuple[object, np.ndarray, np.ndarray]:
    """fcl's capsule (local axis z, centred) from the segment a-b: its rotation's
    third column is the unit axis."""
    axis = b - a
    length = float(np.linalg.norm(axis))
    rotation = np.eye(3)
    if length > 0:
        z = axis / length
        x = np.cross(np.eye(3)[np.argmin(np.abs(z))], z)
        x /= np.linalg.norm(x)
        rotation = np.stack([x, np.cross(z, x), z], axis=1)
    return fcl.Capsule(radius, length), rotation, (a + b) / 2


def _bvh(vertices: np.ndarray, triangles: np.ndarray):
    model = fcl.BVHModel()
    model.beginModel(len(vertices), len(triangles))
    model.addSubModel(np.asarray(vertices, float), np.asarray(triangles, np.int64))
    model.endModel()
    return model
