"""Drawable geometry of shapes: triangles, outline segments and marker points.

Pure numpy, no GL: the renderer uploads what these return.  Curved surfaces are
tessellated finely enough to read well at editor zoom levels; the physics never
sees these triangles.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

SPHERE_SEGMENTS = (32, 16)
"""Longitude and latitude bands of a drawn sphere."""


@dataclass
class Mesh:
    """Triangles (``triangles`` (n, 3, 3)), outline segments ((m, 2, 3)) and points
    ((k, 3)).  ``convex``: the triangles bound a convex solid and wind
    counter-clockwise seen from outside, so back faces may be culled and the front
    faces cover each pixel once (else they are drawn two-sided).
    Treated as immutable once built (its bounds are computed once)."""

    triangles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, 3)))
    outline: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 3)))
    points: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    convex: bool = False

    def translated(self, offset) -> Mesh:
        offset = np.asarray(offset, float)
        moved = Mesh(self.triangles + offset, self.outline + offset, self.points + offset, self.convex)
        bounds = self.bounds()
        if bounds is not None:
            moved._bounds = (bounds[0] + offset, bounds[1] + offset)
        return moved

    def bounds(self) -> tuple[np.ndarray, np.ndarray] | None:
        return self._bounds

    @functools.cached_property
    def _bounds(self) -> tuple[np.ndarray, np.ndarray] | None:
        every = np.concatenate([self.triangles.reshape(-1, 3), self.outline.reshape(-1, 3), self.points])
        return (every.min(axis=0), every.max(axis=0)) if len(every) else None


def _frame(axis) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The orthonormal frame (u, v, w) of ``_frames`` for one axis."""
    u, v, w = _frames(axis)
    return u[0], v[0], w[0]


def _frames(axes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Orthonormal frames (u, v, w), each (n, 3), with w along each of the (n, 3) (or
    (3,)) ``axes`` (z where an axis is zero): u is w crossed with the world axis it
    is least aligned with, v = w x u."""
    axes = np.asarray(axes, float).reshape(-1, 3)
    lengths = np.sqrt((axes * axes).sum(axis=1, keepdims=True))
    w = np.where(lengths > 0, axes / np.where(lengths > 0, lengths, 1), [0.0, 0.0, 1.0])
    u = _cross(w, np.eye(3)[np.argmin(np.abs(w), axis=1)])
    u /= np.sqrt((u * u).sum(axis=1, keepdims=True))
    return u, _cross(w, u), w


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cross products of (n, 3) arrays (``np.cross`` costs ~30 us a call)."""
    (ax, ay, az), (bx, by, bz) = a.T, b.T
    return np.stack([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx], axis=1)


def grid_triangles(grid: np.ndarray) -> np.ndarray:
    """Triangles (n, 3, ...) of a (rows, columns, ...) grid of points (or point
    indices), rows wrapping around."""
    a, b = grid[:-1, :], grid[1:, :]
    c, d = np.roll(a, -1, axis=1), np.roll(b, -1, axis=1)
    return np.concatenate([np.stack([a, b, d], axis=2), np.stack([a, d, c], axis=2)]).reshape((-1, 3) + grid.shape[2:])


def _capsule_template():
    """A capsule's drawing in its own frame, for a = 0, radius 1: grid points as
    (u, v, w) coordinates, which of them sit around ``b``, and the point indices of
    its triangles (counter-clockwise from outside; none of zero area at the poles)
    and outline segments (equator at ``a``, the ring around ``b``, four side lines),
    and which triangles form the side band (of zero area when a == b)."""
    longitudes, latitudes = SPHERE_SEGMENTS
    theta = np.linspace(0, 2 * np.pi, longitudes, endpoint=False)
    phi = np.concatenate([np.linspace(-np.pi / 2, 0, latitudes // 2 + 1),
                          np.linspace(0, np.pi / 2, latitudes // 2 + 1)])
    unit = np.stack(np.broadcast_arrays(np.cos(phi)[:, None] * np.cos(theta), np.cos(phi)[:, None] * np.sin(theta),
                                        np.sin(phi)[:, None]), axis=-1)
    around_b = np.arange(len(phi)) > latitudes // 2
    index = np.arange(unit.shape[0] * unit.shape[1]).reshape(unit.shape[:2])
    triangles = grid_triangles(index)[:, ::-1]
    poles = np.concatenate([index[0], index[-1]])
    triangles = triangles[np.isin(triangles, poles).sum(axis=1) < 2]
    equator, ring_b = index[latitudes // 2], index[latitudes // 2 + 1]
    rings = [np.stack([ring, np.roll(ring, -1)], axis=1) for ring in (equator, ring_b)]
    sides = np.stack([equator[::longitudes // 4], ring_b[::longitudes // 4]], axis=1)
    side_band = np.isin(triangles, np.concatenate([equator, ring_b])).all(axis=1)
    return unit.reshape(-1, 3), np.repeat(around_b, longitudes), triangles, rings, sides, side_band


_CAPSULE_UNIT, _CAPSULE_AROUND_B, _CAPSULE_TRIANGLES, _CAPSULE_RINGS, _CAPSULE_SIDES, _SIDE_BAND = _capsule_template()


def capsule(a, b, radius) -> Mesh:
    """A capsule from ``a`` to ``b`` (a sphere when a == b): a UV sphere split at its
    equator, each half around its own end.  Radius 0 gives a segment."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if radius <= 0:
        return segment(a, b) if not np.array_equal(a, b) else marker(a)
    frame = np.stack(_frame(b - a))
    points = a + radius * (_CAPSULE_UNIT @ frame) + np.where(_CAPSULE_AROUND_B[:, None], b - a, 0)
    if np.array_equal(a, b):
        return Mesh(points[_CAPSULE_TRIANGLES[~_SIDE_BAND]], points[np.concatenate(_CAPSULE_RINGS)], convex=True)
    return Mesh(points[_CAPSULE_TRIANGLES], points[np.concatenate(_CAPSULE_RINGS + [_CAPSULE_SIDES])], convex=True)


def sphere(center, radius) -> Mesh:
    """A UV sphere; a marker point for radius 0."""
    return capsule(center, center, radius)


def marker(point) -> Mesh:
    """A point drawn as a screen-space dot."""
    return Mesh(points=np.asarray(point, float)[None])


def segment(a, b) -> Mesh:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return Mesh(outline=np.stack([a, b])[None], points=np.stack([a, b]))


def polygon(vertices) -> Mesh:
    """A convex polygon: a triangle fan and its boundary loop (two-sided when drawn)."""
    vertices = np.asarray(vertices, float)
    fan = np.stack([np.broadcast_to(vertices[0], vertices[1:-1].shape), vertices[1:-1], vertices[2:]], axis=1)
    loop = np.stack([vertices, np.roll(vertices, -1, axis=0)], axis=1)
    return Mesh(fan, loop, vertices)


def plane_patch(normal, offset, half_size) -> Mesh:
    """A square of the plane around its foot point, with a coarse grid."""
    normal = np.asarray(normal, float)
    u, v, _ = _frame(normal)
    foot = normal * offset
    corners = foot + half_size * np.array([-u - v, u - v, u + v, -u + v])
    patch = polygon(corners)
    steps = np.linspace(-half_size, half_size, 7)
    grid = [np.stack([foot + s * u - half_size * v, foot + s * u + half_size * v]) for s in steps]
    grid += [np.stack([foot + s * v - half_size * u, foot + s * v + half_size * u]) for s in steps]
    return Mesh(patch.triangles, np.concatenate([patch.outline, np.stack(grid)]))


def arrows(starts, vectors, head_fraction=0.2) -> np.ndarray:
    """Segments (5 n, 2, 3) of n arrows from ``starts`` along ``vectors`` (both
    (n, 3), or (3,) for one arrow), each a shaft and a four-line head whose length is
    ``head_fraction`` (per arrow, or one for all) of the arrow's, spanning the
    vector's ``_frames`` u and v.  Zero vectors draw nothing."""
    starts, vectors = (np.asarray(a, float).reshape(-1, 3) for a in (starts, vectors))
    fractions = np.broadcast_to(np.asarray(head_fraction, float), (len(vectors),))
    lengths = np.sqrt((vectors * vectors).sum(axis=1))
    drawn = lengths > 0
    starts, vectors, lengths, fractions = starts[drawn], vectors[drawn], lengths[drawn, None], fractions[drawn, None]
    u, v, _ = _frames(vectors)
    tips = starts + vectors
    back, spread = tips - fractions * vectors, 0.45 * fractions * lengths
    heads = [back + spread * u, back - spread * u, back + spread * v, back - spread * v]
    return np.stack([np.stack([starts] + [tips] * 4, axis=1), np.stack([tips] + heads, axis=1)],
                    axis=2).reshape(-1, 2, 3)


MESH_OUTLINE_LIMIT = 20000
"""Triangle meshes with more faces than this are drawn without their edge lines
(they would turn the surface black at editor zoom levels, and cost draw time)."""


def triangle_mesh(corners: np.ndarray) -> Mesh:
    """A triangle soup ``corners`` (F, 3, 3): its faces and, up to
    ``MESH_OUTLINE_LIMIT`` faces, each distinct edge once."""
    if len(corners) > MESH_OUTLINE_LIMIT:
        return Mesh(corners)
    edges = np.stack([corners, np.roll(corners, -1, axis=1)], axis=2).reshape(-1, 2, 3)
    ordered = np.where(np.expand_dims((edges[:, 0] <= edges[:, 1]).all(axis=1), (1, 2)), edges, edges[:, ::-1])
    return Mesh(corners, np.unique(ordered.reshape(-1, 6), axis=0).reshape(-1, 2, 3))


WIRE_SPHERE_SEGMENTS = 16
"""Segments per great circle of a wire sphere (a BVH node)."""


def wire_spheres(centers: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Segments (n * 3 * WIRE_SPHERE_SEGMENTS, 2, 3): three great circles (in the
    xy, yz and zx planes) around each sphere."""
    angles = np.linspace(0, 2 * np.pi, WIRE_SPHERE_SEGMENTS + 1)
    circle = np.stack([np.cos(angles), np.sin(angles), np.zeros_like(angles)], axis=1)
    circles = np.stack([circle, circle[:, [2, 0, 1]], circle[:, [1, 2, 0]]])  # (3, k + 1, 3)
    points = centers[:, None, None, :] + radii[:, None, None, None] * circles[None]
    return np.stack([points[:, :, :-1], points[:, :, 1:]], axis=3).reshape(-1, 2, 3)
