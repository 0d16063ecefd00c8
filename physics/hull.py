"""The convex hull of a point set, for ``ConvexPolyhedron``.

Exhaustive and exact enough for the small point sets a polyhedron is made of
(``MAX_HULL_POINTS``): every triple of points spans a candidate plane; the planes
with every point on one side (within ``tolerance.HULL_RTOL`` of the set's extent)
are the hull's faces, coplanar triples merged into one polygonal face.  Each face
is a loop of point indices, counter-clockwise seen from outside, with its outward
unit normal and offset (``dot(normal, x) <= offset`` inside).

Degenerate sets are valid and give lower-dimensional hulls: coplanar points a
two-faced polygon (its loop both ways round), collinear points a segment, one
distinct point a point (no faces).
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np

from sweeplab.physics import tolerance
from sweeplab.physics.core import dot_rows, newell_normal, row_lengths

MAX_HULL_POINTS = 64
"""The hull is found from all triples of points (~V^3/6 planes, each checked against
every point): fine for boxes, prisms and hulls of a few dozen points."""


class Hull(NamedTuple):
    """``vertices (H, 3)``: the hull's corner points; ``faces``: loops of indices
    into ``vertices``; ``normals (F, 3)`` outward unit, ``offsets (F,)``;
    ``edges (E, 2)``: each edge once; ``dimension``: 0 point, 1 segment, 2 polygon,
    3 solid."""

    vertices: np.ndarray
    faces: tuple
    normals: np.ndarray
    offsets: np.ndarray
    edges: np.ndarray
    dimension: int


def convex_hull(points: np.ndarray) -> Hull:
    """The convex hull of ``points (V, 3)``, V >= 1; ``ValueError`` past
    ``MAX_HULL_POINTS`` distinct points."""
    points = _merge_near_duplicates(np.unique(np.asarray(points, float), axis=0))
    extent = float(row_lengths(points.max(axis=0) - points.min(axis=0))) if len(points) > 1 else 0.0
    slack = tolerance.HULL_RTOL * max(extent, np.abs(points).max(initial=0.0))
    if extent == 0:
        return Hull(points[:1], (), np.zeros((0, 3)), np.zeros(0), np.zeros((0, 2), int), 0)
    far = np.argmax(row_lengths(points - points[0]))
    direction = points[far] - points[0]
    across = row_lengths(np.cross(points - points[0], direction)) / row_lengths(direction)
    if across.max() <= slack:  # collinear: the two extreme points
        return _segment_hull(points, direction)
    triples = np.array(list(combinations(range(len(points)), 3)))
    a, b, c = points[triples[:, 0]], points[triples[:, 1]], points[triples[:, 2]]
    normals = np.cross(b - a, c - a)
    lengths = row_lengths(normals)
    keep = lengths > slack * extent
    triples, normals, lengths = triples[keep], normals[keep] / lengths[keep, None], lengths[keep]
    heights = dot_rows(normals[:, None, :], points[None, :, :] - points[triples[:, 0]][:, None, :])
    if np.all(np.abs(heights) <= slack):  # coplanar: a polygon with two faces
        return _flat_hull(points, normals[0], slack)
    below, above = np.all(heights <= slack, axis=1), np.all(heights >= -slack, axis=1)
    outward = np.concatenate([normals[below], -normals[above]])
    widest = normals[np.argmax(lengths)]  # the best-conditioned plane, should every face be a sliver
    return _solid_hull(points, outward, np.concatenate([triples[below], triples[above]]), slack, widest)


def _merge_near_duplicates(points: np.ndarray) -> np.ndarray:
    """Keep one of every group of points closer than ``tolerance.HULL_MERGE_RTOL``
    of the set's extent: the plane through two such points and a third is
    ill-conditioned, and would leave a hole in the hull.  ``ValueError`` as soon as
    more than ``MAX_HULL_POINTS`` are kept (the work stays O(V MAX_HULL_POINTS))."""
    if len(points) < 2:
        return points
    extent = float(row_lengths(points.max(axis=0) - points.min(axis=0)))
    keep = [0]
    for index in range(1, len(points)):
        if np.all(row_lengths(points[keep] - points[index]) > tolerance.HULL_MERGE_RTOL * extent):
            keep.append(index)
            if len(keep) > MAX_HULL_POINTS:
                raise ValueError(f"vertices: at most {MAX_HULL_POINTS} distinct points make a polyhedron, "
                                 f"got more (of {len(points)} given)")
    return points[keep]


def _segment_hull(points: np.ndarray, direction: np.ndarray) -> Hull:
    along = dot_rows(points - points[0], direction)
    ends = points[[np.argmin(along), np.argmax(along)]]
    return Hull(ends, (), np.zeros((0, 3)), np.zeros(0), np.array([[0, 1]]), 1)


def _flat_hull(points: np.ndarray, normal: np.ndarray, slack: float) -> Hull:
    loop = _ordered_loop(points, np.arange(len(points)), normal, slack)
    if len(loop) < 3:  # flat and all but straight: the turns are round-off
        return _segment_hull(points, points[np.argmax(row_lengths(points - points[0]))] - points[0])
    vertices = points[loop]
    indices = tuple(range(len(loop)))
    offset = float(dot_rows(normal, vertices[0]))
    edges = np.stack([np.arange(len(loop)), np.roll(np.arange(len(loop)), -1)], axis=1)
    return Hull(vertices, (indices, indices[::-1]), np.stack([normal, -normal]), np.array([offset, -offset]),
                edges, 2)


def _solid_hull(points, outward, triangles, slack, widest) -> Hull:
    """Faces from the ``outward`` unit normals of the point ``triangles`` with every point
    on their inner side: each plane once, its points in a loop, its normal refined to
    the loop's Newell normal (every point of the face weighs in, not one triangle's
    three); ``widest`` is the normal of the flat hull when no face has area."""
    faces, normals = [], []
    taken = np.zeros(len(outward), bool)
    for index in range(len(outward)):
        if taken[index]:
            continue
        normal = outward[index]
        offset = float(dot_rows(normal, points[triangles[index, 0]]))
        on_plane = np.abs(dot_rows(points, normal) - offset) <= slack
        on_face = np.flatnonzero(on_plane)
        taken |= np.all(on_plane[triangles], axis=1) & (dot_rows(outward, normal) > 0)  # faces of the same plane
        loop = _ordered_loop(points, on_face, normal, slack)
        if len(loop) < 3:  # a sliver of round-off (near-duplicate points): its neighbours bound the hull
            continue
        refined = newell_normal(points[loop] - points[loop[0]])
        faces.append(loop)
        normals.append(refined / row_lengths(refined))
    if not faces:  # thinner than the slack everywhere: the polygon it is
        return _flat_hull(points, widest, slack)
    used = np.unique(np.concatenate(faces))
    renumber = np.full(len(points), -1)
    renumber[used] = np.arange(len(used))
    loops = tuple(tuple(int(i) for i in renumber[face]) for face in faces)
    edge_set = sorted({tuple(sorted((loop[i], loop[(i + 1) % len(loop)]))) for loop in loops for i in range(len(loop))})
    vertices = points[used]
    face_normals = np.array(normals)
    offsets = np.max(dot_rows(face_normals[:, None, :], vertices[None]), axis=1)  # every vertex inside every plane
    return Hull(vertices, loops, face_normals, offsets, np.array(edge_set), 3)


def _ordered_loop(points: np.ndarray, indices: np.ndarray, normal: np.ndarray, slack: float) -> np.ndarray:
    """The extreme points among ``indices`` in counter-clockwise order about
    ``normal`` (collinear points on an edge dropped)."""
    face = points[indices]
    center = face.mean(axis=0)
    u = face[np.argmax(row_lengths(face - center))] - center
    if not row_lengths(u) > 0:
        return np.zeros(0, int)
    u /= row_lengths(u)
    v = np.cross(normal, u)
    angles = pseudo_angle(dot_rows(face - center, u), dot_rows(face - center, v))
    order = indices[np.argsort(angles, kind="stable")]
    keep = []
    for position, index in enumerate(order):  # drop points lying on the segment between their neighbours
        before, after = points[order[position - 1]], points[order[(position + 1) % len(order)]]
        turn = dot_rows(np.cross(points[index] - before, after - points[index]), normal)
        if turn > slack * row_lengths(after - before):
            keep.append(index)
    return np.array(keep, dtype=int)


def pseudo_angle(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A number in [0, 4) that grows with the angle of (x, y) from +x, counter-clockwise
    (the "diamond angle": y / (x + y) in the first quadrant, and so on round): it
    orders points as ``arctan2`` does, with one division, so the order is the same on
    every machine (numpy's ``arctan2`` is not correctly rounded and its vectorised
    versions differ by CPU).  The zero vector is at 0, as ``arctan2(0, 0)`` is."""
    with np.errstate(invalid="ignore", divide="ignore"):
        angle = np.where(y >= 0, np.where(x >= 0, y / (x + y), 1 - x / (y - x)),
                         np.where(x < 0, 2 - y / (-x - y), 3 + x / (x - y)))
    return np.where((x == 0) & (y == 0), 0.0, angle)
