"""Rapier (its collision library parry, through the ``rapier3d`` Python binding,
f32) as an engine.

What the binding exposes (0.36.1, checked here): linear shape casts only as a
scene query, ``QueryPipeline.cast_shape(pose, velocity, shape, options)``, of a
free shape against colliders; no shape-against-shape call.  So each query puts
the target in a one-collider set and casts the moving shape with its direction
as the velocity and ``max_time_of_impact = 1``: the time of impact is then
sweeplab's t.  ``witness1`` / ``normal1`` are on the target, in the world, the
normal pointing from the target towards the moving shape (sweeplab's convention);
an initial overlap comes back as t = 0 with status "penetrating" and a normal
that need not be unit (it is normalised here).  Every number is f32.

Shapes map to parry's: ball, capsule, segment (a point: a ball of radius 0),
triangle, a polygon's fan and a mesh's world triangles as a trimesh, a
polyhedron's corners as a convex hull.  Planes are not mapped: parry's
half-space is solid, sweeplab's plane is a two-sided surface.
"""

from __future__ import annotations

import numpy as np
import rapier3d as rapier

from sweeplab.scene.query_log import Engine, EngineAnswer
from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle, TriangleMesh

UNSUPPORTED = {Plane: "parry's half-space is solid, sweeplab's plane a two-sided surface"}
"""Shape types with no parry shape, and why (every other shape type is mapped)."""


def vector(value) -> tuple[float, float, float]:
    """A 3-vector as parry takes it: three Python floats."""
    x, y, z = (float(v) for v in np.asarray(value, float))
    return x, y, z


def rapier_shape(shape) -> tuple[rapier.SharedShape, tuple[float, float, float]]:
    """parry's shape for a physics shape, and the translation of its pose."""
    origin = (0.0, 0.0, 0.0)
    if isinstance(shape, Sphere):
        return rapier.SharedShape.ball(float(shape.radius)), vector(shape.center)
    if isinstance(shape, Point):
        return rapier.SharedShape.ball(0.0), vector(shape.p)
    if isinstance(shape, Capsule):
        return rapier.SharedShape.capsule(vector(shape.a), vector(shape.b), float(shape.radius)), origin
    if isinstance(shape, Segment):
        return rapier.SharedShape.segment(vector(shape.a), vector(shape.b)), origin
    if isinstance(shape, Triangle):
        return rapier.SharedShape.triangle(vector(shape.a), vector(shape.b), vector(shape.c)), origin
    if isinstance(shape, Polygon):
        corners = np.asarray(shape.vertices, float)
        fan = [[0, k, k + 1] for k in range(1, len(corners) - 1)]
        return rapier.SharedShape.trimesh([vector(v) for v in corners], fan), origin
    if isinstance(shape, ConvexPolyhedron):
        return rapier.SharedShape.convex_hull([vector(v) for v in np.asarray(shape.vertices, float)]), origin
    if isinstance(shape, TriangleMesh):
        return rapier.SharedShape.trimesh([vector(v) for v in shape.world_vertices()],
                                          np.asarray(shape.faces).tolist()), origin
    raise TypeError(f"no rapier shape for a {type(shape).__name__}: {UNSUPPORTED.get(type(shape), 'not mapped')}")


class RapierAdapter:
    interpolations: tuple[str, ...] = ()
    """The binding sweeps without turning (``engines.Adapter``)."""

    def __init__(self):
        self.info = Engine("rapier", f"rapier3d {rapier.__version__} (parry, f32)", "float32")

    def answer(self, moving, target, direction) -> EngineAnswer:
        """``ValueError`` for a shape parry refuses (e.g. a flat hull: its convex hull needs
        four corners off one plane)."""
        try:
            target_shape, target_origin = rapier_shape(target)
            moving_shape, moving_origin = rapier_shape(moving)
        except rapier.RapierError as error:
            raise ValueError(f"rapier cannot build the shape: {error}") from None
        bodies, colliders = rapier.RigidBodySet(), rapier.ColliderSet()
        colliders.insert(rapier.Collider.new(target_shape, translation=target_origin))
        pipeline = rapier.QueryPipeline(rapier.BroadPhaseBvh(), rapier.NarrowPhase(), bodies, colliders)
        pipeline.update(bodies, colliders)
        found = pipeline.cast_shape(rapier.Isometry3.from_translation(*moving_origin),
                                    vector(direction), moving_shape,
                                    rapier.ShapeCastOptions(max_time_of_impact=1.0))
        if found is None:
            return EngineAnswer(False)
        hit = found[1]
        normal = np.asarray(hit.normal1.to_tuple(), float)
        length = float(np.linalg.norm(normal))
        return EngineAnswer(True, float(hit.time_of_impact), [float(v) for v in hit.witness1.to_tuple()],
                            (normal / length).tolist() if length > 0 else None)


def make_adapter(**options) -> RapierAdapter:
    if options:
        raise ValueError(f"the rapier engine takes no options, got {', '.join(options)}")
    return RapierAdapter()
