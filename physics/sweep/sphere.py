"""Sweeps of a moving sphere against every target of the sphere family.

Each test is the ball kernel of ``physics.sweep.ball`` on the target's core:
a point is a one-vertex core, a sphere a one-vertex core inflated by its radius
(sphere vs sphere is a point vs a sphere of the summed radius), a segment a
two-vertex core, a triangle or polygon its vertex loop; a plane has its own slab.

Every pair function takes ``(sphere, target, direction, *, ignore_separating=False)``
and returns a ``SweepResult`` (batched when any input is).
``ignore_separating`` drops a contact at t = 0 whose motion does not move deeper
into the target (``dot(direction, normal) >= 0``): what a character controller wants
to slide along a wall it already touches.  Convex targets cannot be touched again
later, so the answer is then a miss.

Degenerate inputs (for every function here):

* zero ``direction``: an overlap test at t = 0 — a hit with t = 0 when touching
  or overlapping, else a miss (with ``ignore_separating`` always a miss);
* zero radius: a ray (point) cast; the normal at an edge or vertex is the limit
  just before contact: the reversed motion, made perpendicular to the edge;
* zero-length segment, zero-area triangle or polygon: the point or edges it
  collapses to (no face is tested when the area is exactly zero);
* initial overlap: ``t = 0``, ``initially_overlapping``, ``penetration_depth`` and
  the separating ``normal`` (a minimum translation); where the sphere's center lies
  exactly on the target's core, the separating direction is picked along the
  motion (else a face's normal, an edge's perpendicular, or +z).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sweeplab.physics.result import SweepResult
from sweeplab.physics.shapes import Capsule, Plane, Point, Polygon, Segment, Sphere, Triangle
from sweeplab.physics.sweep.ball import (ball_core_answer, ball_core_lanes, ball_plane_answer, ball_plane_lanes,
                                         ball_point_lanes)
from sweeplab.physics.sweep.query import answer_lanes, pair_test


@pair_test
def sweep_sphere_point(sphere: Sphere, point: Point, direction, *, ignore_separating=False) -> SweepResult:
    """Sphere against a point: the point enters the sphere.  Feature: vertex 0.

    Degenerate inputs: zero direction — an overlap test; zero radius — a point
    against a point, a hit only when the line passes exactly through it, normal
    -direction; center on the point (initial overlap) — depth = radius, normal
    along the motion (+z when still)."""
    return _sweep_target_core(sphere, point, direction, ignore_separating)


@pair_test
def sweep_sphere_sphere(sphere: Sphere, target: Sphere, direction, *, ignore_separating=False) -> SweepResult:
    """Sphere against sphere: the center against a sphere of the summed radius.
    Feature: face 0 (the target's surface).

    Degenerate inputs: zero direction — an overlap test; zero radii — a point
    against a point (as ``sweep_sphere_point``); concentric initial overlap —
    depth = summed radius, normal along the motion (+z when still)."""
    return _sweep_target_core(sphere, target, direction, ignore_separating)


@pair_test
def sweep_sphere_segment(sphere: Sphere, segment: Segment, direction, *, ignore_separating=False) -> SweepResult:
    """Sphere against a segment: an infinite cylinder cut to the segment plus the
    two end balls.  Features: edge 0, vertex 0 (``a``) and vertex 1 (``b``).

    Degenerate inputs: zero direction — an overlap test; zero radius — a ray
    against the segment, normal = the reversed motion made perpendicular to it;
    zero-length segment — the point ``a`` (vertex 0); motion parallel to the
    segment — only the end balls can be entered; center on the segment — depth =
    radius, normal = the motion across the segment (any perpendicular if none)."""
    return _sweep_target_core(sphere, segment, direction, ignore_separating)


@pair_test
def sweep_sphere_capsule(sphere: Sphere, capsule: Capsule, direction, *, ignore_separating=False) -> SweepResult:
    """Sphere against a capsule: a segment inflated by the capsule's radius.
    Features: edge 0 (the side), vertex 0 / 1 (the end caps at ``a`` / ``b``).

    Degenerate inputs: as ``sweep_sphere_segment``; a zero-length capsule is a sphere
    (vertex 0)."""
    return _sweep_target_core(sphere, capsule, direction, ignore_separating)


@pair_test
def sweep_sphere_plane(sphere: Sphere, plane: Plane, direction, *, ignore_separating=False) -> SweepResult:
    """Sphere against a two-sided plane: the center against a slab of half-width r.
    Feature: face 0.

    Degenerate inputs: zero direction — an overlap test; zero radius — a ray cast;
    motion parallel to the plane — a hit only when touching at t = 0; center on the
    plane — depth = radius, normal = the plane normal on the side of the motion."""
    return answer_lanes(ball_plane_answer, ball_plane_lanes, [(sphere.center, 1), (sphere.radius, 0), (direction, 1),
                                                       (plane.normal, 1), (plane.offset, 0)], ignore_separating)


@pair_test
def sweep_sphere_triangle(sphere: Sphere, triangle: Triangle, direction, *, ignore_separating=False) -> SweepResult:
    """Sphere against a two-sided triangle: face slab, three edge cylinders, three
    vertex balls.  Features: face 0, edge i (vertex i to i + 1), vertex i.

    Degenerate inputs: zero direction — an overlap test; zero radius — a ray cast;
    sliver (zero-area) triangle — its edges and vertices only (the longest edge
    wins the ties its shorter ones share); a near-duplicate vertex does not cut the
    face (``tolerance.POLYGON_RTOL``); center in the face — depth = radius, normal =
    the face normal on the side of the motion."""
    return _sweep_target_core(sphere, triangle, direction, ignore_separating)


@pair_test
def sweep_sphere_polygon(sphere: Sphere, polygon: Polygon, direction, *, ignore_separating=False) -> SweepResult:
    """Sphere against a two-sided convex polygon: as a triangle, with V edges and
    vertices.  ``face_index`` is 0 on every hit (the polygon's one face).

    Degenerate inputs: as ``sweep_sphere_triangle``; a zero-area polygon is its
    edges; collinear vertices split an edge into edges that answer separately."""
    return _sweep_target_core(sphere, polygon, direction, ignore_separating)


class TargetCore(NamedTuple):
    """A sphere-family target as the ball kernel sees it."""

    vertices: np.ndarray     # (..., V, 3): the core (1 a point, 2 a segment, >= 3 a polygon)
    radius: np.ndarray       # how far the core is inflated: a sphere's or capsule's radius, else 0
    face_index: int | None   # reported on every hit (a polygon's one face), else none
    surface: bool            # every contact is the target's face 0 (a sphere's surface)


CORE_TARGETS = (Point, Sphere, Segment, Capsule, Triangle, Polygon)
"""Targets that are a convex polygon core inflated by a radius (all but the plane)."""


def target_core(target) -> TargetCore:
    """How the ball kernel sees a ``CORE_TARGETS`` shape: its core inflated by its
    radius (0 for all but spheres and capsules)."""
    vertices = target.core_vertices()
    radius = target.radius if isinstance(target, (Sphere, Capsule)) else np.zeros((), vertices.dtype)
    face_index = 0 if isinstance(target, Polygon) and not isinstance(target, Triangle) else None
    return TargetCore(vertices, radius, face_index, isinstance(target, Sphere))


def _sweep_target_core(sphere: Sphere, target, direction, ignore_separating) -> SweepResult:
    """A sphere against a ``CORE_TARGETS`` shape: ``ball_core`` on its core (a batch of
    one-point cores through ``ball_point_lanes``)."""
    core = target_core(target)
    loop = ball_point_lanes if core.vertices.shape[-2] == 1 else ball_core_lanes
    inputs = [(sphere.center, 1), (sphere.radius, 0), (direction, 1), (core.vertices, 2), (core.radius, 0)]
    return answer_lanes(ball_core_answer, loop, inputs, ignore_separating, face_index=core.face_index,
                        surface=core.surface)
