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

A plane has no face to clip by (the other shape's face is the patch); a mesh's faces
are its triangles lying on the plane near the other face, each clipped in turn; a
mesh met at an edge or a corner (no triangle on the plane) gives the other shape's
corners that a point sweep across the plane finds touching it.
"""

from __future__ import annotations

import numpy as np

from sweeplab.physics.gjk import closest_on_simplex
from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Point, Sphere, Triangle, TriangleMesh, sweep


def contact_patch(shape, other, point, normal, slop: float) -> list[np.ndarray]:
    """The points where ``shape`` touches ``other`` at ``point``, ``normal`` pointing from
    ``other`` towards ``shape``: the patch's corners (at least one: ``point``)."""
    point, normal = np.asarray(point, float), np.asarray(normal, float)
    mine, theirs = faces_on_plane(shape, point, normal, slop), faces_on_plane(other, point, -normal, slop)
    if mine is None or theirs is None:  # a plane: the other's faces as they are
        return _distinct([p for face in (theirs if mine is None else mine) or [] for p in face], slop) or [point]
    if isinstance(other, TriangleMesh) and mine:
        theirs = _near(theirs, mine[0])
    if not mine or not theirs:  # a mesh met at an edge or a corner: the other's corners that touch it
        return _probed(shape, other, mine, theirs, normal, slop) or [point]
    u, v = _plane_axes(normal)
    found = [p for face in mine for against in theirs
             for p in _intersection(np.array([[q @ u, q @ v] for q in face]),
                                    np.array([[q @ u, q @ v] for q in against]), slop)]
    origin = point - (point @ u) * u - (point @ v) * v
    return _distinct([origin + x * u + y * v for x, y in found], slop) or [point]


def faces_on_plane(shape, point, normal, slop: float) -> list[list[np.ndarray]] | None:
    """The faces of ``shape`` on the plane through ``point``: its corners within ``slop``
    of it that are lowest along ``normal`` as one face (none when even the lowest is
    farther), a sphere's lowest point, a mesh's triangles lying within ``slop`` of the
    plane (each a face); None for a plane (it has no edges)."""
    if isinstance(shape, Sphere):
        return [[np.asarray(shape.center, float) - float(shape.radius) * normal]]
    if isinstance(shape, TriangleMesh):
        corners = shape.world_vertices().astype(float)
        on = np.abs((corners - point) @ normal) <= slop
        return [list(corners[face]) for face in np.asarray(shape.faces)[on[np.asarray(shape.faces)].all(axis=1)]]
    if isinstance(shape, Capsule):
        corners = np.array([shape.a, shape.b], float) - float(shape.radius) * normal
    elif isinstance(shape, ConvexPolyhedron):
        corners = np.asarray(shape.vertices, float)
    elif isinstance(shape, Triangle):
        corners = np.array([shape.a, shape.b, shape.c], float)
    elif isinstance(shape, Plane):
        return None
    else:
        return []
    heights = (corners - point) @ normal
    lowest = heights.min()
    if abs(lowest) > slop:
        return []
    return [list(corners[heights <= lowest + slop])]


def _near(faces: list[list[np.ndarray]], face: list[np.ndarray]) -> list[list[np.ndarray]]:
    """The ``faces`` (a mesh's, on the plane) within reach of ``face``: the others
    cannot meet it (a flat mesh floor has thousands)."""
    centre = np.mean(face, axis=0)
    reach = max(float(np.linalg.norm(p - centre)) for p in face)
    return [other for other in faces
            if min(float(np.linalg.norm(p - centre)) for p in other) <= reach
            or _segment_or_face_near(other, centre, reach)]


def _segment_or_face_near(face: list[np.ndarray], centre: np.ndarray, reach: float) -> bool:
    """Whether a triangle comes within ``reach`` of ``centre`` (its corners may all be
    farther while it covers the centre)."""
    nearest, _, _ = closest_on_simplex(np.array(face) - centre)
    return bool(np.linalg.norm(nearest) <= reach)


def _probed(shape, other, mine, theirs, normal, slop: float) -> list[np.ndarray]:
    """The corners of the side that has a face (inset by ``slop``) that a point sweep
    across the plane finds touching the other shape."""
    face, across, towards = (mine[0], other, -normal) if mine else (theirs[0], shape, normal) if theirs \
        else ([], other, -normal)
    if not face:
        return []
    centre = np.mean(face, axis=0)
    return _distinct([corner for corner in face
                      if sweep(Point(_inset(corner, centre, normal, slop) - slop * towards), across,
                               2 * slop * towards).hit], slop)


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
    """The convex hull of 2D points, counter-clockwise (Andrew's monotone chain; turns
    within ``slop`` dropped, so a corner just off a face's plane and inside it is not a
    hull corner); a segment as its two ends; a point as itself."""
    points = np.array(sorted({(float(x), float(y)) for x, y in points}))
    if len(points) < 3:
        return points if len(points) < 2 or np.linalg.norm(points[1] - points[0]) > slop else points[:1]

    def chain(ordered):
        kept: list[np.ndarray] = []
        for p in ordered:
            while len(kept) >= 2:
                edge = kept[-1] - kept[-2]
                turn = edge[0] * (p[1] - kept[-2][1]) - edge[1] * (p[0] - kept[-2][0])
                if turn > slop * np.linalg.norm(edge):  # a left turn by more than the slop
                    break
                kept.pop()
            kept.append(p)
        return kept

    hull = chain(points)[:-1] + chain(points[::-1])[:-1]
    if len(hull) < 3:  # collinear: the two extremes
        return np.array([points[0], points[-1]])
    return np.array(hull)


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
    if abs(denominator) <= slop * length * float(np.linalg.norm(other)):  # parallel, apart: no crossing
        return []
    offset = second[0] - first[0]
    s = np.clip((offset[0] * other[1] - offset[1] * other[0]) / denominator, 0.0, 1.0)
    return [first[0] + s * direction]


def _distinct(points, slop: float) -> list[np.ndarray]:
    kept: list[np.ndarray] = []
    for p in points:
        if all(np.linalg.norm(p - q) > slop for q in kept):
            kept.append(np.asarray(p, float))
    return kept
