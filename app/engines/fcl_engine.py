"""python-fcl as an engine: ``continuousCollide`` with translational motion.

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
"""

from __future__ import annotations

import fcl
import numpy as np

from sweeplab.engines import package_version
from sweeplab.scene.query_log import Engine, EngineAnswer
from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, TriangleMesh

SOLVERS = {"conservative_advancement": fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT,
           "naive": fcl.CCDSolverType.CCDC_NAIVE, "ray_shooting": fcl.CCDSolverType.CCDC_RAY_SHOOTING,
           "polynomial": fcl.CCDSolverType.CCDC_POLYNOMIAL_SOLVER}

UNSUPPORTED = {Plane: "continuousCollide with fcl's Plane crashed the process"}
"""Shape types with no fcl geometry, and why (every other shape type is mapped)."""


class FclAdapter:
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

    def answer(self, moving, target, direction) -> EngineAnswer:
        if self.solver == "conservative_advancement" and isinstance(target, (Polygon, TriangleMesh)) \
                and not isinstance(moving, TriangleMesh):
            raise TypeError("fcl's conservative advancement crashes the process (segfault) on a triangle, polygon "
                            "or mesh target: choose another fcl solver for those")
        geometry, rotation, origin = fcl_geometry(moving)
        target_geometry, target_rotation, target_origin = fcl_geometry(target)
        direction = np.asarray(direction, float)
        start = fcl.CollisionObject(geometry, fcl.Transform(rotation, origin))
        still = fcl.Transform(target_rotation, target_origin)
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(start, fcl.Transform(rotation, origin + direction),
                              fcl.CollisionObject(target_geometry, still), still, self.request, result)
        return EngineAnswer(bool(result.is_collide), float(result.time_of_contact) if result.is_collide else None)


def make_adapter(**options) -> FclAdapter:
    return FclAdapter(**options)


def fcl_geometry(shape) -> tuple[object, np.ndarray, np.ndarray]:
    """fcl's geometry of a single physics shape and its pose (rotation, origin)."""
    identity, origin = np.eye(3), np.zeros(3)
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
        return _bvh(corners, fan), identity, origin
    if isinstance(shape, ConvexPolyhedron):
        corners = np.asarray(shape.vertices, float)
        faces = np.concatenate([[len(loop), *loop] for loop in shape.faces]).astype(np.int64)
        return fcl.Convex(corners, len(shape.faces), faces), identity, origin
    if isinstance(shape, TriangleMesh):
        return _bvh(shape.world_vertices(), shape.faces), identity, origin
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
