"""Target *cores*: the features a sphere-family target is made of.

A core is a convex polygon given by its boundary vertices (V, 3): V = 1 is a point,
V = 2 a segment, V >= 3 a polygon.  Its features, in this order, are: the face
(polygons with area only), the edges (none for a point, one for a segment, V for a
polygon, edge i from vertex i to vertex i + 1 mod V), then the vertices.  A sphere's
core is its center inflated by its radius, a capsule's its segment.  Feature codes
are the indices of ``physics.result.FEATURE_KINDS``.

The compiled functions below work on one core; the numpy ones above them serve
shape validation (``physics.shapes``) and the set-up of polytope and reference
queries.
"""

from __future__ import annotations

import functools

import numpy as np

from sweeplab.physics.kernels import kernel
from sweeplab.physics import tolerance
from sweeplab.physics.result import FEATURE_KINDS
from sweeplab.physics.geometry import add, epsilon, largest_magnitude, like, maximum, row, sqrt
from sweeplab.physics.geometry import cross as cross_one
from sweeplab.physics.geometry import dot as dot_one
from sweeplab.physics.geometry import sub

VERTEX, EDGE, FACE = (FEATURE_KINDS.index(kind) for kind in ("vertex", "edge", "face"))


def newell_normal(vertices: np.ndarray) -> np.ndarray:
    """Area-weighted normal of closed polygons (..., V, 3); length = twice the area.

    Newell's method: exact for planar polygons, a best fit for warped ones, and
    oriented by the winding (counter-clockwise seen from the tip of the normal): the
    cross products of consecutive vertices, summed in vertex order, elementwise (an
    element rounds the same in any batch).  The array version of the kernels'
    ``newell_vector`` (shape validation, hulls, polytope set-up): pass the vertices as
    offsets from a point of the polygon (given as offsets from vertex 0, it is that
    sum, bit for bit), so that far from the origin the coordinates do not swamp it.
    """
    x, y, z = vertices[..., 0], vertices[..., 1], vertices[..., 2]
    x_next, y_next, z_next = (np.roll(c, -1, axis=-1) for c in (x, y, z))
    crossed = np.stack((y * z_next - z * y_next, z * x_next - x * z_next, x * y_next - y * x_next), axis=-1)
    return functools.reduce(np.add, [crossed[..., i, :] for i in range(vertices.shape[-2])])


def dot_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The dot product over the last axis, broadcast: x + y + z summed in that order,
    each product and sum rounded once.  The same bits on every machine, where numpy's
    ``@``, ``dot`` and a 1-D ``linalg.norm`` call BLAS (whose kernels, and so their
    last bits, depend on the CPU) and ``einsum`` may reorder its sums."""
    products = np.multiply(a, b)
    total = products[..., 0]
    for k in range(1, products.shape[-1]):
        total = total + products[..., k]
    return total


def row_lengths(vectors: np.ndarray) -> np.ndarray:
    """Euclidean length over the last axis (``sqrt(dot_rows(v, v))``): as machine
    independent as ``dot_rows``."""
    return np.sqrt(dot_rows(vectors, vectors))


def rotated(rotation: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """``rotation @ v`` for every (..., 3) vector, rotations (..., 3, 3) broadcast over
    the vectors' second-to-last axis: summed x, y, z in that order (``dot_rows``'s
    rounding, not BLAS's)."""
    rotation = np.asarray(rotation)
    columns = [rotation[..., None, :, k] if rotation.ndim > 2 else rotation[:, k] for k in range(3)]
    return vectors[..., 0:1] * columns[0] + vectors[..., 1:2] * columns[1] + vectors[..., 2:3] * columns[2]


def matrix_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for 3x3 matrices, each element summed in index order (``dot_rows``)."""
    return dot_rows(a[:, None, :], np.swapaxes(b, 0, 1)[None, :, :])


NEAREST_ROTATION_STEPS = 4
"""Newton-Schulz steps of ``nearest_rotation``: the error squares each step, so from
1e-6 it is at round-off after two; more change nothing."""


def nearest_rotation(matrix: np.ndarray) -> np.ndarray:
    """The rotation nearest ``matrix`` (3x3, orthonormal to about 1e-6): its polar factor,
    by the Newton-Schulz iteration X <- X (3 I - X^T X) / 2, which converges to it
    quadratically from there.  Products only, elementwise (``matrix_product``), so the
    result is the same on every machine (LAPACK's SVD is not).  An exactly orthonormal
    matrix (X^T X == I as computed) is returned as it is."""
    identity = np.eye(3)
    for _ in range(NEAREST_ROTATION_STEPS):
        gram = matrix_product(matrix.T, matrix)
        if np.array_equal(gram, identity):
            break
        matrix = matrix_product(matrix, 3.0 * identity - gram) / 2.0
    return matrix


def polygon_extent(vertices: np.ndarray) -> np.ndarray:
    """Per polygon (..., V, 3): twice the largest distance of a vertex from the centroid."""
    return 2 * np.linalg.norm(vertices - vertices.mean(axis=-2, keepdims=True), axis=-1).max(axis=-1)


def coordinate_rounding(vertices: np.ndarray) -> np.ndarray:
    """Per polygon (..., V, 3): the rounding its coordinates may carry
    (``tolerance.COORDINATE_ROUNDING_ULPS`` of the largest magnitude)."""
    return tolerance.COORDINATE_ROUNDING_ULPS * np.finfo(vertices.dtype).eps * np.abs(vertices).max(axis=(-2, -1))


def polygon_slack(vertices: np.ndarray, extent: np.ndarray | None = None,
                  rounding: np.ndarray | None = None) -> np.ndarray:
    """Per polygon (..., V, 3), how far a vertex may stray from exact planarity or
    convexity: ``tolerance.POLYGON_RTOL`` of its extent plus the rounding of its
    coordinates (``tolerance.COORDINATE_ROUNDING_ULPS``); pass ``extent`` and
    ``rounding`` when already computed."""
    extent = polygon_extent(vertices) if extent is None else extent
    return tolerance.POLYGON_RTOL * extent + (coordinate_rounding(vertices) if rounding is None else rounding)


# --- one lane (compiled): a core given by its vertices (V, 3), V = 1, 2 or >= 3 ---------

@kernel
def edge_count(vertices) -> int:
    """0 for a point, 1 for a segment, V for a polygon (edge i from vertex i to i + 1)."""
    count = vertices.shape[0]
    return 0 if count == 1 else 1 if count == 2 else count


@kernel
def edge_of(vertices, i):
    """(start, edge vector) of edge ``i``."""
    start = row(vertices, i)
    return start, sub(row(vertices, (i + 1) % vertices.shape[0]), start)


@kernel
def bounding_ball(points):
    """(center, radius) of a ball holding every point of ``points`` (V, 3): their
    centroid and the distance to the farthest one."""
    count = points.shape[0]
    zero = like(points[0, 0], 0.0)
    sums = (zero, zero, zero)
    for i in range(count):
        sums = add(sums, row(points, i))
    divisor = like(zero, count)
    center = (sums[0] / divisor, sums[1] / divisor, sums[2] / divisor)
    farthest_squared = zero
    for i in range(count):
        offset = sub(row(points, i), center)
        farthest_squared = maximum(farthest_squared, dot_one(offset, offset))
    return center, sqrt(farthest_squared)


@kernel
def segment_ball(start, end):
    """(center, radius) of the smallest ball holding the segment: its midpoint and half
    its length."""
    half = like(start[0], 0.5)
    offset = sub(end, start)
    return add(start, (half * offset[0], half * offset[1], half * offset[2])), half * sqrt(dot_one(offset, offset))


@kernel
def core_rounding(vertices):
    """The rounding a core's coordinates may carry: ``tolerance.COORDINATE_ROUNDING_ULPS``
    ulps of the largest |coordinate| (``coordinate_rounding`` of one core; its extent,
    ``polygon_extent``, is twice its ``bounding_ball`` radius)."""
    largest = like(vertices[0, 0], 0.0)
    for i in range(vertices.shape[0]):
        largest = maximum(largest, largest_magnitude(row(vertices, i)))
    return rounding_of(largest)


@kernel
def rounding_of(magnitude):
    """The rounding coordinates of up to ``magnitude`` may carry:
    ``tolerance.COORDINATE_ROUNDING_ULPS`` ulps of it, in its float type."""
    return like(magnitude, tolerance.COORDINATE_ROUNDING_ULPS) * epsilon(magnitude) * magnitude


@kernel
def newell_vector(vertices):
    """Newell's area vector of a polygon loop (V, 3), from vertex 0:
    N = sum_i (v_i - v_0) x (v_i+1 - v_0), twice the area long, oriented by the
    winding (counter-clockwise seen from its tip); for a warped loop, the normal of the
    best-fitting plane.  Offsets from a vertex, so that far from the origin the
    coordinates do not swamp the cross products.  The one Newell sum of the kernels
    (``face_normal`` for sphere and capsule cores, the leaf triangles of
    ``physics.sweep.mesh``); ``newell_normal`` is its NumPy counterpart for arrays of
    polygons."""
    count = vertices.shape[0]
    anchor = row(vertices, 0)
    total = cross_one(sub(anchor, anchor), sub(row(vertices, 1 % count), anchor))
    for i in range(1, count):
        total = add(total, cross_one(sub(row(vertices, i), anchor), sub(row(vertices, (i + 1) % count), anchor)))
    return total


@kernel
def face_normal(vertices, extent, rounding):
    """The unit face normal of a polygon core (``newell_vector``: oriented by the
    winding); zero where the Newell vector is no longer than ``rounding * extent`` (the
    vertices coincide up to round-off, ``tolerance.COORDINATE_ROUNDING_ULPS``: no face,
    only edges)."""
    total = newell_vector(vertices)
    length = sqrt(dot_one(total, total))
    zero = like(length, 0.0)
    if length > rounding * extent:
        return (total[0] / length, total[1] / length, total[2] / length)
    return (zero, zero, zero)


@kernel
def polygon_face(vertices, core_radius):
    """(unit face normal, slack) of a polygon core whose bounding ball has radius
    ``core_radius`` (``bounding_ball``): ``face_normal`` over the extent 2 * radius and
    the core's rounding (``core_rounding``), and the slack of ``polygon_slack``
    (``tolerance.POLYGON_RTOL`` of the extent plus that rounding), with which
    ``inside_face`` ignores edges of rounding size.  Every sweep kernel decides
    face-or-edges here: a sliver is edges only to a sphere and a capsule alike."""
    extent, rounding = like(core_radius, 2.0) * core_radius, core_rounding(vertices)
    slack = like(extent, tolerance.POLYGON_RTOL) * extent + rounding
    return face_normal(vertices, extent, rounding), slack


@kernel
def inside_face(vertices, normal, offset, slack, margin):
    """Whether the point ``vertices[0] + offset`` projects along the unit face
    ``normal`` into the polygon or onto its boundary, or lies at most ``margin``
    outside an edge (a length: 0 for the exact test, the rounding of the coordinates
    where the point itself is computed); False where there is no face (zero normal).
    An edge no longer than ``slack`` (``polygon_slack``) has no direction and does
    not bound the face.  For edge i from v_i along e_i, with inward = n x e_i (|e_i|
    long, in the plane): inside iff inward . (p - v_i) >= -margin |e_i| for every
    edge, evaluated as inward . offset >= inward . (v_i - v_0) - margin |e_i|.  The one
    point-in-polygon of the sweep kernels (``physics.reference`` keeps its own, being
    an independent second opinion)."""
    if normal[0] == 0 and normal[1] == 0 and normal[2] == 0:
        return False
    anchor = row(vertices, 0)
    zero = like(normal[0], 0.0)
    for i in range(vertices.shape[0]):
        start, edge = edge_of(vertices, i)
        edge_length = sqrt(dot_one(edge, edge))
        inward = cross_one(normal, edge) if edge_length > slack else (zero, zero, zero)
        if not dot_one(inward, offset) >= dot_one(inward, sub(start, anchor)) - margin * edge_length:
            return False
    return True


@kernel
def widest_feature(vertices, normal):
    """(code, axis) of a core's widest feature: the face where it has one, else its
    longest edge (the first of equals), else the vertex (zero axis)."""
    zero = like(vertices[0, 0], 0.0)
    if normal[0] != 0 or normal[1] != 0 or normal[2] != 0:
        return FACE, normal
    best_code, best_axis, best_length = VERTEX, (zero, zero, zero), -like(zero, 1.0)
    for i in range(edge_count(vertices)):
        _, edge = edge_of(vertices, i)
        length_squared = dot_one(edge, edge)
        if length_squared > best_length:
            best_length, best_axis = length_squared, edge
            best_code = EDGE if length_squared > 0 else VERTEX
    return best_code, best_axis


@kernel
def is_within_rounding(separation, magnitude):
    """Whether ``separation`` is no longer than the rounding of coordinates of up to
    ``magnitude`` (``tolerance.COORDINATE_ROUNDING_ULPS`` ulps of it; pass the largest
    |coordinate| of the points it was computed from): its direction is then round-off."""
    return sqrt(dot_one(separation, separation)) <= rounding_of(magnitude)
