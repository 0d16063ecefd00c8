"""Box3D (Erin Catto's, through ``robox3d``'s cffi layer, f32) as an engine.

Box3D casts *shape proxies*: a convex hull of points, rounded by a radius.
``b3ShapeCast`` casts proxy B along ``translationB`` against proxy A, both given in
A's frame; ``b3ShapeCastMesh`` casts a proxy against a ``b3Mesh`` (built here from
the mesh's world triangles with ``b3CreateMesh``, destroyed after the query).  The
target is A (or the mesh), the moving shape B, every frame the world's (identity
transform), so the answer's ``point`` is on the target in the world and its
``normal`` points from the target towards the moving shape — sweeplab's convention,
as measured (robox3d 0.1.0): a sphere coming down onto one below answers +z.

Shapes map to proxies: a sphere its centre and radius, a capsule its two centres
and radius, a point, segment, triangle, polygon or polyhedron its corners with
radius 0.  A plane has no Box3D query (Box3D has no plane shape: sweeplab's plane
is an unbounded two-sided surface), and a mesh can be a target, never the moving
shape (a proxy is convex): those raise ``TypeError``.

The linear slop.  Box3D does not cast to contact: it stops where the distance
between the proxies' cores is ``target = max(LINEAR_SLOP, R - LINEAR_SLOP)``, R
the sum of the two radii, so the surfaces are then

    contact_offset = target - R = max(LINEAR_SLOP - R, -LINEAR_SLOP)

apart: +0.005 (short of contact) for pairs without radius, -0.005 (inside) for
pairs whose radii add to 0.01 or more, in between linearly (measured: sphere
pairs head-on, R from 0 to 1).  Its conservative advancement stops once within
``CAST_TOLERANCE`` (a quarter of the slop) of that target, so the surfaces end
between ``contact_offset`` and ``contact_offset + CAST_TOLERANCE`` apart.  The answer
keeps Box3D's raw fraction as ``t`` and carries both: ``engines.contact_offset``
compares it with sweeplab's answer for that contact, and says so.

An initial overlap (cores closer than ``target`` at the start) answers t = 0 with a
zero normal: mapped to a hit at t = 0 with normal None (not judged).

A turning sweep (#35, ``"nlerp"`` only: ``interpolations``) is asked of
``b3TimeOfImpact`` (robox3d exposes it, with ``b3GetSweepTransform``): the target
still (``sweepA`` the identity), the moving proxy's points in the world at t = 0 and
its ``b3Sweep`` with ``localCenter = c1`` = the pivot, ``c2`` = pivot + direction,
``q1`` the identity and ``q2`` = (cos(θ/2), sin(θ/2) u) for the rotation θ u.  Box3D
poses it at t as ``q = nlerp(q1, q2, t)``, ``p = lerp(c1, c2, t) - q localCenter``,
so a point x of it is at pivot + t d + q (x - pivot): sweeplab's ``"nlerp"`` motion
(under π the two quaternions are in the same hemisphere, so no sign flip).  Its
target separation is the cast's (measured: unit spheres head-on stop 0.005 deep,
t = 0.3005), but its root finder stops within ``CAST_TOLERANCE`` of that target
on either side (Box2D's ``b2TimeOfImpact`` accepts |s - target| < tolerance; the
cast only farther): measured, the bar of ``tests/engines/test_turning_lens.py``
turning into a ball stopped 0.00096 deeper than 0.005 inside.  So its answer
carries ``contact_offset - CAST_TOLERANCE`` and a tolerance of twice
``CAST_TOLERANCE``.  Its ``point`` is halfway between the surfaces (the cast's is on
the target), its normal from the target towards the moving shape, as the cast's.
``b3_toiStateFailed`` (its iterations ran out) is a hit at its fraction, as Box3D's
own solver takes it; a mesh target raises ``TypeError`` (the binding has no
time of impact against a mesh).
"""

from __future__ import annotations

import math

import numpy as np
from robox3d._ffi import ffi, lib

from sweeplab.engines import package_version
from sweeplab.physics import Plane, TriangleMesh
from sweeplab.physics.gjk import core_and_margin
from sweeplab.physics.sweep.turning import centroid
from sweeplab.scene.query_log import Engine, EngineAnswer

LINEAR_SLOP = 0.005
"""Box3D's ``B3_LINEAR_SLOP`` (length units, metres in Box3D): measured, not read
from a header (robox3d's cdef has no such constant)."""
CAST_TOLERANCE = LINEAR_SLOP / 4
"""How much farther than its target distance Box3D's cast may stop (measured over
2,110 sphere pairs hitting: 0 to 0.00125 farther)."""

UNSUPPORTED = {Plane: "Box3D has no plane shape (sweeplab's plane is an unbounded two-sided surface)"}
"""Shape types with no Box3D proxy, and why (a mesh is a target only)."""


def contact_offset(total_radius: float) -> float:
    """The separation of the surfaces (length units) at which Box3D reports contact,
    for proxies whose radii add to ``total_radius``: > 0 short of contact, < 0 inside,

        max(LINEAR_SLOP, R - LINEAR_SLOP) - R = max(LINEAR_SLOP - R, -LINEAR_SLOP)

    (the right side: exactly -LINEAR_SLOP for a large R, no round-off)."""
    return max(LINEAR_SLOP - total_radius, -LINEAR_SLOP)


def proxy_points(shape) -> tuple[np.ndarray, float]:
    """The points (world, (n, 3)) and radius of the Box3D proxy of a convex shape:
    its core and rounding radius (``physics.gjk.core_and_margin``)."""
    if isinstance(shape, TriangleMesh):
        raise TypeError("Box3D casts convex proxies: a mesh can be the target, not the moving shape")
    if type(shape) in UNSUPPORTED:
        raise TypeError(f"no Box3D proxy for a {type(shape).__name__}: {UNSUPPORTED[type(shape)]}")
    return core_and_margin(shape)


def _vectors(points: np.ndarray):
    """A cffi ``b3Vec3[]`` of the points (rounded to float32)."""
    array = ffi.new("b3Vec3[]", len(points))
    for slot, (x, y, z) in zip(array, np.asarray(points, float).tolist(), strict=True):
        slot.x, slot.y, slot.z = x, y, z
    return array


def _set_proxy(proxy, points, radius: float) -> None:
    """Fill a ``b3ShapeProxy`` (``points``: a ``b3Vec3[]`` kept alive by the caller)."""
    proxy.points, proxy.count, proxy.radius = points, len(points), radius


def _vector(value) -> list[float]:
    return [float(value.x), float(value.y), float(value.z)]


def _set_vector(slot, value) -> None:
    slot.x, slot.y, slot.z = (float(v) for v in value)


class Box3dAdapter:
    interpolations = ("nlerp",)
    """How Box3D turns the moving shape (``b3Sweep``: the quaternion lerped and normalized)."""

    def __init__(self):
        self.info = Engine("box3d", f"robox3d {package_version('robox3d')} (Box3D, f32)", "float32")

    def answer(self, moving, target, direction, *, rotation=None, pivot=None,
               interpolation: str = "nlerp") -> EngineAnswer:
        """Box3D's answer; turning as ``sweep``'s keyword arguments say (module
        docstring), by ``"nlerp"`` only (``TypeError`` for another)."""
        points, radius = proxy_points(moving)
        moving_points = _vectors(points)
        if rotation is not None and np.any(np.asarray(rotation, float) != 0):
            if interpolation != "nlerp":
                raise TypeError(f"Box3D turns by nlerp (its b3Sweep) only, not {interpolation!r}")
            if isinstance(target, TriangleMesh):
                raise TypeError("robox3d has no time of impact against a mesh: Box3D turns no sweep onto one")
            corners, target_radius = proxy_points(target)
            target_points = _vectors(corners)
            pivot = centroid(moving) if pivot is None else np.asarray(pivot, float)
            output = _time_of_impact(target_points, target_radius, moving_points, radius,
                                     pivot, np.asarray(direction, float), np.asarray(rotation, float))
        elif isinstance(target, TriangleMesh):
            target_radius = 0.0
            output = _cast_mesh(target, moving_points, radius, direction)
        else:
            corners, target_radius = proxy_points(target)
            target_points = _vectors(corners)
            pair = ffi.new("b3ShapeCastPairInput*")
            _set_proxy(pair.proxyA, target_points, target_radius)
            _set_proxy(pair.proxyB, moving_points, radius)
            pair.transform.q.s = 1.0  # B in A's frame: the identity (both in the world)
            pair.translationB.x, pair.translationB.y, pair.translationB.z = (float(v) for v in direction)
            pair.maxFraction, pair.canEncroach = 1.0, False
            output = lib.b3ShapeCast(pair)
        offset, band = contact_offset(radius + target_radius), CAST_TOLERANCE
        if isinstance(output, _Stop):  # the time of impact's band: its target, either side
            offset, band = offset - CAST_TOLERANCE, 2 * CAST_TOLERANCE
        if not output.hit:
            return EngineAnswer(False, contact_offset=offset, contact_tolerance=band)
        normal = _vector(output.normal)
        return EngineAnswer(True, float(output.fraction), _vector(output.point), normal if any(normal) else None,
                            offset, band)


class _Stop:
    """``b3TimeOfImpact``'s answer in the cast's terms (``hit``, ``fraction``, ``point``, ``normal``)."""

    def __init__(self, output):
        if output.state == lib.b3_toiStateUnknown:
            raise ValueError("Box3D's time of impact answered state unknown")
        self.hit = output.state != lib.b3_toiStateSeparated  # (failed: a hit at its fraction, as Box3D's solver)
        self.fraction, self.point = output.fraction, output.point
        self.normal = output.normal


def _time_of_impact(target_points, target_radius: float, moving_points, radius: float, pivot: np.ndarray,
                    direction: np.ndarray, rotation: np.ndarray) -> _Stop:
    """``b3TimeOfImpact`` of the still target and the moving proxy turning by
    ``rotation`` (nlerp) about ``pivot`` while moving along ``direction`` (module docstring)."""
    toi = ffi.new("b3TOIInput*")
    _set_proxy(toi.proxyA, target_points, target_radius)
    _set_proxy(toi.proxyB, moving_points, radius)
    toi.sweepA.q1.s = toi.sweepA.q2.s = 1.0
    angle = float(np.linalg.norm(rotation))
    _set_vector(toi.sweepB.localCenter, pivot)
    _set_vector(toi.sweepB.c1, pivot)
    _set_vector(toi.sweepB.c2, pivot + direction)
    toi.sweepB.q1.s, toi.sweepB.q2.s = 1.0, math.cos(angle / 2)
    _set_vector(toi.sweepB.q2.v, rotation / angle * math.sin(angle / 2))
    toi.maxFraction = 1.0
    return _Stop(lib.b3TimeOfImpact(toi))


def _cast_mesh(mesh: TriangleMesh, moving_points, radius: float, direction):
    """``b3ShapeCastMesh`` of the proxy against the mesh's world triangles."""
    vertices = _vectors(mesh.world_vertices())
    indices = ffi.new("int32_t[]", np.asarray(mesh.faces, np.int64).ravel().tolist())
    definition = ffi.new("b3MeshDef*")
    definition.vertices, definition.indices = vertices, indices
    definition.vertexCount, definition.triangleCount = len(vertices), len(mesh.faces)
    data = lib.b3CreateMesh(definition, ffi.NULL, 0)
    if data == ffi.NULL:
        raise ValueError("Box3D could not build the mesh (b3CreateMesh returned NULL)")
    try:
        shape = ffi.new("b3Mesh*")
        shape.data = data
        shape.scale.x = shape.scale.y = shape.scale.z = 1.0
        cast = ffi.new("b3ShapeCastInput*")
        _set_proxy(cast.proxy, moving_points, radius)
        cast.translation.x, cast.translation.y, cast.translation.z = (float(v) for v in direction)
        cast.maxFraction, cast.canEncroach = 1.0, False
        return lib.b3ShapeCastMesh(shape, cast)
    finally:
        lib.b3DestroyMesh(data)


def make_adapter(**options) -> Box3dAdapter:
    if options:
        raise ValueError(f"the box3d engine takes no options, got {', '.join(options)}")
    return Box3dAdapter()
