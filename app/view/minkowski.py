"""The teaching view: the Minkowski difference behind every sweep test.

Sweeping A along d against B asks when A's reference point (its pivot p), moving
from p to p + d, first enters the set of positions at which A touches B:
``B ⊕ (−(A − p))`` — B inflated by A mirrored through its pivot.  That is the
seed's "change the subject, inflate and deflate" made visible: the moving shape
shrinks to a point, the target grows by it, and the sweep becomes a ray cast.  The
set is drawn from its support function (``physics.gjk``) over a sphere of
directions, so it works for every bounded convex pair.
"""

from __future__ import annotations

import numpy as np

from sweeplab.scene import tessellate
from sweeplab.physics.gjk import core_and_margin

DIRECTION_GRID = (48, 24)
"""Longitudes and latitudes of the directions the obstacle's surface is sampled at."""


def obstacle(moving, target, pivot) -> tessellate.Mesh:
    """Surface of the positions of ``moving``'s ``pivot`` at which it touches
    ``target`` (a convex bounded shape each; ``TypeError`` otherwise)."""
    core_a, radius_a = core_and_margin(moving)
    core_b, radius_b = core_and_margin(target)
    longitudes, latitudes = DIRECTION_GRID
    theta = np.linspace(0, 2 * np.pi, longitudes, endpoint=False)
    phi = np.linspace(-np.pi / 2, np.pi / 2, latitudes + 1)
    directions = np.stack([np.cos(phi)[:, None] * np.cos(theta), np.cos(phi)[:, None] * np.sin(theta),
                           np.broadcast_to(np.sin(phi)[:, None], (len(phi), len(theta)))], axis=-1)
    farthest_b = core_b[np.argmax(directions @ core_b.T, axis=-1)] + radius_b * directions
    farthest_a_back = core_a[np.argmax(-(directions @ core_a.T), axis=-1)] - radius_a * directions
    surface = farthest_b - (farthest_a_back - np.asarray(pivot, float))
    return tessellate.Mesh(tessellate.grid_triangles(surface))
