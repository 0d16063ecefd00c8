"""The shapes sweeplab can sweep: immutable, numpy-backed, batched.

Every shape is a *batch*: its arrays carry leading batch dimensions that
broadcast against each other and against the other shape and the direction of a
query, so ``Sphere(center=(3,), radius=())`` is one sphere and
``Sphere((N, 3), (N,))`` is N of them.  Coordinates keep the floating dtype they
are given (float32 stays float32); integers become float64.

Conventions:

* Triangles, polygons, planes and meshes are two-sided surfaces; spheres, capsules
  and polyhedra are solids; points and segments have no interior.
* A polygon's vertices are in order around its boundary (either winding); edge
  ``i`` runs from vertex ``i`` to vertex ``i + 1`` (mod V).  The same numbering
  holds for a triangle ``(a, b, c)``: vertex 0 = a, edge 0 = a->b, edge 2 = c->a.
* Degenerate but finite input is valid (zero radius, zero-length segment or
  capsule, zero-area triangle or polygon); NaN or infinite coordinates, negative
  radii, out-of-range mesh indices, and warped or re-entrant polygons raise
  ``ValueError`` naming the argument.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np

from sweeplab.physics import tolerance
from sweeplab.physics.bvh import SphereTree, build_sphere_tree
from sweeplab.physics.hull import convex_hull
from sweeplab.physics.core import (coordinate_rounding, dot_rows, matrix_product, nearest_rotation, newell_normal,
                                   polygon_slack, rotated, row_lengths)


def frozen(array: np.ndarray) -> np.ndarray:
    """A read-only view of ``array`` (which stays writable, as the view's base): what a
    shape exposes.  ``kernels.lane_input`` passes such a view's base to a kernel
    unchanged, so its inputs have one signature without a copy (kernels only read)."""
    view = array.view()
    view.setflags(write=False)
    return view


def _float_array(value, name: str, copy: bool = True, check_finite: bool = True) -> np.ndarray:
    """``value`` as a read-only array of finite float32 or float64 numbers, or a
    ``ValueError`` naming it; ``copy=False`` for arguments only read during a call,
    ``check_finite=False`` for a caller that checks finiteness in a pass of its own.
    Integers and other float types (float16, long double) become float64: the kernels
    compute in float32 or float64, and a long double beyond float64's range is refused."""
    plain = _plain_numbers(value)
    if plain is not None:  # checked in Python: for a few numbers NumPy's checks cost more than a sweep
        if not all(map(math.isfinite, plain)):
            raise ValueError(f"{name} must be finite (got NaN or infinity)")
        return frozen(np.array(value, np.float64))
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as error:  # (ragged nesting)
        raise ValueError(f"{name} must be an array of numbers: {error}") from None
    if array.dtype.kind == "c":  # numpy would drop the imaginary part with a warning
        raise ValueError(f"{name} must be real numbers, got {array.dtype}")
    if array.dtype not in (np.float32, np.float64):
        finite_before = not np.issubdtype(array.dtype, np.floating) or bool(np.all(np.isfinite(array)))
        try:
            with np.errstate(over="ignore"):
                array = array.astype(np.float64)
        except OverflowError:  # a Python integer beyond float64
            raise ValueError(f"{name} must be finite (got an integer beyond float64's range)") from None
        except (TypeError, ValueError) as error:
            raise ValueError(f"{name} must be an array of numbers: {error}") from None
        if finite_before and not all_finite(array):
            raise ValueError(f"{name} must be finite in float64 (got a value beyond its range)")
    if check_finite and not all_finite(array):
        raise ValueError(f"{name} must be finite (got NaN or infinity)")
    if copy or array.flags.writeable:  # (a caller's own array is not made read-only: a view is)
        array = frozen(array.copy() if copy else array)
    return array


def _plain_numbers(value) -> list | tuple | None:
    """``value``'s numbers where it is a Python float, or a flat list or tuple of up to
    ``SMALL_ARRAY`` floats, or of floats and integers all within float64's exact
    integers (one shape's numbers, as users write them), else None."""
    if type(value) is float:
        return (value,)
    if type(value) not in (list, tuple) or len(value) > SMALL_ARRAY:
        return None
    kinds = set(map(type, value))
    if kinds <= _FLOAT or (kinds <= _FLOAT_OR_INTEGER and max(map(abs, value)) <= EXACT_INTEGER):
        return value
    return None


_FLOAT, _FLOAT_OR_INTEGER = {float}, {float, int}


EXACT_INTEGER = 2**53
"""Integers up to this magnitude are exact in float64."""

SMALL_ARRAY = 16
"""Arrays up to this size are checked value by value in Python: one shape's few
coordinates, where a NumPy reduction (``np.isfinite(...).all()``) costs more than a
sweep."""


def all_finite(array: np.ndarray) -> bool:
    """Whether every value of the float ``array`` is finite (no NaN, no infinity)."""
    if array.size <= SMALL_ARRAY:
        return all(map(math.isfinite, array.ravel().tolist()))
    return bool(np.isfinite(array).all())


def vector_argument(value, name: str, trailing: tuple[int, ...] = (3,), copy: bool = True,
                    check_finite: bool = True) -> np.ndarray:
    """``_float_array`` of shape (..., *trailing)."""
    array = _float_array(value, name, copy, check_finite)
    if array.ndim < len(trailing) or array.shape[array.ndim - len(trailing):] != trailing:
        expected = ", ".join(str(n) for n in trailing)
        raise ValueError(f"{name} must have shape (..., {expected}), got {array.shape}")
    return array


def _radius(value, name: str = "radius") -> np.ndarray:
    array = _float_array(value, name)
    if (min(array.ravel().tolist(), default=0.0) if array.size <= SMALL_ARRAY else array.min(initial=0.0)) < 0:
        raise ValueError(f"{name} must be >= 0, got {array.min()}")
    return array


def unit_size(array: np.ndarray, axis=None) -> tuple[np.ndarray, np.ndarray]:
    """(``array`` scaled by an exact power of two so that its largest |value| over
    ``axis`` lies in [0.5, 1), that power's exponent (kept dimensions)): squares and
    products of the scaled values neither overflow nor underflow, and geometry is the
    same up to that scale (values below 2^-1074 of the largest are lost)."""
    with np.errstate(under="ignore"):
        _, exponent = np.frexp(np.abs(array).max(axis=axis, keepdims=True, initial=0.0))
        return np.ldexp(array, -exponent).astype(array.dtype), exponent


def broadcast_batch_shapes(*shapes: tuple[int, ...], names: str) -> tuple[int, ...]:
    """The broadcast of the batch ``shapes`` of the arguments ``names``; a
    ``ValueError`` naming them and their shapes where they do not broadcast."""
    if shapes.count(shapes[0]) == len(shapes):
        return shapes[0]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"batch shapes of {names} do not broadcast: {shapes}") from None


class Shape:
    """Base of all shapes: immutable, with a broadcast ``batch_shape``."""

    __slots__ = ("_magnitudes", "_lane_forms")  # (set once, by physics.sweep.unit_size and .scalar)
    # Slots are written once, by ``_set``; the annotations type them for mypy.
    _magnitudes: tuple[float, float, np.dtype]
    _lane_forms: dict
    _batch_shape: tuple[int, ...]
    _fields: tuple[str, ...]

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _set(self, **fields):
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self._batch_shape

    _shared_fields: tuple[str, ...] = ()
    """Fields every element of a batch shares (a polyhedron's hull structure)."""

    _length_fields: tuple[str, ...] = ()
    """Fields that are lengths (coordinates, radii, offsets; not a plane's unit normal):
    scaling a shape by s multiplies exactly these by s."""

    _element_dims: dict[str, int] = {}
    """Per array field, how many trailing dimensions are one element's (3 for a point,
    0 for a radius, 2 for a vertex list); the leading ones are the batch's."""

    def __getitem__(self, index) -> Shape:
        """Elements of the batch (``shapes[i]``, ``shapes[2:5]``), exactly as stored:
        no re-validation, no re-normalisation."""
        if self._batch_shape == ():
            raise IndexError(f"{type(self).__name__} is a single shape, not a batch")
        picked = object.__new__(type(self))
        batch_shape = None
        for name, dims in self._element_dims.items():
            array = getattr(self, name)
            element_shape = array.shape[array.ndim - dims:] if dims else ()
            array = np.broadcast_to(array, self._batch_shape + element_shape)[index]
            object.__setattr__(picked, name, frozen(np.array(array)))
            batch_shape = array.shape[:array.ndim - dims] if dims else array.shape
        object.__setattr__(picked, "_batch_shape", batch_shape)
        for name in self._shared_fields:
            object.__setattr__(picked, name, getattr(self, name))
        return picked

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name).tolist()!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"


class Cored(Shape):
    """A shape that is a convex polygon *core* (``physics.core``), inflated by a
    radius for spheres and capsules: a point, a segment or a polygon's vertex loop."""

    __slots__ = ()

    def core_vertices(self) -> np.ndarray:
        """The core's vertex loop, (..., V, 3)."""
        raise NotImplementedError


def segment_vertices(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The two-vertex core (..., 2, 3) of segments from ``a`` to ``b`` (..., 3), broadcast."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    return np.stack([np.broadcast_to(a, shape), np.broadcast_to(b, shape)], axis=-2)


class Point(Cored):
    """A point ``p``: a zero-radius sphere without interior."""

    __slots__ = ("p", "_batch_shape")
    p: np.ndarray
    _fields = _length_fields = ("p",)
    _element_dims = {"p": 1}

    def __init__(self, p):
        p = vector_argument(p, "p")
        self._set(p=p, _batch_shape=p.shape[:-1])

    def core_vertices(self) -> np.ndarray:
        return self.p[..., None, :]


class Segment(Cored):
    """The segment from ``a`` to ``b`` (may have zero length: then it is a point)."""

    __slots__ = ("a", "b", "_batch_shape")
    a: np.ndarray
    b: np.ndarray
    _fields = _length_fields = ("a", "b")
    _element_dims = {"a": 1, "b": 1}

    def __init__(self, a, b):
        a, b = vector_argument(a, "a"), vector_argument(b, "b")
        self._set(a=a, b=b, _batch_shape=broadcast_batch_shapes(a.shape[:-1], b.shape[:-1], names="a, b"))

    def core_vertices(self) -> np.ndarray:
        return segment_vertices(self.a, self.b)


class Plane(Shape):
    """The two-sided plane of points x with ``dot(normal, x) == offset``.

    ``normal`` is stored normalised to unit length; ``offset`` is the signed distance
    of the plane from the origin along that unit normal.
    """

    __slots__ = ("normal", "offset", "_batch_shape")
    normal: np.ndarray
    offset: np.ndarray
    _fields = ("normal", "offset")
    _length_fields = ("offset",)
    _element_dims = {"normal": 1, "offset": 0}

    def __init__(self, normal, offset):
        normal = vector_argument(normal, "normal")
        # elementwise (not np.linalg.norm, whose 1-D and batched paths round differently)
        limits = np.finfo(normal.dtype)
        with np.errstate(over="ignore", under="ignore"):
            squared = normal[..., 0:1] ** 2 + normal[..., 1:2] ** 2 + normal[..., 2:3] ** 2
            # where the squares would under- or overflow (|normal| beyond ~1e+-77 in float64),
            # scale to unit size first: exact, the direction unchanged (others keep their floats)
            in_range = (squared > np.sqrt(limits.tiny)) & (squared < np.sqrt(limits.max))
            normal = np.where(in_range, normal, unit_size(normal, axis=-1)[0])
            length = np.sqrt(normal[..., 0:1] ** 2 + normal[..., 1:2] ** 2 + normal[..., 2:3] ** 2)
        if np.any(length == 0):
            raise ValueError("normal must be non-zero")
        unit = frozen(normal / length)
        offset = _float_array(offset, "offset")
        self._set(normal=unit, offset=offset,
                  _batch_shape=broadcast_batch_shapes(unit.shape[:-1], offset.shape, names="normal, offset"))


class Polygon(Cored):
    """A planar convex polygon, two-sided; ``vertices`` has shape (..., V, 3), V >= 3.

    Vertices go around the boundary in order (either winding); collinear vertices
    and zero area are allowed.  Warped (non-planar) or re-entrant (non-convex)
    vertex lists raise ``ValueError`` (see ``tolerance.POLYGON_*_RTOL``).
    """

    __slots__ = ("vertices", "_batch_shape")
    vertices: np.ndarray
    _fields: tuple[str, ...] = ("vertices",)
    _length_fields: tuple[str, ...] = ("vertices",)
    _element_dims = {"vertices": 2}

    def __init__(self, vertices):
        vertices = vector_argument(vertices, "vertices")
        if vertices.ndim < 2 or vertices.shape[-2] < 3:
            raise ValueError(f"vertices must have shape (..., V, 3) with V >= 3, got {vertices.shape}")
        _check_planar_convex(vertices)
        self._set(vertices=vertices, _batch_shape=vertices.shape[:-2])

    def core_vertices(self) -> np.ndarray:
        return self.vertices


def _check_planar_convex(vertices: np.ndarray) -> None:
    """``ValueError`` unless every polygon of ``vertices`` (..., V, 3) is planar and convex
    in boundary order.  Each is judged at unit size: its offsets from the centroid (and
    its slack) scaled by a power of two, exactly, so that areas and heights neither
    overflow at 1e77 nor underflow at 1e-82, and the verdict is the unit-size one."""
    relative, exponent = unit_size(vertices - vertices.mean(axis=-2, keepdims=True), axis=(-2, -1))
    with np.errstate(under="ignore"):
        rounding = np.ldexp(coordinate_rounding(vertices), -exponent[..., 0, 0]).astype(vertices.dtype)
    extent = 2 * np.linalg.norm(relative, axis=-1).max(axis=-1)
    slack = polygon_slack(vertices, extent, rounding)
    normal = newell_normal(relative)
    length = np.linalg.norm(normal, axis=-1)
    # Below this area the Newell normal is rounding noise: the polygon is just its edges.
    has_area = length > slack * extent
    divisor = np.where(has_area, length, 1)
    unit = normal / divisor[..., None]
    height = np.abs(np.einsum("...vk,...k->...v", relative, unit)).max(axis=-1)
    # The computed normal's direction is off by up to its rounding (V cross products of
    # vectors no longer than the extent) over its length, and a vertex's height by that
    # times its distance from the centroid: large for a sliver (three points are
    # always planar).
    rounding = relative.shape[-2] * np.finfo(vertices.dtype).eps * extent * extent
    if np.any(has_area & (height > slack + extent * rounding / divisor)):
        raise ValueError("vertices must be planar (a polygon's vertices lie in one plane)")
    # Without area the vertices must lie on one line (a sliver): a loop that crosses
    # itself (a bow-tie, its lobes' areas cancelling) is no polygon.
    farthest = np.argmax(np.linalg.norm(relative, axis=-1), axis=-1)
    along = np.take_along_axis(relative, farthest[..., None, None], axis=-2)
    along_length = np.maximum(np.linalg.norm(along, axis=-1), np.finfo(vertices.dtype).tiny)
    across = np.linalg.norm(np.cross(relative, along), axis=-1).max(axis=-1) / along_length[..., 0]
    if np.any(~has_area & (across > slack)):
        raise ValueError("vertices must form a convex polygon in boundary order (this loop crosses itself)")
    edges = np.roll(relative, -1, axis=-2) - relative
    edge_length = np.linalg.norm(edges, axis=-1)
    has_direction = edge_length > slack[..., None]
    for first in range(0, relative.shape[-2], CONVEXITY_EDGE_BLOCK):  # memory O(V), not O(V^2)
        block = slice(first, first + CONVEXITY_EDGE_BLOCK)
        to_vertices = relative[..., None, :, :] - relative[..., block, None, :]  # [edge i of the block, vertex j]
        side = np.einsum("...ijk,...k->...ij", np.cross(edges[..., block, None, :], to_vertices), unit)
        outside = side < -slack[..., None, None] * edge_length[..., block, None]
        if np.any(has_area[..., None, None] & has_direction[..., block, None] & outside):
            raise ValueError("vertices must form a convex polygon in boundary order")


CONVEXITY_EDGE_BLOCK = 256
"""Edges whose every-vertex side test runs at once when validating a polygon."""


class Triangle(Polygon):
    """The two-sided triangle ``(a, b, c)``; may be degenerate (zero area).

    A triangle is a polygon with three vertices, ``vertices = stack(a, b, c)``.
    """

    __slots__ = ("a", "b", "c")
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray
    _fields = ("a", "b", "c")
    _length_fields = ("a", "b", "c", "vertices")
    _element_dims = {"a": 1, "b": 1, "c": 1, "vertices": 2}

    def __init__(self, a, b, c):
        a, b, c = vector_argument(a, "a"), vector_argument(b, "b"), vector_argument(c, "c")
        shape = broadcast_batch_shapes(a.shape[:-1], b.shape[:-1], c.shape[:-1], names="a, b, c")
        if a.ndim == b.ndim == c.ndim == 1:  # one triangle (np.stack costs more than the rest)
            vertices = frozen(np.array((a, b, c)))
        else:
            vertices = frozen(np.stack([np.broadcast_to(v, shape + (3,)) for v in (a, b, c)], axis=-2))
        self._set(a=a, b=b, c=c, vertices=vertices, _batch_shape=shape)


class Sphere(Cored):
    """The solid ball of ``radius >= 0`` around ``center``."""

    __slots__ = ("center", "radius", "_batch_shape")
    center: np.ndarray
    radius: np.ndarray
    _fields = _length_fields = ("center", "radius")
    _element_dims = {"center": 1, "radius": 0}

    def __init__(self, center, radius):
        center, radius = vector_argument(center, "center"), _radius(radius)
        self._set(center=center, radius=radius,
                  _batch_shape=broadcast_batch_shapes(center.shape[:-1], radius.shape, names="center, radius"))

    def core_vertices(self) -> np.ndarray:
        return self.center[..., None, :]


class Capsule(Cored):
    """The solid of points within ``radius`` of the segment ``a``-``b``."""

    __slots__ = ("a", "b", "radius", "_batch_shape")
    a: np.ndarray
    b: np.ndarray
    radius: np.ndarray
    _fields = _length_fields = ("a", "b", "radius")
    _element_dims = {"a": 1, "b": 1, "radius": 0}

    def __init__(self, a, b, radius):
        a, b, radius = vector_argument(a, "a"), vector_argument(b, "b"), _radius(radius)
        self._set(a=a, b=b, radius=radius,
                  _batch_shape=broadcast_batch_shapes(a.shape[:-1], b.shape[:-1], radius.shape,
                                                      names="a, b, radius"))

    def core_vertices(self) -> np.ndarray:
        return segment_vertices(self.a, self.b)


UNIT_EXPONENT_RANGE = 240
"""Polyhedra with a coordinate beyond 2^+-240 are built at unit size (scaled by an exact
power of two, then back): the hull's squared cross products (coordinates to the fourth
power) would overflow or underflow."""


class ConvexPolyhedron(Shape):
    """The solid convex hull of ``vertices`` (..., V, 3) (``physics.hull``).

    The hull is found from the first element of a batch; every element must have
    the same hull structure (a batch of boxes does), else ``ValueError``.  After
    construction ``vertices`` holds the hull's corners only, in the hull's order;
    ``faces`` are loops of vertex indices (counter-clockwise from outside),
    ``normals (..., F, 3)`` outward unit and ``offsets (..., F)`` the face planes
    (``dot(normal, x) <= offset`` inside; float64 whatever the vertices' dtype: the
    polytope kernels compute in float64, and a normal rounded to float32 tilts a
    face by 1e-7, which put contact points of float32 queries 0.5 off the surface,
    issue #31), ``edges (E, 2)`` vertex index pairs, and
    ``distinct_edges`` indexes one edge per edge direction, ``dimension`` 3 for a
    solid (2, 1, 0: a flat, straight or single-point hull,
    valid and answered as the polygon, segment or point it is).  Feature indices of
    sweep results number these faces, edges and vertices.  ``box`` and
    ``tetrahedron`` build the usual ones, ``moved`` applies a rigid motion.

    An element taken from a batch (``polyhedra[i]``) keeps the batch's structure and
    answers bit for bit as its lane did; one built alone from the same corners gets
    its own hull (vertex order, face numbering, and face planes that round
    differently), so its answers agree with the lane's to rounding, not bit for bit.
    """

    __slots__ = ("vertices", "faces", "normals", "offsets", "edges", "dimension", "distinct_edges", "_batch_shape")
    vertices: np.ndarray
    faces: tuple[np.ndarray, ...]
    normals: np.ndarray
    offsets: np.ndarray
    edges: np.ndarray
    dimension: int
    distinct_edges: np.ndarray
    _fields = ("vertices",)
    _length_fields = ("vertices", "offsets")
    _element_dims = {"vertices": 2, "normals": 2, "offsets": 1}
    _shared_fields = ("faces", "edges", "dimension", "distinct_edges")

    def __init__(self, vertices):
        vertices = vector_argument(vertices, "vertices")
        if vertices.ndim < 2 or vertices.shape[-2] < 1:
            raise ValueError(f"vertices must have shape (..., V, 3) with V >= 1, got {vertices.shape}")
        scaled, exponent = unit_size(vertices)
        exponent = int(exponent.flat[0])
        if abs(exponent) > UNIT_EXPONENT_RANGE:  # built at unit size: squared lengths would leave the floats
            unit = ConvexPolyhedron(scaled)
            object.__setattr__(self, "vertices", frozen(np.ldexp(unit.vertices, exponent).astype(vertices.dtype)))
            object.__setattr__(self, "offsets", frozen(np.ldexp(unit.offsets, exponent)))
            self._set(**{name: getattr(unit, name) for name in ("normals", "faces", "edges", "dimension",
                                                                 "distinct_edges", "_batch_shape")})
            return
        batch_shape = vertices.shape[:-2]
        flat = vertices.reshape((-1,) + vertices.shape[-2:])
        first = flat[0] if len(flat) else np.zeros((1, 3), vertices.dtype)  # an empty batch: a point's structure
        hull = convex_hull(first)
        order = _hull_order(first, hull.vertices)
        corners = np.ascontiguousarray(flat[:, order])  # (fancy indexing lays it out vertex-major)
        normals, offsets = _face_planes(corners, hull.faces)
        normals[:1], offsets[:1] = hull.normals, hull.offsets  # the first element's hull, valid by construction
        slack = tolerance.HULL_RTOL * (np.abs(corners).max(axis=(1, 2), initial=0.0)
                                       + np.ptp(corners, axis=1).max(axis=1, initial=0.0))[:, None]
        slack[:1] = np.inf
        heights = np.einsum("nfk,nvk->nfv", normals, corners) - offsets[..., None]
        on_faces = [np.all(heights[:, f, list(loop)] >= -slack, axis=1) for f, loop in enumerate(hull.faces)]
        if not (np.all(heights <= slack[..., None]) and all(np.all(flat_face) for flat_face in on_faces)):
            raise ValueError("vertices: every polyhedron of a batch must have the same hull structure")
        for name, value in (("vertices", corners), ("normals", normals), ("offsets", offsets)):
            object.__setattr__(self, name, frozen(value.reshape(batch_shape + value.shape[1:])))
        self._set(faces=hull.faces, edges=hull.edges, dimension=hull.dimension, _batch_shape=batch_shape,
                  distinct_edges=_distinct_directions(corners[:, hull.edges[:, 1]] - corners[:, hull.edges[:, 0]]))

    @classmethod
    def box(cls, half_extents, center=(0.0, 0.0, 0.0), rotation=None) -> ConvexPolyhedron:
        """Boxes of ``half_extents`` (..., 3) about ``center``, turned by ``rotation``."""
        half_extents = np.asarray(half_extents, float)
        signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
        corners = signs * half_extents[..., None, :]
        if rotation is not None:
            corners = rotated(np.asarray(rotation, float), corners)
        return cls(corners + np.asarray(center, float)[..., None, :])

    @classmethod
    def tetrahedron(cls, a, b, c, d) -> ConvexPolyhedron:
        return cls(np.stack(np.broadcast_arrays(*(np.asarray(p, float) for p in (a, b, c, d))), axis=-2))

    def moved(self, translation=(0.0, 0.0, 0.0), rotation=None) -> ConvexPolyhedron:
        """The polyhedra turned by ``rotation`` about the origin, then translated."""
        corners = self.vertices if rotation is None else rotated(np.asarray(rotation, float), self.vertices)
        return ConvexPolyhedron(corners + np.asarray(translation, float))

    def posed(self, rotation, translation=(0.0, 0.0, 0.0)) -> ConvexPolyhedron:
        """The polyhedra moved rigidly, keeping their hull: corners R·v + t, face normals
        R·n, offsets d + (R·n)·t, with ``translation`` t one 3-vector or one per polyhedron
        of a batch (shape ``(*batch, 3)``).  ``moved`` searches for the hull again (~3 ms
        for a box); this keeps the faces, edges and feature numbers, so it costs array products
        only (a simulation posing a body every step).  The planes round differently
        from a fresh hull's, by about an ulp of the coordinates; the result is float64
        whatever the corners' precision, as ``moved``'s is.  ``rotation`` (3x3) must be
        orthonormal with determinant +1 to 1e-6 (a float32 rotation is), and is used as
        the rotation nearest it (its polar factor), so the planes stay exact; else
        ``ValueError``, as for corners beyond the float64 range."""
        rotation = np.asarray(rotation, float)
        if rotation.shape != (3, 3) or not np.all(np.isfinite(rotation)) \
                or not np.allclose(matrix_product(rotation, rotation.T), np.eye(3), rtol=0.0,
                                   atol=tolerance.POSED_ROTATION_ATOL) \
                or np.linalg.det(rotation) < 0:
            raise ValueError("rotation must be a 3x3 orthonormal matrix with determinant +1 "
                             f"(to {tolerance.POSED_ROTATION_ATOL:g})")
        rotation = nearest_rotation(rotation)
        translation = vector_argument(translation, "translation")
        if translation.shape not in ((3,), (*self._batch_shape, 3)):
            raise ValueError(f"translation must be one 3-vector or one per polyhedron, shape "
                             f"{(*self._batch_shape, 3)}, got shape {translation.shape}")
        each = translation[..., None, :]  # one per polyhedron: over its corners and faces
        normals = rotated(rotation, self.normals)  # float64, as ``moved`` gives: float32 corners far out would round
        with np.errstate(over="ignore"):  # checked below
            fields = {"vertices": rotated(rotation, self.vertices) + each, "normals": normals,
                      "offsets": self.offsets + dot_rows(normals, each)}
        if not np.all(np.isfinite(fields["vertices"])):
            raise ValueError("posed vertices must be finite (the translation takes them beyond float64)")
        posed = object.__new__(ConvexPolyhedron)
        for name, value in fields.items():
            object.__setattr__(posed, name, frozen(value))
        posed._set(**{name: getattr(self, name) for name in self._shared_fields}, _batch_shape=self._batch_shape)
        return posed


def _distinct_directions(edges: np.ndarray) -> np.ndarray:
    """Indices of the edges (n, E, 3) whose directions differ (in some element of the
    batch) from every earlier edge's: a box has 12 edges but 3 directions, and the
    separating axis test needs each direction once."""
    lengths = np.linalg.norm(edges, axis=-1)
    kept: list[int] = []
    for index in range(edges.shape[1]):
        parallel = [np.all(np.linalg.norm(np.cross(edges[:, index], edges[:, other]), axis=-1)
                           <= tolerance.HULL_RTOL * lengths[:, index] * lengths[:, other]) for other in kept]
        if not any(parallel):
            kept.append(index)
    return np.array(kept, int)


def _hull_order(points: np.ndarray, hull_vertices: np.ndarray) -> np.ndarray:
    """Indices into ``points`` of each hull vertex (the first equal point)."""
    return np.array([int(np.flatnonzero(np.all(points == vertex, axis=1))[0]) for vertex in hull_vertices], int)


def _face_planes(corners: np.ndarray, faces: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Outward unit normals (n, F, 3) and offsets (n, F) of every element's faces:
    Newell normals of the loops, offset by the loop's farthest vertex along them."""
    if not faces:
        return np.zeros((len(corners), 0, 3)), np.zeros((len(corners), 0))
    corners = np.asarray(corners, float)
    normals = np.stack([newell_normal(corners[:, list(loop)]) for loop in faces], axis=1)
    normals = normals / row_lengths(normals)[..., None]
    offsets = np.stack([dot_rows(normals[:, f, None], corners[:, list(loop)]).max(axis=-1)
                        for f, loop in enumerate(faces)], axis=1)
    return normals, offsets


class TriangleMesh(Shape):
    """A two-sided triangle soup with a rigid pose.

    ``vertices (V, 3)`` are in the mesh's *body space*; ``faces (F, 3)`` index them
    (F >= 1; a face may repeat a vertex: it is then a zero-area triangle, answered by
    its edges, never a false hit).  The pose maps body to world space:
    ``world = rotation @ body + translation`` (``rotation`` a proper 3x3 rotation,
    checked to ``tolerance.ROTATION_ATOL``).  Queries are transformed into body
    space, so ``moved`` shares the sphere tree and edge data of the original; with
    the identity pose no transform happens and answers are bit-identical to the
    per-triangle tests.
    """

    __slots__ = ("vertices", "faces", "rotation", "translation", "_batch_shape", "_derived", "_identity_pose")
    vertices: np.ndarray
    faces: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray
    _derived: dict
    _identity_pose: bool
    _fields = ("vertices", "faces")

    def __init__(self, vertices, faces, *, translation=(0.0, 0.0, 0.0), rotation=None):
        vertices = vector_argument(vertices, "vertices")
        if vertices.ndim != 2:
            raise ValueError(f"vertices must have shape (V, 3), got {vertices.shape}")
        try:
            faces = np.asarray(faces)
        except ValueError:  # ragged lists
            raise ValueError("faces must be integers of shape (F, 3), got rows of different lengths") from None
        if faces.ndim != 2 or faces.shape[1] != 3 or (faces.size and not np.issubdtype(faces.dtype, np.integer)):
            raise ValueError(f"faces must be integers of shape (F, 3), got {faces.dtype} {faces.shape}")
        if len(faces) == 0:
            raise ValueError("faces must hold at least one triangle")
        if faces.min() < 0 or faces.max() >= len(vertices):
            raise ValueError(f"faces index out of range [0, {len(vertices)})")
        faces = frozen(faces.astype(np.int64))
        self._set(vertices=vertices, faces=faces, _batch_shape=(), _derived={})
        self._set_pose(translation, rotation)

    def _set_pose(self, translation, rotation) -> None:
        translation = vector_argument(translation, "translation")
        if translation.shape != (3,):
            raise ValueError(f"translation must have shape (3,), got {translation.shape}")
        if rotation is None:
            rotation = np.eye(3)
        rotation = vector_argument(rotation, "rotation")
        if rotation.shape != (3, 3):
            raise ValueError(f"rotation must have shape (3, 3), got {rotation.shape}")
        if rotation.dtype not in (np.float32, np.float64):  # float16, long double: linalg refuses them
            rotation = frozen(rotation.astype(np.float64))
        if np.abs(rotation.T @ rotation - np.eye(3)).max() > tolerance.ROTATION_ATOL or np.linalg.det(rotation) < 0:
            raise ValueError("rotation must be a proper rotation matrix (orthonormal, determinant +1)")
        self._set(translation=translation, rotation=rotation,
                  _identity_pose=bool(np.all(translation == 0) and np.all(rotation == np.eye(3))))

    def moved(self, translation=None, rotation=None) -> TriangleMesh:
        """The same mesh at another pose (``None`` keeps the current part); the sphere
        tree and edge data are shared, never rebuilt."""
        posed = object.__new__(TriangleMesh)
        posed._set(vertices=self.vertices, faces=self.faces, _batch_shape=(), _derived=self._derived)
        posed._set_pose(self.translation if translation is None else translation,
                        self.rotation if rotation is None else rotation)
        return posed

    @property
    def has_identity_pose(self) -> bool:
        """Whether the pose is exactly the identity (decided once, when it is set: every
        mesh query asks)."""
        return self._identity_pose

    def to_body(self, points: np.ndarray) -> np.ndarray:
        """World points (..., 3) in body space: ``rotation^T (points - translation)``."""
        return rotated(self.rotation.T, np.asarray(points) - self.translation)

    def to_world(self, points: np.ndarray) -> np.ndarray:
        """Body points (..., 3) in world space: ``rotation points + translation``.
        Elementwise arithmetic: a point maps to the same floats whatever batch it
        is in (a matrix product may round differently by batch shape)."""
        return rotated(self.rotation, np.asarray(points)) + self.translation

    def vectors_to_body(self, vectors: np.ndarray) -> np.ndarray:
        """World directions (..., 3) in body space (rotation only)."""
        return rotated(self.rotation.T, np.asarray(vectors))

    def vectors_to_world(self, vectors: np.ndarray) -> np.ndarray:
        """Body directions (..., 3) in world space (rotation only)."""
        return rotated(self.rotation, np.asarray(vectors))

    def world_vertices(self) -> np.ndarray:
        return self.vertices if self.has_identity_pose else self.to_world(self.vertices)

    def cached(self, key: Hashable, compute):
        """A value derived from the body-space mesh (tree, edge data), computed once
        and shared by every pose of this mesh."""
        if key not in self._derived:
            self._derived[key] = compute()
        return self._derived[key]

    @property
    def tree(self) -> SphereTree:
        """The sphere tree (``physics.bvh``) in body space, built on first use."""
        return self.cached("tree", lambda: build_sphere_tree(self.vertices, self.faces))

    def __repr__(self) -> str:
        return (f"TriangleMesh({len(self.vertices)} vertices, {len(self.faces)} faces, "
                f"translation={self.translation.tolist()}, rotation={self.rotation.tolist()})")
