"""Every contact along the path, not only the first: a contact interval per target,
and per triangle of a mesh.

The moving shape touches a convex target over one interval of t: it enters at the
sweep's t, and leaves where the same sweep run backwards — from the end pose along
-direction — first touches, at 1 - t_back.  Both ends come from the exact sweeps
(no sampling).  A target still touched at t = 1 has no leaving time in the path;
one touched at t = 0 enters at 0.  Against a mesh, a moving sphere or capsule (a
point or segment: radius 0) gets an interval per triangle from the all-hits
queries, forwards and backwards, matched by face.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.scene.model import Scene, SceneObject
from sweeplab.scene.shape_kinds import KINDS, RigidMotion, build_shape
from sweeplab.physics import Capsule, Point, Segment, Sphere, TriangleMesh, sweep
from sweeplab.physics.sweep.mesh import sweep_capsule_mesh_all, sweep_sphere_mesh_all


TURNING = ("a turning shape may touch a convex target over several intervals, which a forward and a backward "
           "sweep do not find: not listed")
"""Why a turning scene's contacts are not listed: the enter-forward, leave-backward
rule holds for a translation only (a convex set crossed by a line is one interval)."""


@dataclass(frozen=True)
class ContactInterval:
    """The moving shape touches ``target`` (triangle ``face`` of a mesh) for t in
    [``enter``, ``leave``]; ``leave`` is None when it still touches at t = 1."""

    target: str
    face: int | None
    enter: float
    leave: float | None


def contact_intervals(scene: Scene) -> tuple[list[ContactInterval], list[str]]:
    """Every contact interval of the sweep, sorted by ``enter`` (then target, face),
    and the targets that could not be listed, with why: every target of a scene that
    turns (``TURNING``)."""
    if scene.moving is None:
        return [], []
    if scene.turns:
        return [], [f"{target.name}: {TURNING}" for target in scene.targets()]
    moving_object = scene.moving_object()
    moving = build_shape(moving_object.kind, moving_object.params)
    at_end = build_shape(moving_object.kind, KINDS[moving_object.kind].moved(
        moving_object.params, RigidMotion.translate(scene.direction)))
    direction = np.asarray(scene.direction, float)
    intervals, unlisted = [], []
    for target_object in scene.targets():
        try:
            intervals += _target_intervals(target_object, moving, at_end, direction)
        except (TypeError, ValueError) as error:
            unlisted.append(f"{target_object.name}: {error}")
    intervals.sort(key=lambda interval: (interval.enter, interval.target, -1 if interval.face is None
                                         else interval.face))
    return intervals, unlisted


def _target_intervals(target_object: SceneObject, moving, at_end, direction: np.ndarray) -> list[ContactInterval]:
    target = build_shape(target_object.kind, target_object.params)
    if isinstance(target, TriangleMesh):
        return _mesh_intervals(target_object.name, target, moving, at_end, direction)
    forward = sweep(moving, target, direction)
    if not forward.hit:
        return []
    backward = sweep(at_end, target, -direction)
    return [ContactInterval(target_object.name, None, 0.0 if forward.initially_overlapping else float(forward.t),
                            _leaving(backward.hit, backward.initially_overlapping, backward.t))]


def _leaving(hit, overlapping_at_end, t_back) -> float | None:
    """t where the shapes part, from the backward sweep's answer."""
    return None if overlapping_at_end or not hit else 1.0 - float(t_back)


def _mesh_intervals(name: str, mesh: TriangleMesh, moving, at_end, direction: np.ndarray) -> list[ContactInterval]:
    every_hit = _all_hits_query(moving)
    forward, backward = every_hit(_as_rounded(moving), mesh, direction), every_hit(_as_rounded(at_end), mesh,
                                                                                    -direction)
    leaving = {int(face): _leaving(True, overlapping, t) for face, overlapping, t
               in zip(backward.face_index, backward.initially_overlapping, backward.t, strict=True)}
    return [ContactInterval(name, int(face), 0.0 if overlapping else float(t), leaving.get(int(face)))
            for face, overlapping, t in zip(forward.face_index, forward.initially_overlapping, forward.t, strict=True)]


def _all_hits_query(moving):
    if isinstance(moving, (Sphere, Point)):
        return sweep_sphere_mesh_all
    if isinstance(moving, (Capsule, Segment)):
        return sweep_capsule_mesh_all
    raise TypeError(f"every hit against a mesh is listed for a moving sphere, capsule, point or segment, "
                    f"not a {type(moving).__name__}")


def _as_rounded(shape):
    """A point as a sphere of radius 0, a segment as a capsule of radius 0 (the
    all-hits queries take spheres and capsules)."""
    if isinstance(shape, Point):
        return Sphere(shape.p, 0.0)
    if isinstance(shape, Segment):
        return Capsule(shape.a, shape.b, 0.0)
    return shape
