"""Jolt (Jorrit Rouwe's, through ``culverin``'s C binding, f32 shapes) as an engine.

culverin needs Python 3.12 or newer (its wheels are cp312 and up): on 3.11 this
module cannot be imported and ``engine("jolt")`` says which extra to install.

What the binding exposes (culverin 0.15.0, read in its source and checked here):
``PhysicsWorld.shapecast(shape, pos, rot, dir, size)``, Jolt's
``NarrowPhaseQuery::CastShape`` of a *primitive* (sphere, capsule, box) against the
world's bodies, the closest hit kept.  So each query builds a world holding the
target alone as a static body (``create_body``, ``create_convex_hull`` or
``create_mesh_body``), steps it once (bodies join the broad phase at a step) and
casts the moving shape along the whole direction: Jolt's fraction is sweeplab's t.
The answer's point is Jolt's ``contactPointOn2``, on the target, in the world; its
normal culverin's ``-penetrationAxis`` (renormalised here: culverin scales it by a
fast approximate 1/sqrt), from the target towards the moving shape — sweeplab's
convention, as measured: a sphere coming down onto one below answers +z.

Shapes.  Moving: a sphere (``SHAPE_SPHERE``, its radius), a capsule (``SHAPE_CAPSULE``:
Jolt's axis is its local y, ``size = (half the segment's length, radius)``, turned by
the quaternion taking y onto the segment; a capsule of length 0 is a sphere) and a
polyhedron that is a box (``SHAPE_BOX``, its half extents and axes: ``box_frame``).
Jolt's box keeps its 0.05 convex radius for the solver, but a cast uses the sharp
box (``ESupportMode::Default``): measured, a sphere on a cube's corner along the
diagonal answers t exact to float32.  Target: a sphere, a capsule, a polyhedron as
a convex hull of its corners (sharp too, the same measurement), a triangle, a
polygon's fan and a mesh's world triangles as a mesh.  culverin casts with
``IgnoreBackFaces`` for triangles, so a triangle answers only from its front;
sweeplab's triangles are two-sided, so each is given to Jolt in both windings.

Not answered.  culverin clamps every size below 1 mm up to 1 mm (``MIN_SIZE``), so
a point or segment has no Jolt shape (``TypeError``) and a sphere, capsule or box
smaller than that is refused (``ValueError``); Jolt's plane is a solid half-space,
sweeplab's a two-sided surface; a moving triangle, polygon, mesh or polyhedron other
than a box has no culverin cast; a zero-area triangle fails Jolt's mesh build.

Conventions seen: culverin casts convex shapes with ``IgnoreBackFaces`` too, so a
hit whose penetration axis does not point along the motion is dropped: spheres
overlapping at t = 0 and moving apart answer a miss (sweeplab: a hit at t = 0), and
so did 18 of 1,000 fuzzed box pairs overlapping at t = 0 though approaching by
sweeplab's normal; overlapping and approaching, t = 0 with the penetration axis as
the normal.  Where a face touches a face, that axis is unsettled: two cubes face to
face answered t exact and a normal (0.71, 0.71, 0).  A query (a world built, one
step, one cast) took about 2.5 ms here.  Jolt stops within its collision tolerance
(``COLLISION_TOLERANCE``) of touching: measured over 2,000 sphere pairs hitting, the
surfaces end -4.9e-7 (float32 round-off) to 9.98e-5 apart, so the answer carries
``contact_tolerance = 1e-4`` (``engines.contact_offset``): head-on that is a |dt| of
1e-4 / |d·n| at most, at a graze, where the surfaces close slowly, far more.
"""

from __future__ import annotations

import itertools
import culverin
import numpy as np

from sweeplab.engines import package_version
from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle,
                              TriangleMesh)
from sweeplab.scene.query_log import Engine, EngineAnswer

MIN_SIZE = 1e-3
"""culverin's smallest size (length units): a radius, half height or half extent
below it is clamped up to it (``find_or_create_shape_locked``)."""
COLLISION_TOLERANCE = 1e-4
"""Jolt's ``cDefaultCollisionTolerance`` (length units): its cast stops once the
shapes are this close (culverin keeps ``ShapeCastSettings``' default); measured, the
surfaces end up to 9.98e-5 apart."""
BOX_TOLERANCE = 1e-9
"""How far (relative to the box's size) a polyhedron's corners may be from a box's
for ``box_frame`` to take it as one (the fuzzer's boxes are exact to 1e-15)."""

UNSUPPORTED = {Plane: "Jolt's plane is a solid half-space, sweeplab's a two-sided surface",
               Point: "culverin clamps every size to at least 1 mm: no point",
               Segment: "culverin clamps every size to at least 1 mm: no segment"}
"""Shape types with no Jolt shape, and why."""
IDENTITY = (0.0, 0.0, 0.0, 1.0)
"""A quaternion (x, y, z, w), culverin's order: no turn."""


def _size(value: float, what: str) -> float:
    """``value`` as culverin takes it; ``ValueError`` below ``MIN_SIZE`` (clamped there)."""
    if value < MIN_SIZE:
        raise ValueError(f"culverin clamps sizes below 1 mm to 1 mm: the {what} {value!r} is not answered")
    return float(value)


def quaternion(rotation: np.ndarray) -> tuple[float, float, float, float]:
    """The unit quaternion (x, y, z, w) of a rotation matrix (columns: the turned
    axes), Shepperd's method: from the largest of w², x², y², z²,

        4w² = 1 + trace,  4wx = R21 - R12,  4wy = R02 - R20,  4wz = R10 - R01, ...
    """
    r = np.asarray(rotation, float)
    trace = r[0, 0] + r[1, 1] + r[2, 2]
    squares = [1 + trace, 1 + 2 * r[0, 0] - trace, 1 + 2 * r[1, 1] - trace, 1 + 2 * r[2, 2] - trace]
    largest = int(np.argmax(squares))
    s = 2 * np.sqrt(squares[largest])  # 4 times the largest component
    if largest == 0:
        q = (r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1], s * s / 4)
    elif largest == 1:
        q = (s * s / 4, r[0, 1] + r[1, 0], r[0, 2] + r[2, 0], r[2, 1] - r[1, 2])
    elif largest == 2:
        q = (r[0, 1] + r[1, 0], s * s / 4, r[1, 2] + r[2, 1], r[0, 2] - r[2, 0])
    else:
        q = (r[0, 2] + r[2, 0], r[1, 2] + r[2, 1], s * s / 4, r[1, 0] - r[0, 1])
    x, y, z, w = (float(v / s) for v in q)
    return x, y, z, w


def y_onto(axis: np.ndarray) -> tuple[float, float, float, float]:
    """The quaternion turning +y (a Jolt capsule's axis) onto the unit ``axis`` (x, y,
    z): half the angle between them about y × axis, q = normalise(y × axis, 1 + y·axis)
    = normalise((z, 0, -x), 1 + y), with 1 + y = (x² + z²) / (1 - y) for y < 0 (no
    cancellation near -y); a half turn about x for -y itself, where y × axis vanishes."""
    x, y, z = (float(v) for v in axis)
    if x == 0 and z == 0 and y < 0:
        return 1.0, 0.0, 0.0, 0.0
    q = np.array([z, 0.0, -x, 1.0 + y if y >= 0 else (x * x + z * z) / (1.0 - y)])
    qx, qy, qz, qw = (float(v) for v in q / np.linalg.norm(q))
    return qx, qy, qz, qw


def capsule_pose(capsule: Capsule) -> tuple[tuple, tuple, tuple[float, float]]:
    """(centre, quaternion, (half height, radius)) of a Jolt capsule for ``capsule``."""
    a, b = np.asarray(capsule.a, float), np.asarray(capsule.b, float)
    length = float(np.linalg.norm(b - a))
    centre = tuple(float(v) for v in (a + b) / 2)
    return centre, y_onto((b - a) / length), (_size(length / 2, "capsule's half length"),
                                              _size(float(capsule.radius), "capsule radius"))


def box_frame(polyhedron: ConvexPolyhedron) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(centre, rotation (columns: unit axes, right-handed), half extents) of a
    polyhedron whose eight corners are a box's, None for any other: from one corner
    p0, three edges e1, e2, e3 to other corners, mutually perpendicular, such that the
    corners are p0 + {0, 1}e1 + {0, 1}e2 + {0, 1}e3 (to ``BOX_TOLERANCE`` times the
    box's diagonal)."""
    corners = np.asarray(polyhedron.vertices, float)
    if corners.shape != (8, 3) or polyhedron.dimension != 3:
        return None
    edges = corners[1:] - corners[0]
    scale = float(np.linalg.norm(edges, axis=1).max())
    for e1, e2, e3 in itertools.combinations(edges, 3):
        if max(abs(e1 @ e2), abs(e1 @ e3), abs(e2 @ e3)) > BOX_TOLERANCE * scale * scale:
            continue
        expected = corners[0] + np.array([i * e1 + j * e2 + k * e3 for i in (0, 1) for j in (0, 1) for k in (0, 1)])
        if all(np.linalg.norm(corners - point, axis=1).min() <= BOX_TOLERANCE * scale for point in expected):
            lengths = np.linalg.norm([e1, e2, e3], axis=1)
            rotation = np.column_stack([e1, e2, e3]) / lengths
            if np.linalg.det(rotation) < 0:  # a box is symmetric: flipping an axis keeps it
                rotation[:, 2] *= -1
            return corners[0] + (e1 + e2 + e3) / 2, rotation, lengths / 2
    return None


def moving_shape(shape) -> tuple[int, tuple, tuple, float | tuple]:
    """(culverin shape constant, position, quaternion, size) of a moving shape."""
    if isinstance(shape, Sphere):
        return culverin.SHAPE_SPHERE, tuple(map(float, shape.center)), IDENTITY, _size(float(shape.radius),
                                                                                        "sphere radius")
    if isinstance(shape, Capsule):
        if np.array_equal(shape.a, shape.b):
            return moving_shape(Sphere(shape.a, shape.radius))
        return (culverin.SHAPE_CAPSULE, *capsule_pose(shape))
    if isinstance(shape, ConvexPolyhedron):
        frame = box_frame(shape)
        if frame is None:
            raise ValueError("culverin casts a box, not another convex hull: this polyhedron is no box")
        middle, rotation, half = frame
        return (culverin.SHAPE_BOX, tuple(map(float, middle)), quaternion(rotation),
                tuple(_size(float(h), "box's half extent") for h in half))
    if type(shape) in UNSUPPORTED:
        raise TypeError(f"no Jolt shape for a {type(shape).__name__}: {UNSUPPORTED[type(shape)]}")
    raise TypeError(f"culverin casts spheres, capsules and boxes only, not a {type(shape).__name__}")


def _triangles(shape) -> tuple[np.ndarray, np.ndarray]:
    """World vertices (float32, flat) and triangles in both windings (uint32, flat)
    of a triangle, polygon (its fan) or mesh: two-sided, as sweeplab's are."""
    if isinstance(shape, TriangleMesh):
        vertices, faces = shape.world_vertices(), np.asarray(shape.faces, np.int64)
    else:
        vertices = np.asarray(shape.vertices, float)
        faces = np.array([[0, k, k + 1] for k in range(1, len(vertices) - 1)], np.int64)
    both = np.concatenate([faces, faces[:, ::-1]])
    return np.ascontiguousarray(vertices, np.float32).ravel(), np.ascontiguousarray(both, np.uint32).ravel()


def add_target(world, shape) -> None:
    """Put ``shape`` into ``world`` as its one static body."""
    static = culverin.MOTION_STATIC
    if isinstance(shape, Sphere) or (isinstance(shape, Capsule) and np.array_equal(shape.a, shape.b)):
        middle = shape.center if isinstance(shape, Sphere) else shape.a
        world.create_body(pos=tuple(map(float, middle)), size=_size(float(shape.radius), "sphere radius"),
                          shape=culverin.SHAPE_SPHERE, motion=static)
    elif isinstance(shape, Capsule):
        centre, turn, size = capsule_pose(shape)
        world.create_body(pos=centre, rot=turn, size=size, shape=culverin.SHAPE_CAPSULE, motion=static)
    elif isinstance(shape, ConvexPolyhedron):
        corners = np.ascontiguousarray(shape.vertices, np.float32).ravel()
        world.create_convex_hull((0.0, 0.0, 0.0), IDENTITY, corners, motion=static)
    elif isinstance(shape, (Triangle, Polygon, TriangleMesh)):
        vertices, indices = _triangles(shape)
        try:
            world.create_mesh_body((0.0, 0.0, 0.0), IDENTITY, vertices, indices)
        except RuntimeError as error:  # "Jolt Mesh BVH build failed (Triangle data degenerate?)"
            raise ValueError(f"Jolt cannot build the mesh: {error}") from None
    else:
        raise TypeError(f"no Jolt shape for a {type(shape).__name__}: "
                        f"{UNSUPPORTED.get(type(shape), 'not mapped')}")


class JoltAdapter:
    interpolations: tuple[str, ...] = ()
    """The binding sweeps without turning (``engines.Adapter``)."""

    def __init__(self):
        self.info = Engine("jolt", f"culverin {package_version('culverin')} (Jolt, f32)", "float32")

    def answer(self, moving, target, direction) -> EngineAnswer:
        """``ValueError`` for a shape culverin would change (below 1 mm) or Jolt refuses."""
        kind, position, turn, size = moving_shape(moving)
        world = culverin.PhysicsWorld(settings={"gravity": (0.0, 0.0, 0.0), "max_bodies": 4, "num_threads": 1})
        add_target(world, target)
        world.step(1 / 60)  # bodies join the broad phase at a step
        found = world.shapecast(kind, position, turn, tuple(map(float, direction)), size)
        if found is None:
            return EngineAnswer(False, contact_tolerance=COLLISION_TOLERANCE)
        _, fraction, point, normal = found
        normal = np.asarray(normal, float)
        length = float(np.linalg.norm(normal))
        return EngineAnswer(True, float(fraction), [float(v) for v in point],
                            (normal / length).tolist() if length > 0 else None, contact_tolerance=COLLISION_TOLERANCE)


def make_adapter(**options) -> JoltAdapter:
    if options:
        raise ValueError(f"the jolt engine takes no options, got {', '.join(options)}")
    return JoltAdapter()
