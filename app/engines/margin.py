"""How real a hit/miss disagreement is, from sweeplab's side: the margin of a
configuration, and the size its round-off is relative to.

    margin = R - min over t in [0, 1] of |core_moving(t) - core_target|

with R the summed radius and core_moving(t) the moving core translated by
t direction (``physics.reference.closest_approach``: ternary search on the exact
distance, float64).  Positive: the depth the shapes reach at their closest (an
engine that says miss there misses a contact that deep; it saturates at R, where
the cores themselves meet); negative: minus the gap by which they pass (an engine
that says hit there invents a contact that far away); 0: an exact touch.  Against
a mesh, the largest over its triangles (nearest first; far ones skipped by a
bound); against a polyhedron (a solid, its own core, radius 0), R where a core
point starts inside it, else the largest over its faces; two solid polyhedra, the
deepest penetration (separating axes) or minus their distance.  Other pairs with
no ball on either side (meshes or triangles against polyhedra or meshes, flat
polyhedra against polyhedra, planes against polyhedra) have no margin here: None.

A turning configuration (#35: ``sweep``'s ``rotation``, ``pivot``,
``interpolation``) has the margin of its poses: the largest over t of the margin of
the moving shape posed at t (``physics.sweep.turning.posed``) against the target
with no motion, sampled at ``TURN_SAMPLES`` + 1 evenly spaced times and refined by
ternary search between the deepest sample's neighbours.  That finds the deepest pose
when the depth has one peak within two samples of the deepest sample (a contact
briefer than a sample step, 1/64 of the sweep, can be missed: the margin then reads
as a gap).

    size = the largest magnitude among the shapes' core coordinates, radii and the
           direction's components

is what a float distance computed from the configuration rounds relative to: a
graze tolerance is a fraction of it (``compare.GRAZE_TOLERANCE``).
"""

from __future__ import annotations

import math

import numpy as np

from sweeplab.physics import ConvexPolyhedron, Plane, Polygon, Segment, Triangle, TriangleMesh
from sweeplab.physics.reference import closest_approach, lowest_gap, minimum_time
from sweeplab.physics.shapes import Cored, Shape
from sweeplab.physics.sweep.turning import Motion, centroid, posed

FACETED = (TriangleMesh, ConvexPolyhedron)
"""Targets whose margin is the largest over their faces (a polyhedron also counts a
core starting inside it): the other shape must have a ball."""
TURN_SAMPLES = 64
"""Steps a turning configuration's poses are sampled at over the sweep (module docstring)."""


def margin(moving, target, direction, **turn) -> float | None:
    """The configuration's margin (module docstring): depth > 0, gap < 0; None
    where no distance is known for the pair.  ``turn``: ``sweep``'s ``rotation``,
    ``pivot`` and ``interpolation`` (none, or a zero rotation: the linear sweep)."""
    if turn and np.any(np.asarray(turn["rotation"], float) != 0):
        pivot = centroid(moving) if turn.get("pivot") is None else np.asarray(turn["pivot"], float)
        return _turning_margin(moving, target, np.asarray(direction, float), pivot,
                               Motion(direction, turn["rotation"], pivot, turn.get("interpolation", "slerp")))
    if isinstance(moving, ConvexPolyhedron) and isinstance(target, ConvexPolyhedron):
        return _polytope_margin(moving, target, direction)
    if isinstance(moving, FACETED):  # change the subject: it stands, the other moves along -d
        return None if isinstance(target, FACETED) else margin(target, moving, -np.asarray(direction, float))
    try:
        if isinstance(target, TriangleMesh):
            return _largest_over_triangles(moving, target.to_world(target.vertices[target.faces]), direction)
        if isinstance(target, ConvexPolyhedron):
            return _solid_margin(moving, target, direction)
        return _ball_margin(moving, target, direction)
    except TypeError:  # no ball on either side
        return None


def _turning_margin(moving, target, direction: np.ndarray, pivot: np.ndarray, motion: Motion) -> float | None:
    """The largest margin over the moving shape's poses under ``motion`` (along
    ``direction``, about ``pivot``), the target still (module docstring); None where
    the pair has none."""
    still = np.zeros(3)

    def at(t: float) -> float:
        shape: Shape
        if isinstance(moving, ConvexPolyhedron):  # its hull posed, not searched again (25 ms a pose)
            rotation = motion.matrix(t)  # x(t) = p + t d + R(t) (x - p) = R(t) x + (p + t d - R(t) p)
            shape = moving.posed(rotation, pivot + t * direction - rotation @ pivot)
        else:
            shape = posed(moving, motion, t)
        found = margin(shape, target, still)
        if found is None:
            raise TypeError("no margin for the pair")
        return found

    try:
        samples = [at(step / TURN_SAMPLES) for step in range(TURN_SAMPLES + 1)]
    except TypeError:
        return None
    deepest = int(np.argmax(samples))
    low, high = max(deepest - 1, 0) / TURN_SAMPLES, min(deepest + 1, TURN_SAMPLES) / TURN_SAMPLES
    _, least = lowest_gap(lambda s: -at(low + s * (high - low)), -samples[max(deepest - 1, 0)])
    return max(samples[deepest], -least)


def _ball_margin(moving, target, direction) -> float:
    """The margin of a pair with a ball on one side (``TypeError`` for others)."""
    _, gap = closest_approach(moving, target, direction)
    return -gap


def _ball_core(moving) -> tuple[np.ndarray, float]:
    """(core points (k, 3), radius) of a ball-cored shape: a sphere, capsule, point or
    segment (``TypeError`` for others)."""
    if not isinstance(moving, Cored) or isinstance(moving, Polygon):
        raise TypeError(f"no margin for a moving {type(moving).__name__} against faces")
    return moving.core_vertices(), float(getattr(moving, "radius", 0.0))


def _solid_margin(moving, solid: ConvexPolyhedron, direction) -> float:
    """The margin of a ball-cored ``moving`` against a polyhedron, whose solid is its
    core: the radius where a core point starts inside the solid (on or behind every
    face plane), else the largest margin over its faces, each a fan of triangles (a
    ``Polygon`` checks that it is planar and convex: 4 times slower); a straight or
    single-point hull, which has no faces, is its segment.  A core that enters the
    solid later crosses a face, where the distance is 0."""
    core, radius = _ball_core(moving)
    if solid.dimension == 3 and np.any(np.all(core @ solid.normals.T <= solid.offsets, axis=1)):
        return radius
    if solid.dimension < 2:
        return _ball_margin(moving, Segment(solid.vertices[0], solid.vertices[-1]), direction)
    return _largest_over_triangles(moving, _fans(solid), direction)


def _fans(solid: ConvexPolyhedron) -> np.ndarray:
    """The corners (F, 3, 3) of the solid's faces cut into fans of triangles."""
    fans = [(loop[0], loop[i], loop[i + 1]) for loop in solid.faces for i in range(1, len(loop) - 1)]
    return solid.vertices[np.array(fans)]


def _polytope_margin(moving: ConvexPolyhedron, target: ConvexPolyhedron, direction) -> float | None:
    """The margin of two solid polyhedra (no ball): the penetration depth at the
    deepest point of the sweep where they overlap, else minus their smallest
    distance.  By the separating axis theorem, on the axes n of both shapes' face
    normals and their edge directions' cross products,

        depth(t) = min over n of min(high_A(n) + t d.n - low_B(n), high_B(n) - low_A(n) - t d.n)

    (the projections' overlap; the shapes overlap at t where it is > 0, and then it
    is the minimum translation) is concave in t: its largest value over [0, 1] is
    found by ternary search (``physics.reference.minimum_time`` of -depth).  Where
    that is <= 0 the solids never overlap, and their distance is their boundaries':
    the largest margin of each one's edges (segments) against the other's faces.
    Flat or straight hulls: None."""
    if moving.dimension < 3 or target.dimension < 3:
        return None
    direction = np.asarray(direction, float)
    axes = _separating_axes(moving, target)
    moving_side, target_side = moving.vertices @ axes.T, target.vertices @ axes.T
    speed = axes @ direction
    low_a, high_a = moving_side.min(axis=0), moving_side.max(axis=0)
    low_b, high_b = target_side.min(axis=0), target_side.max(axis=0)

    def depth(t: float) -> float:
        return float(np.min(np.minimum(high_a + t * speed - low_b, high_b - low_a - t * speed)))

    deepest = depth(minimum_time(lambda t: -depth(t)))
    if deepest > 0:
        return deepest
    edges = [(moving, target, direction), (target, moving, -direction)]
    return max(_largest_over_triangles(Segment(*edge_of.vertices[edge]), _fans(faces_of), along)
               for edge_of, faces_of, along in edges for edge in edge_of.edges)


def _separating_axes(first: ConvexPolyhedron, second: ConvexPolyhedron) -> np.ndarray:
    """Unit axes (K, 3): both solids' face normals and the cross products of their
    edge directions (parallel pairs, whose cross product is zero, left out)."""
    edges = [solid.vertices[solid.edges[solid.distinct_edges]] for solid in (first, second)]  # (E, 2, 3) each
    directions = [ends[:, 1] - ends[:, 0] for ends in edges]
    crosses = np.cross(directions[0][:, None, :], directions[1][None, :, :]).reshape(-1, 3)
    lengths = np.linalg.norm(crosses, axis=1)
    return np.concatenate([first.normals, second.normals, crosses[lengths > 0] / lengths[lengths > 0, None]])


def _largest_over_triangles(moving, corners: np.ndarray, direction) -> float:
    """The largest margin of ``moving`` against the triangles ``corners`` (F, 3, 3),
    nearest first by a lower bound of each one's core distance over the sweep (the
    gap between its box and the box the moving core sweeps), stopping at the first
    whose bound leaves it no way to beat the best so far: margin <= R - bound."""
    core, radius = _ball_core(moving)
    swept = np.concatenate([core, core + np.asarray(direction, float)])
    low, high = swept.min(axis=0), swept.max(axis=0)
    apart = np.maximum(0.0, np.maximum(corners.min(axis=1) - high, low - corners.max(axis=1)))
    bound = np.sqrt(np.sum(apart * apart, axis=1))
    best = -math.inf
    for face in np.argsort(bound, kind="stable"):
        if radius - bound[face] <= best:
            break
        best = max(best, _ball_margin(moving, Triangle(*corners[face]), direction))
    return best


def _magnitudes(shape) -> list[float]:
    if isinstance(shape, Cored):
        points = shape.core_vertices()
    elif isinstance(shape, TriangleMesh):
        points = shape.world_vertices()
    elif isinstance(shape, ConvexPolyhedron):
        points = shape.vertices
    elif isinstance(shape, Plane):
        return [abs(float(shape.offset))]
    else:
        raise TypeError(f"no size for a {type(shape).__name__}")
    return [float(np.max(np.abs(points))), abs(float(getattr(shape, "radius", 0.0)))]


def size(moving, target, direction) -> float:
    """The configuration's size (module docstring)."""
    return max(*_magnitudes(moving), *_magnitudes(target), float(np.max(np.abs(np.asarray(direction, float)))))
