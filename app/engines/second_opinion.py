"""The second opinion on a sweep: an independent answer from sweeplab's own slow
solvers, for the editor's reference column and for ``triage``.

``physics.reference`` (bisection on the exact distance) where it knows the pair,
else ``physics.gjk``'s cast (polyhedra); against a mesh, the earliest of those over
the triangles the moving shape's swept box reaches.  Neither shares the analytic
kernels' feature logic, so a disagreement points at one of them.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sweeplab.physics import Feature, SweepResult, Triangle, TriangleMesh
from sweeplab.physics.gjk import convex_cast
from sweeplab.physics.reference import reference_sweep


def second_opinion(moving, target, direction) -> SweepResult | None:
    """An independent answer: ``physics.reference`` (bisection on the exact
    distance), else for pairs it does not know (polyhedra) the GJK cast of
    ``physics.gjk``; against a mesh, the earliest of those over its triangles
    (``mesh_second_opinion``); None when none answers (planes with polyhedra, or a
    cast that did not converge)."""
    if isinstance(target, TriangleMesh):
        return mesh_second_opinion(moving, target, direction)
    try:
        return reference_sweep(moving, target, direction)
    except TypeError:
        pass
    try:
        cast = convex_cast(moving, target, direction)
    except TypeError:
        return None
    if cast.status not in ("hit", "miss", "overlap at start"):
        return None
    return SweepResult(hit=cast.hit, t=cast.t, point=cast.point, normal=cast.normal, face_index=None,
                       penetration_depth=None, initially_overlapping=False, feature=Feature(None, None))


def mesh_second_opinion(moving, mesh: TriangleMesh, direction) -> SweepResult | None:
    """The earliest second opinion over the mesh's triangles, each a ``Triangle`` in
    world space — no sphere tree, no edge rules: what a query would find if it tested
    every triangle the swept box of the moving shape reaches.  ``face_index`` names
    the triangle.  None when no triangle has a second opinion."""
    corners = mesh.to_world(mesh.vertices[mesh.faces])
    low, high = _swept_box(moving, np.asarray(direction, float))
    near = np.flatnonzero(np.all(corners.min(axis=1) <= high, axis=1) & np.all(corners.max(axis=1) >= low, axis=1))
    best = None
    for face in near:
        answer = second_opinion(moving, Triangle(*corners[face]), direction)
        if answer is not None and answer.hit and (best is None or answer.t < best.t):
            best = dataclasses.replace(answer, face_index=int(face))
    if best is None:
        return SweepResult(hit=False, t=None, point=None, normal=None, face_index=None, penetration_depth=None,
                           initially_overlapping=False, feature=Feature(None, None))
    return best


def _swept_box(moving, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An axis-aligned box holding the moving shape over the whole sweep, padded by
    a millionth of its size (a triangle touching it at a graze stays in)."""
    points = np.concatenate([np.asarray(getattr(moving, name), float).reshape(-1, 3)
                             for name in ("center", "p", "a", "b", "vertices") if hasattr(moving, name)])
    radius = float(np.asarray(getattr(moving, "radius", 0.0)))
    low, high = points.min(axis=0) - radius, points.max(axis=0) + radius
    low, high = np.minimum(low, low + direction), np.maximum(high, high + direction)
    pad = 1e-6 * float(np.max(high - low)) + 1e-300
    return low - pad, high + pad
