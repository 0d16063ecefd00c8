"""The moving shape's turn as the view draws it (issue #35): the scene's motion, the
shape posed at any t, ghost poses along the path, the pivot and the arc its
farthest point sweeps.

A point x of the moving shape (at t = 0) is at time t at

    x(t) = pivot + t * direction + R(t) (x - pivot)

(``physics.sweep.turning.Motion.point``; ``pivot`` is the scene's, or the shape's
centroid when it has none).  A drawing (``tessellate.Mesh``) is posed point by point
with that same ``Motion.point``: a rigid motion keeps a convex mesh's winding, so it
is still drawn with its back faces culled.  What is drawn for a turning sweep, and
why: ``GHOSTS`` faint outlines between the start and the end pose (a turn is read
from the shape's outline, not from a line), the pivot (a marker at t = 0 and its
straight path, which the translation alone moves), and the path of the drawn
point farthest from the pivot — the point whose speed the conservative advancement's
bound is made of, and the one whose arc shows the turn best (the centroid's arc is
a straight line when the pivot is the centroid, the default).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.physics.sweep.turning import Motion, centroid, posed
from sweeplab.scene import tessellate
from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import build_shape

GHOSTS = 6
"""Ghost poses drawn between the start and the end: at t = 1/7, 2/7, ..., 6/7."""

ARC_SAMPLES = 64
"""Segments of the drawn arc of the farthest point (a full turn: 5.6° each)."""


def pivot_of(scene: Scene) -> np.ndarray:
    """The world point the moving shape turns about at t = 0: the scene's ``pivot``,
    or the moving shape's centroid (``turning.centroid``) when it is None."""
    if scene.pivot is not None:
        return np.asarray(scene.pivot, float)
    moving = scene.moving_object()
    return np.asarray(centroid(build_shape(moving.kind, moving.params)), float)


def motion_of(scene: Scene) -> Motion:
    """The scene's motion of its moving shape (``ValueError`` naming what is wrong: a
    non-finite rotation or pivot, an nlerp turn of π or more, a turn of a shape the
    physics cannot turn — a plane — found by posing it at t = 1 as a sweep would)."""
    motion = Motion(np.asarray(scene.direction, float), np.asarray(scene.rotation, float), pivot_of(scene),
                    scene.interpolation)
    moving = scene.moving_object()
    posed(build_shape(moving.kind, moving.params), motion, 1.0)
    return motion


def posed_mesh(mesh: tessellate.Mesh, motion: Motion, t: float) -> tessellate.Mesh:
    """``mesh`` (drawn at t = 0) where the motion has it at time ``t``."""
    return tessellate.Mesh(_posed(motion, mesh.triangles, t), _posed(motion, mesh.outline, t),
                           _posed(motion, mesh.points, t), mesh.convex)


def _posed(motion: Motion, points: np.ndarray, t: float) -> np.ndarray:
    if points.size == 0:
        return points
    return np.asarray(motion.point(points, t), float).reshape(points.shape)


@dataclass
class TurnDrawing:
    """What a turning sweep adds to the view, in world coordinates."""

    ghosts: np.ndarray
    """Outline segments (n, 2, 3) of the ``GHOSTS`` poses between start and end."""
    pivot: np.ndarray
    """The pivot at t = 0 (3,)."""
    pivot_path: np.ndarray
    """The pivot's path: one segment (1, 2, 3), pivot to pivot + direction."""
    arc: np.ndarray
    """The path of the drawn point farthest from the pivot, ``ARC_SAMPLES`` segments
    (n, 2, 3) (empty when every drawn point is the pivot)."""


def turn_drawing(scene: Scene, mesh: tessellate.Mesh) -> TurnDrawing:
    """Ghosts, pivot and arc of ``mesh`` (the moving shape drawn at t = 0) under the
    scene's motion."""
    motion, pivot = motion_of(scene), pivot_of(scene)
    ghosts = [posed_mesh(mesh, motion, step / (GHOSTS + 1)).outline for step in range(1, GHOSTS + 1)]
    every = np.concatenate([mesh.triangles.reshape(-1, 3), mesh.outline.reshape(-1, 3), mesh.points])
    distances = np.linalg.norm(every - pivot, axis=1) if len(every) else np.zeros(0)
    arc = np.zeros((0, 2, 3))
    if len(every) and distances.max() > 0:
        farthest = every[int(np.argmax(distances))]
        times = np.linspace(0.0, 1.0, ARC_SAMPLES + 1)
        path = np.array([motion.point(farthest, t) for t in times], float)
        arc = np.stack([path[:-1], path[1:]], axis=1)
    direction = np.asarray(scene.direction, float)
    return TurnDrawing(np.concatenate(ghosts) if ghosts else np.zeros((0, 2, 3)), pivot,
                       np.stack([pivot, pivot + direction])[None], arc)
