"""Which pairs a step sweeps: sweep and prune over the bounds of each body's motion.

A body moving over a window stays, at every moment, within ``reach`` of its centre of
mass (a turn about the centre keeps every point at its distance), and the sweep moves
that centre along the ``chord``; so the body stays in the box

    lo = min(p, p + chord) - (reach + margin),   hi = max(p, p + chord) + (reach + margin)

(p the centre at the window's start).  Two bodies whose boxes do not overlap cannot
meet within the window, and a body whose box misses a static shape's box cannot meet
it; a two-sided plane is met only by a box that reaches it: the signed distances
n·x - offset of the box's corners are not all above zero nor all below it.  Boxes are
compared with <= on both ends: touching boxes are a candidate pair (a body resting on
another, their boxes sharing a face).

``overlapping_pairs`` sorts the boxes by their low x and pairs each with the boxes
whose low x falls within its x extent (``searchsorted``), then keeps the pairs whose
y and z extents overlap too: numpy throughout, O(N log N + candidates), no Python loop
over bodies.
"""

from __future__ import annotations

import numpy as np

from sweeplab.physics import Plane, TriangleMesh
from sweeplab.physics.gjk import core_of
from sweeplab.physics.shapes import Shape


def swept_boxes(starts: np.ndarray, chords: np.ndarray, reaches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each body's box over the window (module docstring): ``starts`` and ``chords``
    (N, 3), ``reaches`` (N,) already including any margin."""
    ends = starts + chords
    grow = reaches[:, None]
    return np.minimum(starts, ends) - grow, np.maximum(starts, ends) + grow


def overlapping_pairs(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs (i, j), i < j, of the boxes ``[lo, hi]`` (N, 3) that overlap or touch,
    sorted by i then j."""
    count = len(lo)
    if count < 2:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    order = np.argsort(lo[:, 0], kind="stable")
    low_x = lo[order, 0]
    # the boxes after k in x order that start within k's x extent
    ends = np.searchsorted(low_x, hi[order, 0], side="right")
    counts = np.maximum(ends - np.arange(1, count + 1), 0)
    total = int(counts.sum())
    first_sorted = np.repeat(np.arange(count), counts)
    offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    i, j = order[first_sorted], order[first_sorted + 1 + offsets]
    keep = np.all((lo[i, 1:] <= hi[j, 1:]) & (lo[j, 1:] <= hi[i, 1:]), axis=1)
    i, j = i[keep], j[keep]
    i, j = np.minimum(i, j), np.maximum(i, j)
    by_pair = np.lexsort((j, i))
    return i[by_pair], j[by_pair]


def static_box(shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """The box of a bounded static shape (a plane is unbounded: ``near_plane``)."""
    if isinstance(shape, Plane):
        raise ValueError("shape: a plane has no box (near_plane)")
    if isinstance(shape, TriangleMesh):
        points, rounding = np.asarray(shape.vertices, float), 0.0
    else:
        core, radius = core_of(shape)
        points, rounding = np.asarray(core, float).reshape(-1, 3), float(radius)
    return points.min(axis=0) - rounding, points.max(axis=0) + rounding


def boxes_meeting(lo: np.ndarray, hi: np.ndarray, box: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Which of the boxes ``[lo, hi]`` overlap or touch ``box``."""
    return np.all((lo <= box[1]) & (box[0] <= hi), axis=1)


def near_plane(plane: Plane, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Which boxes reach the two-sided ``plane``: over a box, n·x - offset ranges from its
    value at the corner lowest along n (lo where n_k > 0, hi elsewhere) to its value at
    the opposite corner."""
    normal, offset = np.asarray(plane.normal, float), float(plane.offset)
    rising = normal > 0
    lowest = np.where(rising, lo, hi) @ normal - offset
    highest = np.where(rising, hi, lo) @ normal - offset
    return (lowest <= 0) & (highest >= 0)
