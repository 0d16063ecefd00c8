"""Where two touching shapes meet: the contact patch on the contact plane.

Each shape's *face* on the plane is the part of it within ``slop`` of the plane: a
polyhedron's or triangle's corners there (a face, an edge or a corner), a capsule's
lowest axis points (its segment lying on the plane, or one end), a sphere's point.
The patch is the intersection of the two faces, clipped in the plane's 2D
coordinates: a box on a larger box gets its four corners, a box over a ledge the
four corners of the overlap (two of them where the ledge's edge crosses the box's
face), a box across a capsule the two points where the capsule's line leaves the
box.  Corners alone missed those crossings: a box over a ledge with its centre over
the ledge tipped, rocked and sank 6 mm, and a box across a capsule rocked every step.

A plane has no face to clip by (the other shape's face is the patch); a mesh's face
is not searched for: the other shape's corners that touch it (a point sweep across
the plane) are the patch.
"""

from __future__ import annotations

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Point, Sphere, Triangle, sweep


def contact_patch(shape, other, point, normal, slop: float) -> list[np.ndarray]:
    """The points where ``shape`` touches ``other`` at ``point``, ``normal`` pointing from
    ``other`` towards ``shape``: the patch's corners (at least one: ``point``)."""
    point, normal = np.asarray(point, float), np.asarray(normal, float)
    mine, theirs = face_on_plane(shape, point, normal, slop), face_on_plane(other, point, -normal, slop)
    if mine is None and theirs is None:
        return [point]
    if theirs is None or mine is None:
        face, across = (mine, other) if theirs is None else (theirs, shape)
        towards = -normal if theirs is None else normal
        if not isinstance(across, Plane):  # a mesh: its corners are not clipped by; probe the face's
            centre = np.mean(face, axis=0)
            face = [corner for corner in face
                    if sweep(Point(_inset(corner, centre, normal, slop) - slop * towards), across,
                             2 * slop * towards).hit]
        return _distinct(face, slop) or [point]
    u, v = _plane_axes(normal)
    flat = [np.array([[p @ u, p @ v] for p in face]) for face in (mine, theirs)]
    clipped = _intersection(flat[0], flat[1], slop)
    origin = point - (point @ u) * u - (point @ v) * v
    return _distinct([origin + x * u + y * v for x, y in clipped], slop) or [point]


def face_on_plane(shape, point, normal, slop: float) -> list[np.ndarray] | None:
    """The corners of ``shape`` within ``slop`` of the plane through ``point`` that are
    lowest along ``normal`` (``[]`` when none is that close); a sphere's lowest point;
    None for a plane or a mesh."""
    if isinstance(shape, Sphere):
        return [np.asarray(shape.center, float) - float(shape.radius) * normal]
    if isinstance(shape, Capsule):
        corners = np.array([shape.a, shape.b], float) - float(shape.radius) * normal
    elif isinstance(shape, ConvexPolyhedron):
        corners = np.asarray(shape.vertices, float)
    elif isinstance(shape, Triangle):
        corners = np.array([shape.a, shape.b, shape.c], float)
    else:
        return None
    heights = (corners - point) @ normal
    lowest = heights.min()
    if abs(lowest) > slop:
        return []
    return list(corners[heights <= lowest + slop])


def _inset(corner, centre, normal, distance: float) -> np.ndarray:
    """``corner`` moved ``distance`` towards ``centre`` along the plane of ``normal``: a
    probe from a corner itself runs down whatever edge lies under it and may graze it."""
    towards = centre - corner
    towards = towards - float(towards @ normal) * normal
    length = float(np.linalg.norm(towards))
    return corner + distance * towards / length if length > distance else corner


def _plane_axes(normal) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors spanning the plane of ``normal``."""
    helper = np.eye(3)[int(np.argmin(np.abs(normal)))]
    u = np.cross(normal, helper)
    u /= np.linalg.norm(u)
    return u, np.cross(normal, u)


def _convex_order(points: np.ndarray, slop: float) -> np.ndarray:
    """2D points as a convex polygon, counter-clockwise, repeats (within ``slop``)
    dropped; a segment as its two ends; a point as itself."""
    kept: list[np.ndarray] = []
    for p in points:
        if all(np.linalg.norm(p - q) > slop for q in kept):
            kept.append(p)
    points = np.array(kept)
    if len(points) < 3:
        return points
    centre = points.mean(axis=0)
    spread = points - centre
    if np.linalg.matrix_rank(spread, tol=slop) < 2:  # collinear: the two extremes
        direction = spread[np.argmax(np.linalg.norm(spread, axis=1))]
        along = spread @ direction
        return points[[int(np.argmin(along)), int(np.argmax(along))]]
    return points[np.argsort(np.arctan2(spread[:, 1], spread[:, 0]))]


def _intersection(first: np.ndarray, second: np.ndarray, slop: float) -> list[np.ndarray]:
    """The intersection of two convex 2D point sets (polygon, segment or point), as its
    corners: Sutherland–Hodgman against the one with an area; two segments meet at
    their overlap (parallel) or crossing.  Edges are pushed out by ``slop`` so that
    corners on each other's edges are kept."""
    first, second = _convex_order(first, slop), _convex_order(second, slop)
    if len(first) >= 3 or len(second) >= 3:
        subject, clip = (second, first) if len(first) >= 3 else (first, second)
        return _clip(subject, clip, slop)
    if len(first) == 1 or len(second) == 1:
        return [first[0] if len(first) == 1 else second[0]]
    return _segments(first, second, slop)


def _clip(subject: np.ndarray, clip: np.ndarray, slop: float) -> list[np.ndarray]:
    """``subject`` (a convex polygon, a segment or a point) clipped by the
    counter-clockwise polygon ``clip``, one edge's half-plane at a time.  A point within
    ``slop`` outside an edge counts as inside (corners on each other's edges are kept);
    a crossing is put on the edge itself."""
    points = list(subject)
    for start, end in zip(clip, np.roll(clip, -1, axis=0), strict=True):
        edge = end - start
        inward = np.array([-edge[1], edge[0]]) / np.linalg.norm(edge)
        heights = [float((p - start) @ inward) for p in points]

        def crossing(p, q, a, b):
            return p + (q - p) * min(max(a / (a - b), 0.0), 1.0)

        if len(subject) >= 3:  # Sutherland–Hodgman on the closed loop
            kept = []
            for k, (p, a) in enumerate(zip(points, heights, strict=True)):
                q, b = points[(k + 1) % len(points)], heights[(k + 1) % len(points)]
                if a >= -slop:
                    kept.append(p)
                if (a >= -slop) != (b >= -slop):
                    kept.append(crossing(p, q, a, b))
            points = kept
        elif len(points) == 2:  # a segment: an end outside moves to the edge
            (p, q), (a, b) = points, heights
            if a < -slop and b < -slop:
                return []
            if a < -slop or b < -slop:
                points = [crossing(p, q, a, b), q] if a < -slop else [p, crossing(p, q, a, b)]
        else:
            points = [p for p, a in zip(points, heights, strict=True) if a >= -slop]
        if not points:
            return []
    return points


def _segments(first: np.ndarray, second: np.ndarray, slop: float) -> list[np.ndarray]:
    """Where two 2D segments meet: the ends of their overlap when parallel within
    ``slop``, else their crossing (or nearest approach)."""
    direction = first[1] - first[0]
    length = float(np.linalg.norm(direction))
    unit = direction / length
    across = np.array([-unit[1], unit[0]])
    if np.all(np.abs((second - first[0]) @ across) <= slop):  # parallel and on one line: the overlap
        along = sorted(float((p - first[0]) @ unit) for p in second)
        low, high = max(along[0], 0.0), min(along[1], length)
        return [first[0] + low * unit, first[0] + high * unit] if low <= high + slop else []
    other = second[1] - second[0]
    denominator = direction[0] * other[1] - direction[1] * other[0]
    offset = second[0] - first[0]
    s = np.clip((offset[0] * other[1] - offset[1] * other[0]) / denominator, 0.0, 1.0)
    return [first[0] + s * direction]


def _distinct(points, slop: float) -> list[np.ndarray]:
    kept: list[np.ndarray] = []
    for p in points:
        if all(np.linalg.norm(p - q) > slop for q in kept):
            kept.append(np.asarray(p, float))
    return kept
