"""Sweeps that turn: a shape translating *and rotating* over t in [0, 1] (issue #35).

A ``Motion`` moves a point x of a shape (at t = 0) to

    x(t) = p + t d + R(t) (x - p)

with d the ``direction``, p the ``pivot`` (a world point at t = 0 that travels with the
translation; None: the shape's ``centroid``) and R(t) the turn by the rotation vector
``rotation`` (axis times angle θ in radians, the whole turn over the sweep):
``"slerp"`` turns at constant angular velocity, R(t) = exp(t [rotation]x) (parry,
Bullet, FCL's InterpMotion); ``"nlerp"`` lerps the quaternion from identity to the end
turn and normalizes it (Box2D / Box3D's ``b3Sweep``), which cannot turn π or more.

``sweep(..., rotation=...)`` and ``time_of_impact`` (both shapes moving) answer with
conservative advancement (``physics.sweep.advancement``).  What is guaranteed:

* a hit's ``t`` has no contact before it: every step advances by the separation
  along a fixed axis divided by a proven bound on how fast it can fall
  (``speed_bound``), so the shapes are apart on [0, t) up to the rounding of the
  distances (a few ulps of the pair's size);
* at ``t`` the shapes touch to within ``tolerance.TURNING_TOUCH_RTOL`` times the
  pair's size (its largest coordinate, radius, pivot or direction component); the
  ``point`` is on the target's surface (the moving shape's surface is within that
  tolerance of it), the ``normal`` the closest features' normal, from the target
  towards the moving shape;
* at most ``advancement.MAX_ADVANCES`` steps are taken (each one GJK distance); a
  pair that has neither touched nor passed t = 1 by then answers ``hit`` False with
  ``advancement.converged`` False and ``advancement.safe_until`` the last time
  certified contact-free: never a late or early time;
* touching or overlapping at t = 0 is the linear sweep's answer at t = 0 (its depth,
  normal, point and feature), the pose at t = 0 being the same;
* a zero rotation is the linear sweep, bit for bit.

``moving_feature`` and the target's ``feature`` come from the closest points' span of
each core (one row a vertex, two an edge, more a face); meshes are walked with their
sphere tree (a node is tested against a ball that holds the moving shape at every t)
and their triangles advanced one by one, with no internal-edge rule.  Planes cannot
turn (every point far from the pivot would move arbitrarily fast).
"""

from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple

import numpy as np

from sweeplab.physics import tolerance
from sweeplab.physics.gjk import core_of
from sweeplab.physics.core import EDGE, FACE, VERTEX
from sweeplab.physics.result import FEATURE_KINDS, MISS, Feature, SweepResult, answer_dtype
from sweeplab.physics.shapes import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Shape, Sphere, Triangle,
                                     TriangleMesh, vector_argument)
from sweeplab.physics.sweep import advancement
from sweeplab.physics.sweep.advancement import (AT_START, HIT, MOTION_WIDTH, NLERP, SLERP, UNDECIDED, mesh_lanes,
                                                one_advance, pair_lanes, traced_advance)
from sweeplab.physics.sweep.scalar import LaneKernel, lane_form, plain_vector

INTERPOLATIONS = {"slerp": SLERP, "nlerp": NLERP}
"""Interpolation names and their kernel codes."""


class Advancement(NamedTuple):
    """How a turning sweep was answered: ``iterations`` of conservative advancement,
    ``converged`` (False: the step budget ran out, no answer), ``safe_until`` (no
    contact in [0, safe_until): 1 for a miss, t for a hit).  Arrays in a batch."""

    iterations: object
    converged: object
    safe_until: object


class AdvanceStep(NamedTuple):
    """One step of conservative advancement: at time ``t`` the shapes are ``distance``
    apart (radii taken off), their separation can fall at most at ``bound`` per unit
    t, so the next step is ``advance`` later (inf: never closer)."""

    t: float
    distance: float
    bound: float
    advance: float


class Motion:
    """A rigid motion over t in [0, 1]: translation by t ``direction`` and a turn by
    ``rotation`` (axis × angle, radians) about ``pivot`` (None: the shape's centroid
    where one is given), interpolated as ``interpolation`` says (module docstring).
    Arrays broadcast like a batch.  Raises ``ValueError`` naming the argument."""

    __slots__ = ("direction", "rotation", "pivot", "interpolation", "angle")
    direction: np.ndarray
    rotation: np.ndarray
    pivot: np.ndarray | None
    interpolation: str
    angle: np.ndarray

    def __init__(self, direction=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0), pivot=None, interpolation: str = "slerp"):
        direction = vector_argument(direction, "direction")
        rotation = vector_argument(rotation, "rotation")
        pivot = None if pivot is None else vector_argument(pivot, "pivot")
        if interpolation not in INTERPOLATIONS:
            raise ValueError(f"interpolation must be one of {', '.join(INTERPOLATIONS)}, got {interpolation!r}")
        angle = np.sqrt(np.sum(np.asarray(rotation, np.float64) ** 2, axis=-1))
        if interpolation == "nlerp" and np.any(angle >= math.pi):
            raise ValueError(f"rotation: nlerp cannot turn pi or more in one sweep (its quaternion lerp passes "
                             f"through zero at pi), got an angle of {float(np.max(angle))!r} rad")
        for name, value in (("direction", direction), ("rotation", rotation), ("pivot", pivot)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "interpolation", interpolation)
        object.__setattr__(self, "angle", angle)

    def __setattr__(self, name, value):
        raise AttributeError("Motion is immutable")

    def __repr__(self) -> str:
        pivot = None if self.pivot is None else self.pivot.tolist()
        return (f"Motion(direction={self.direction.tolist()}, rotation={self.rotation.tolist()}, pivot={pivot}, "
                f"interpolation={self.interpolation!r})")

    @property
    def turns(self) -> bool:
        """Whether any element turns (a nonzero rotation)."""
        return bool(np.any(self.angle > 0))

    def turned_angle(self, t) -> np.ndarray:
        """φ(t), the angle turned by time t."""
        t = np.asarray(t, np.float64)
        if self.interpolation == "nlerp":
            half = 0.5 * self.angle
            return 2.0 * np.arctan2(t * np.sin(half), (1.0 - t) + t * np.cos(half))
        return self.angle * t

    def axis(self) -> np.ndarray:
        """The unit axis of the rotation, (..., 3); +z where it does not turn."""
        angle = np.asarray(self.angle)
        unit = np.asarray(self.rotation, np.float64) / np.where(angle > 0, angle, 1.0)[..., None]
        return np.where((angle > 0)[..., None], unit, (0.0, 0.0, 1.0))

    def matrix(self, t) -> np.ndarray:
        """R(t), (..., 3, 3) (Rodrigues' formula about the rotation's axis)."""
        axis = self.axis()
        phi = np.asarray(self.turned_angle(t))
        c, s = np.cos(phi)[..., None, None], np.sin(phi)[..., None, None]
        x, y, z = axis[..., 0], axis[..., 1], axis[..., 2]
        zero = np.zeros_like(x)
        cross_matrix = np.stack([np.stack([zero, -z, y], -1), np.stack([z, zero, -x], -1),
                                 np.stack([-y, x, zero], -1)], -2)
        outer = axis[..., :, None] * axis[..., None, :]
        return c * np.eye(3) + s * cross_matrix + (1.0 - c) * outer

    def point(self, x, t, pivot=None) -> np.ndarray:
        """Where the point ``x`` (at t = 0) is at time t: p + t d + R(t) (x - p); ``pivot``
        stands in for a motion without one."""
        pivot = self._pivot(pivot)
        x = np.asarray(x, np.float64)
        turned = np.einsum("...ij,...j->...i", self.matrix(t), x - pivot)
        return pivot + np.asarray(t, np.float64)[..., None] * self.direction + turned

    def _pivot(self, given) -> np.ndarray:
        if self.pivot is not None:
            return np.asarray(self.pivot, np.float64)
        if given is None:
            raise ValueError("pivot: this motion has none (give one, or a shape whose centroid it is)")
        return np.asarray(given, np.float64)

    def rows(self, pivot, batch_shape: tuple) -> np.ndarray:
        """The kernels' motion rows (N, ``MOTION_WIDTH``) over ``batch_shape``."""
        pivot = self._pivot(pivot)
        rows = np.empty(batch_shape + (MOTION_WIDTH,))
        rows[..., 0:3], rows[..., 3:6], rows[..., 6] = self.direction, self.axis(), self.angle
        rows[..., 7:10], rows[..., 10] = pivot, INTERPOLATIONS[self.interpolation]
        return rows.reshape(-1, MOTION_WIDTH)

    @property
    def batch_shape(self) -> tuple:
        """The broadcast batch shape of the direction, rotation and pivot."""
        shapes = [self.direction.shape[:-1], self.rotation.shape[:-1]]
        if self.pivot is not None:
            shapes.append(self.pivot.shape[:-1])
        return np.broadcast_shapes(*shapes)


STILL = Motion()
"""A shape that does not move."""


# --- shapes as the kernels see them --------------------------------------------------------

def centroid(shape: Shape) -> np.ndarray:
    """The default pivot (..., 3): a sphere's center, a capsule's or segment's midpoint,
    a polygon's vertex mean, a solid polyhedron's volume centroid (the vertex mean of a
    flat one), a mesh's world vertex mean, a plane's point nearest the origin."""
    if isinstance(shape, Plane):
        return shape.normal * shape.offset[..., None]
    if isinstance(shape, TriangleMesh):
        return shape.world_vertices().mean(axis=0)
    if isinstance(shape, ConvexPolyhedron) and shape.dimension == 3:
        return _volume_centroid(np.asarray(shape.vertices, np.float64), shape.faces)
    points, _ = core_of(shape)
    return np.asarray(points, np.float64).mean(axis=-2)


def _volume_centroid(vertices: np.ndarray, faces) -> np.ndarray:
    """Σ V_k c_k / Σ V_k over the tetrahedra (apex, f0, fi, fi+1) of every face fan, the
    apex the vertex mean: V_k = det(f0 - apex, fi - apex, fi+1 - apex) / 6 and
    c_k = (apex + f0 + fi + fi+1) / 4; computed from the apex at unit size (volumes
    cube lengths: 1e103 cubed overflows)."""
    apex = vertices.mean(axis=-2)
    spread = np.abs(vertices - apex[..., None, :]).max(axis=(-2, -1))
    unit = np.ldexp(1.0, -np.frexp(np.where(spread > 0, spread, 1.0))[1])[..., None, None]  # (volumes cube lengths)
    relative = (vertices - apex[..., None, :]) * unit
    total, moment = 0.0, 0.0
    for face in faces:
        for i in range(1, len(face) - 1):
            a, b, c = relative[..., face[0], :], relative[..., face[i], :], relative[..., face[i + 1], :]
            volume = np.einsum("...i,...i->...", a, np.cross(b, c)) / 6.0
            total = total + volume
            moment = moment + volume[..., None] * (a + b + c) / 4.0
    return apex + moment / np.asarray(total)[..., None] / unit[..., 0]


def posed(shape: Shape, motion: Motion, t) -> Shape:
    """``shape`` at time ``t`` of ``motion`` (pivot None: the shape's centroid), any kind."""
    pivot = centroid(shape) if motion.pivot is None else motion.pivot

    def at(vertices):  # x(t) = p + t d + R(t) (x - p) for every row of (..., V, 3)
        p = np.asarray(pivot, np.float64)[..., None, :]
        turned = np.einsum("...ij,...vj->...vi", motion.matrix(t), np.asarray(vertices, np.float64) - p)
        return p + np.asarray(t, np.float64)[..., None, None] * np.asarray(motion.direction)[..., None, :] + turned

    if isinstance(shape, Sphere):
        return Sphere(motion.point(shape.center, t, pivot), shape.radius)
    if isinstance(shape, Point):
        return Point(motion.point(shape.p, t, pivot))
    if isinstance(shape, Capsule):
        return Capsule(motion.point(shape.a, t, pivot), motion.point(shape.b, t, pivot), shape.radius)
    if isinstance(shape, Segment):
        return Segment(motion.point(shape.a, t, pivot), motion.point(shape.b, t, pivot))
    if isinstance(shape, Triangle):
        corners = at(shape.vertices)
        return Triangle(corners[..., 0, :], corners[..., 1, :], corners[..., 2, :])
    if isinstance(shape, Polygon):
        return Polygon(at(shape.vertices))
    if isinstance(shape, ConvexPolyhedron):
        return ConvexPolyhedron(at(shape.vertices))
    if isinstance(shape, TriangleMesh):
        rotation = motion.matrix(t)
        new_rotation = rotation @ shape.rotation
        new_translation = motion.point(shape.translation, t, pivot)
        return TriangleMesh(shape.vertices, shape.faces, translation=new_translation, rotation=new_rotation)
    if isinstance(shape, Plane):
        if motion.turns:
            raise ValueError("rotation: a Plane cannot turn")
        return Plane(shape.normal, shape.offset + np.einsum("...i,...i->...", shape.normal, motion.direction) * t)
    raise TypeError(f"cannot pose a {type(shape).__name__}")


def speed_bound(shape: Shape, motion: Motion) -> float:
    """The proven bound on the speed of any point of ``shape``'s core under ``motion``:
    |d| + Ω r (Ω: θ for slerp, 4 tan(θ/4) for nlerp; r: the core's farthest point
    from the pivot).  One shape and one motion."""
    points = shape.world_vertices() if isinstance(shape, TriangleMesh) else core_of(shape)[0]
    pivot = centroid(shape) if motion.pivot is None else motion.pivot
    farthest = float(np.max(np.linalg.norm(np.asarray(points, np.float64) - pivot, axis=-1)))
    angle = float(np.max(motion.angle))
    omega = 4.0 * math.tan(angle / 4.0) if motion.interpolation == "nlerp" else angle
    return float(np.max(np.linalg.norm(motion.direction, axis=-1))) + omega * farthest


# --- answers -------------------------------------------------------------------------------

class Body(NamedTuple):
    """A float64 shape as ``one_advance`` takes it: its ``core`` (k, 3), ``radius``,
    ``plane`` (normal, offset; NaN but for a plane) and ``size`` (its largest
    |coordinate|, radius or offset)."""

    core: np.ndarray
    radius: float
    plane: np.ndarray
    size: float


def body_of(shape: Shape) -> Body | None:
    """``shape``'s ``Body`` (None: a mesh, or not float64)."""
    if isinstance(shape, TriangleMesh):
        return None
    if isinstance(shape, Plane):
        if shape.normal.dtype != np.float64 or shape.offset.dtype != np.float64:
            return None
        plane = plane_row(shape.normal, shape.offset)
        return Body(np.zeros((1, 3)), 0.0, plane, abs(float(plane[3])))
    points, radius = core_of(shape)
    if points.dtype != np.float64 or np.asarray(radius).dtype != np.float64:
        return None
    core = np.array(points, np.float64)
    return Body(core, float(radius), np.full(4, math.nan), max(float(np.abs(core).max()), float(radius)))


def plane_row(normal, offset) -> np.ndarray:
    """A plane's (..., 4) kernel row (unit normal, offset) in float64: a float32
    plane's normal is unit only to float32 rounding (|n| - 1 = -1.8e-9 seen), so
    {x : n · x = offset} is taken as n / |n|, offset / |n| (heights along a normal
    that is not unit disagreed with the plane's own point by the same 1e-9, and a
    step went past the contact)."""
    normal, offset = np.asarray(normal, np.float64), np.asarray(offset, np.float64)
    length = np.sqrt(np.sum(normal * normal, axis=-1))
    return np.concatenate([normal / length[..., None], (offset / length)[..., None]], axis=-1)


def plain_centroid(shape: Shape) -> tuple:
    """``centroid(shape)`` as three floats (kept with the shape by ``lane_form``)."""
    x, y, z = centroid(shape).tolist()
    return (x, y, z)


_one_advance = LaneKernel(one_advance)

_STILL_ROW = STILL.rows(np.zeros(3), ())[0]


def one_pair(moving: Shape, target: Shape, direction, rotation, pivot, interpolation: str) -> SweepResult | None:
    """The answer of one unbatched turning sweep of float64 convex shapes (or a plane
    target) given as plain vectors, where it is decided after t = 0; else None (the
    general path answers, and raises for what it must)."""
    d, r = plain_vector(direction), plain_vector(rotation)
    p = None if pivot is None else plain_vector(pivot)
    code = INTERPOLATIONS.get(interpolation)
    if d is None or r is None or (pivot is not None and p is None) or code is None:
        return None
    angle = math.sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2])
    if not (math.isfinite(angle) and 0.0 < angle and math.isfinite(d[0] + d[1] + d[2])) \
            or (p is not None and not math.isfinite(p[0] + p[1] + p[2])) or (code == NLERP and angle >= math.pi):
        return None
    if moving.batch_shape != () or isinstance(moving, (Plane, TriangleMesh)) or target.batch_shape != () \
            or (isinstance(moving, Polygon) and isinstance(target, Plane)):
        return None
    a, b = lane_form(moving, body_of), lane_form(target, body_of)
    if a is None or b is None or not UNIT_BAND[0] <= max(a.size, b.size, *map(abs, d), *map(abs, p or (0.0,))) \
            <= UNIT_BAND[1]:
        return None
    pivot_point = lane_form(moving, plain_centroid) if p is None else p
    motion = np.array([*d, r[0] / angle, r[1] / angle, r[2] / angle, angle, *pivot_point, float(code)])
    status, t, iterations, point, normal, code_a, index_a, code_b, index_b, spans = \
        (_one_advance.machine_code or _one_advance)(a.core, a.radius, motion, b.core, b.radius, _STILL_ROW, b.plane,
                                                    tolerance.TURNING_TOUCH_RTOL)
    if status == AT_START:
        return None
    if status != HIT:
        steps = Advancement(int(iterations), status != UNDECIDED, float(t) if status == UNDECIDED else 1.0)
        return dataclasses.replace(MISS, advancement=steps)
    code_b, index_b = _feature(target, int(code_b), int(index_b), spans[1])
    code_a, index_a = _feature(moving, int(code_a), int(index_a), spans[0])
    result = object.__new__(SweepResult)
    fields = result.__dict__
    fields["hit"], fields["t"] = True, float(t)
    fields["point"], fields["normal"] = np.array(point), np.array(normal)
    fields["face_index"] = index_b if isinstance(target, ConvexPolyhedron) and code_b == FACE else None
    fields["penetration_depth"], fields["initially_overlapping"] = None, False
    fields["feature"] = Feature(kind=FEATURE_KINDS[code_b], index=index_b)
    fields["moving_feature"] = Feature(kind=FEATURE_KINDS[code_a], index=index_a)
    fields["advancement"] = Advancement(int(iterations), True, float(t))
    return result


def _feature(shape: Shape, code: int, index: int, span) -> tuple[int, int]:
    """One contact's (code, index) of ``shape``'s feature (``_features``)."""
    if isinstance(shape, Sphere):
        return FACE, 0
    if isinstance(shape, Plane):
        return FACE, 0
    if isinstance(shape, ConvexPolyhedron):
        return _polyhedron_feature(lane_form(shape, feature_table), span)
    return code, index


def time_of_impact(a: Shape, motion_a: Motion, b: Shape, motion_b: Motion) -> SweepResult:
    """The first contact of ``a`` moving by ``motion_a`` with ``b`` moving by
    ``motion_b`` (module docstring): the normal from b towards a, the point on b at t,
    b's ``feature`` and a's ``moving_feature``.  Raises ``TypeError`` for a pair no
    sweep supports and ``ValueError`` for a turning plane."""
    for name, shape in (("a", a), ("b", b)):
        if not isinstance(shape, Shape):
            raise TypeError(f"{name} must be a shape, got {type(shape).__name__}")
    for shape, motion in ((a, motion_a), (b, motion_b)):
        if isinstance(shape, Plane) and motion.turns:
            raise ValueError("rotation: a Plane cannot turn (its points far from the pivot would move arbitrarily "
                             "fast)")
    if not motion_a.turns and not motion_b.turns:
        return _linear(a, motion_a, b, motion_b)
    if isinstance(a, (Plane, TriangleMesh)) or (isinstance(a, Polygon) and isinstance(b, (Plane, TriangleMesh))):
        if isinstance(b, (Plane, TriangleMesh, Polygon)) and isinstance(a, (Plane, TriangleMesh, Polygon)):
            raise TypeError(f"no sweep test between a {type(a).__name__} and a {type(b).__name__}: both are surfaces")
        return _swapped(time_of_impact(b, motion_b, a, motion_a))
    return _advance(a, motion_a, b, motion_b)


def _linear(a: Shape, motion_a: Motion, b: Shape, motion_b: Motion) -> SweepResult:
    from sweeplab.physics.sweep.dispatch import sweep
    return sweep(a, b, motion_a.direction - motion_b.direction)


def _swapped(result: SweepResult) -> SweepResult:
    """The answer with the shapes' roles exchanged: the normal reversed, the features
    exchanged (the touching point stays: both surfaces meet there)."""
    normal = None if result.normal is None else -result.normal
    moving = result.moving_feature if result.moving_feature is not None else Feature(kind=None, index=None)
    return dataclasses.replace(result, normal=normal, feature=moving, moving_feature=result.feature)


def _advance(a: Shape, motion_a: Motion, b: Shape, motion_b: Motion) -> SweepResult:
    dtype = answer_dtype(*(shape for shape in (a, b) if not isinstance(shape, TriangleMesh)), motion_a.direction)
    batch_shape = np.broadcast_shapes(a.batch_shape, motion_a.batch_shape, motion_b.batch_shape,
                                      () if isinstance(b, TriangleMesh) else b.batch_shape)
    count = math.prod(batch_shape)
    core_a, radius_a = core_of(a)
    lanes = _Lanes(count)
    rows_a = motion_a.rows(default_pivot(a, motion_a), batch_shape)
    cores_a = _flat(core_a, batch_shape, 2)
    if isinstance(b, TriangleMesh):
        _mesh_walks(cores_a, _flat(radius_a, batch_shape, 0), rows_a, b, motion_b, batch_shape, lanes)
    else:
        if isinstance(b, Plane):
            plane = plane_row(_flat(b.normal, batch_shape, 1), _flat(b.offset, batch_shape, 0))
            core_b, radius_b = np.zeros((count, 1, 3)), np.zeros(count)
            rows_b = motion_b.rows(np.zeros(3), batch_shape)
        else:
            points_b, radii_b = core_of(b)
            core_b, radius_b, plane = _flat(points_b, batch_shape, 2), _flat(radii_b, batch_shape, 0), \
                np.full((count, 4), math.nan)
            rows_b = motion_b.rows(default_pivot(b, motion_b), batch_shape)
        radii_a = _flat(radius_a, batch_shape, 0)
        lengths = (cores_a, radii_a, rows_a[:, 0:3], rows_a[:, 7:10], core_b, radius_b, rows_b[:, 0:3],
                   rows_b[:, 7:10]) + ((plane[:, 3],) if isinstance(b, Plane) else ())
        factor = unit_factor(lengths)
        if factor != 1.0:  # exact: a power of two
            for length in lengths:
                length *= factor
        pair_lanes(count, cores_a, radii_a, rows_a, core_b, radius_b, rows_b, plane, tolerance.TURNING_TOUCH_RTOL,
                   *lanes.outputs())
        lanes.point /= factor
    return _result(a, motion_a, b, motion_b, lanes, batch_shape, dtype)


UNIT_BAND = (2.0 ** -64, 2.0 ** 64)
"""The sizes a turning sweep is answered at as given; beyond, at unit size (``unit_factor``)."""


def unit_factor(lengths) -> float:
    """1 where the largest |length| is within ``UNIT_BAND``, else the power of two that
    takes it to [1, 2): the kernels square lengths (GJK, the advancement's roots), and
    2^±64 squared is far inside float64.  Scaling every length by it is exact, and the
    answer's t and normal do not change (the point is scaled back)."""
    size = max(float(np.max(np.abs(length), initial=0.0)) for length in lengths)
    if size == 0.0 or UNIT_BAND[0] <= size <= UNIT_BAND[1]:
        return 1.0
    return math.ldexp(1.0, -math.frexp(size)[1] + 1)


def default_pivot(shape: Shape, motion: Motion) -> np.ndarray | None:
    """The pivot a motion without one turns ``shape`` about: its centroid; none is
    needed where the motion has a pivot, and the origin serves one that does not turn
    (x(t) = x + t d, exactly)."""
    if motion.pivot is not None:
        return None
    return centroid(shape) if motion.turns else np.zeros(3)


def _flat(array, batch_shape: tuple, element_dims: int) -> np.ndarray:
    array = np.asarray(array, np.float64)
    element = array.shape[array.ndim - element_dims:] if element_dims else ()
    return np.array(np.broadcast_to(array, batch_shape + element).reshape((-1,) + element))  # (a writable copy)


class _Lanes:
    """What the lane kernels write, one row per lane."""

    def __init__(self, count: int):
        self.status, self.t = np.empty(count, np.int64), np.empty(count)
        self.iterations = np.empty(count, np.int64)
        self.point, self.normal = np.empty((count, 3)), np.empty((count, 3))
        self.codes, self.features = np.full((count, 2), -1, np.int64), np.full((count, 2), -1, np.int64)
        self.spans, self.face = np.full((count, 2, 4), -1, np.int64), np.full(count, -1, np.int64)

    def outputs(self) -> tuple:
        return self.status, self.t, self.iterations, self.point, self.normal, self.codes, self.features, self.spans


def _mesh_walks(core, radius, rows, mesh: TriangleMesh, motion: Motion, batch_shape: tuple, lanes: _Lanes) -> None:
    """The body's walks through ``mesh``, in the mesh's body coordinates (every point,
    pivot, direction and rotation vector taken there; the answers taken back)."""
    from sweeplab.physics.sweep.mesh import walk_arrays
    tree_arrays, _ = mesh.cached("walk arrays <f8", lambda: walk_arrays(mesh, np.dtype(np.float64)))
    mesh_rows = motion.rows(default_pivot(mesh, motion), batch_shape)
    local_core = np.ascontiguousarray(mesh.to_body(core))
    for motion_rows in (rows, mesh_rows):
        motion_rows[:, 0:3] = mesh.vectors_to_body(motion_rows[:, 0:3])
        motion_rows[:, 3:6] = mesh.vectors_to_body(motion_rows[:, 3:6])
        motion_rows[:, 7:10] = mesh.to_body(motion_rows[:, 7:10])
    vertices = np.asarray(mesh.vertices, np.float64)
    slack = tolerance.BVH_CULL_RTOL * max(float(np.abs(vertices).max()), float(np.abs(local_core).max()), 1e-300)
    mesh_lanes(len(radius), tree_arrays[:4], vertices, np.asarray(mesh.faces, np.int64), local_core, radius, rows,
               mesh_rows, tolerance.TURNING_TOUCH_RTOL, slack, *lanes.outputs(), lanes.face)
    lanes.point[...] = mesh.to_world(lanes.point)
    lanes.normal[...] = mesh.vectors_to_world(lanes.normal)


def _result(a, motion_a, b, motion_b, lanes: _Lanes, batch_shape: tuple, dtype) -> SweepResult:
    """The public answer of the lanes: hits, the linear answer at t = 0 where the shapes
    touch there, features named per shape."""
    scalar = batch_shape == ()
    status, t = lanes.status, lanes.t.copy()
    hit = (status == HIT) | (status == AT_START)
    undecided = status == UNDECIDED
    safe_until = np.where(hit, t, np.where(undecided, t, 1.0))
    t[~hit] = math.nan
    point, normal = lanes.point.copy(), lanes.normal.copy()
    point[~hit], normal[~hit] = math.nan, math.nan
    depth = np.full(len(t), math.nan)
    target_kind, target_index = _features(b, lanes.codes[:, 1], lanes.features[:, 1], lanes.spans[:, 1], hit)
    moving_kind, moving_index = _features(a, lanes.codes[:, 0], lanes.features[:, 0], lanes.spans[:, 0], hit)
    face_index = np.where(hit, lanes.face, -1) if isinstance(b, TriangleMesh) else \
        np.where(hit & (target_kind == FACE), target_index, -1) if isinstance(b, ConvexPolyhedron) else \
        np.full(len(t), -1)
    start = np.flatnonzero(status == AT_START)
    if len(start):
        _answer_at_start(a, b, batch_shape, start, point, normal, depth, target_kind, target_index, face_index)
    shape = batch_shape
    iterations = lanes.iterations.reshape(shape)
    converged = (~undecided).reshape(shape)
    cast = (lambda x: x.astype(dtype)) if dtype != np.float64 else (lambda x: x)
    if dtype != np.float64:  # t rounded down: no contact before the float32 time either
        rounded = t.astype(dtype)
        rounded = np.where(rounded > t, np.nextafter(rounded, dtype.type(-np.inf)), rounded)
        t = rounded.astype(np.float64)
        safe_until = np.where(hit, t, safe_until)
    result = SweepResult.from_arrays(t=cast(t.reshape(shape)), point=cast(point.reshape(shape + (3,))),
                                     normal=cast(normal.reshape(shape + (3,))), face_index=face_index.reshape(shape),
                                     penetration_depth=cast(depth.reshape(shape)),
                                     feature_code=target_kind.reshape(shape), feature_index=target_index.reshape(shape),
                                     scalar=False)
    moving = Feature.from_codes(moving_kind.reshape(shape), moving_index.reshape(shape))
    if scalar:
        return _scalar(result, moving, Advancement(int(iterations), bool(converged), float(safe_until[0])))
    return dataclasses.replace(result, moving_feature=moving,
                               advancement=Advancement(iterations, converged, safe_until.reshape(shape)))


def _scalar(result: SweepResult, moving: Feature, steps: Advancement) -> SweepResult:
    if not bool(result.hit):
        return SweepResult(hit=False, t=None, point=None, normal=None, face_index=None, penetration_depth=None,
                           initially_overlapping=False, feature=Feature(kind=None, index=None), moving_feature=None,
                           advancement=steps)
    depth = float(result.penetration_depth)
    face = int(result.face_index)
    return SweepResult(hit=True, t=float(result.t), point=np.array(result.point), normal=np.array(result.normal),
                       face_index=face if face >= 0 else None, penetration_depth=None if math.isnan(depth) else depth,
                       initially_overlapping=not math.isnan(depth),
                       feature=Feature(kind=str(result.feature.kind), index=int(result.feature.index)),
                       moving_feature=Feature(kind=str(moving.kind), index=int(moving.index)), advancement=steps)


def _features(shape: Shape, codes, indices, spans, hit) -> tuple[np.ndarray, np.ndarray]:
    """(kind codes, indices) of each lane's feature of ``shape`` (-1 where no hit): a
    sphere's is its surface (face 0); a polyhedron's spanning rows name a vertex, an
    edge of ``shape.edges`` or the first face holding them."""
    codes, indices = np.where(hit, codes, -1), np.where(hit, indices, -1)
    if isinstance(shape, Sphere):
        return np.where(hit, FACE, -1), np.where(hit, 0, -1)
    if isinstance(shape, ConvexPolyhedron):
        table = feature_table(shape)
        for lane in np.flatnonzero(hit):
            codes[lane], indices[lane] = _polyhedron_feature(table, spans[lane])
    return codes, indices


class FeatureTable(NamedTuple):
    """A polyhedron's features by their corners: ``edges`` maps a corner pair to its
    edge index, ``faces`` holds each face's corners (in face order)."""

    edges: dict
    faces: list


def feature_table(polyhedron: Shape) -> FeatureTable:
    """``polyhedron``'s ``FeatureTable`` (the structure a batch shares)."""
    assert isinstance(polyhedron, ConvexPolyhedron)
    edges = {frozenset((int(first), int(second))): index for index, (first, second) in enumerate(polyhedron.edges)}
    return FeatureTable(edges, [frozenset(int(v) for v in face) for face in polyhedron.faces])


def _polyhedron_feature(table: FeatureTable, span) -> tuple[int, int]:
    """(code, index) of the feature the spanning corners name: one a vertex, two an edge
    (a face's diagonal: the face), more the first face holding them all."""
    rows = frozenset(int(r) for r in span if r >= 0)
    if len(rows) == 1:
        return VERTEX, next(iter(rows))
    if len(rows) == 2 and rows in table.edges:
        return EDGE, table.edges[rows]
    for index, face in enumerate(table.faces):
        if rows <= face:
            return FACE, index
    return VERTEX, min(rows)


def _answer_at_start(a, b, batch_shape, lanes, point, normal, depth, kind, index, face_index) -> None:
    """Where the shapes touch or overlap at t = 0, the linear sweep's answer at t = 0
    (a zero direction: the overlap test), whose pose is the same."""
    from sweeplab.physics.sweep.dispatch import sweep
    if batch_shape == () or any(isinstance(shape, Shape) and shape.batch_shape not in ((), batch_shape)
                                for shape in (a, b) if not isinstance(shape, TriangleMesh)):
        # every lane asked (shapes that broadcast)
        picked, asked, still = (lambda shape: shape), np.arange(len(point)), np.zeros(batch_shape + (3,))
    else:  # only the lanes at the start asked
        where = np.unravel_index(lanes, batch_shape)
        picked, asked = (lambda shape: shape if isinstance(shape, TriangleMesh) or shape.batch_shape == ()
                         else shape[where]), lanes
        still = np.zeros((len(asked), 3))
    at_start = sweep(picked(a), picked(b), still)
    row_of = np.full(len(point), -1)
    row_of[asked] = np.arange(len(asked))
    hits = np.asarray(at_start.hit).reshape(-1)
    chosen = lanes[hits[row_of[lanes]]]
    if not len(chosen):
        return
    rows = row_of[chosen]
    point[chosen] = np.asarray(at_start.point, np.float64).reshape(-1, 3)[rows]
    normal[chosen] = np.asarray(at_start.normal, np.float64).reshape(-1, 3)[rows]
    depth[chosen] = np.asarray(at_start.penetration_depth, np.float64).reshape(-1)[rows]
    names = np.asarray(at_start.feature.kind).reshape(-1)[rows]
    kind[chosen] = [FEATURE_KINDS.index(str(name)) for name in names]
    index[chosen] = np.asarray(at_start.feature.index).reshape(-1)[rows]
    faces = -1 if at_start.face_index is None else at_start.face_index  # (a scalar answer's None: no face)
    face_index[chosen] = np.broadcast_to(np.asarray(faces, np.int64), (len(asked),)).reshape(-1)[rows]


def advancement_steps(moving: Shape, target: Shape, direction, *, rotation, pivot=None,
                      interpolation: str = "slerp") -> list[AdvanceStep]:
    """Every step of the advancement ``sweep(moving, target, direction, rotation=...)``
    takes (one moving shape, one convex or plane target): the editor's "Conservative
    advancement" panel.  A zero rotation takes none (the linear sweep answers)."""
    motion = Motion(direction, rotation, pivot, interpolation)
    if not motion.turns:
        return []
    if moving.batch_shape != () or isinstance(target, TriangleMesh) or target.batch_shape != () \
            or motion.batch_shape != ():
        raise ValueError("advancement_steps takes one moving shape, one convex or plane target and one motion")
    core_a, radius_a = core_of(moving)
    if isinstance(target, Plane):
        core_b, radius_b = np.zeros((1, 3)), np.zeros(())
        plane = plane_row(target.normal, target.offset)
    else:
        core_b, radius_b = core_of(target)
        plane = np.full(4, math.nan)
    trace = tuple(np.empty(advancement.MAX_ADVANCES) for _ in range(4))
    _, _, iterations = traced_advance(np.array(core_a, np.float64), float(radius_a),
                                      motion.rows(centroid(moving), ())[0], np.array(core_b, np.float64),
                                      float(radius_b), STILL.rows(np.zeros(3), ())[0], plane,
                                      tolerance.TURNING_TOUCH_RTOL, trace)
    steps = min(int(iterations), advancement.MAX_ADVANCES)
    return [AdvanceStep(*(float(column[k]) for column in trace)) for k in range(steps)]
