"""Sweeps of a moving convex polyhedron, and of spheres and capsules against one.

A polyhedron against a polytope (``Point``, ``Segment``, ``Triangle``, ``Polygon``
(two-sided: a flat solid) and ``ConvexPolyhedron``) is the separating axis test over
time (``physics.sweep.sat``); a ``Plane`` is answered from the extreme projections of
the moving shape.  The axis that entered last names the contact: a face of B (feature
face), a face of A (B touches it with a vertex, an edge or a face: the feature is what
B has there), or an edge pair.  ``trace`` (a ``SatTrace``) records every axis with its
interval, for the editor.  A sphere or capsule against a solid polyhedron runs the
exact sphere / capsule kernels on its faces' fan triangles; a core that starts inside
the solid (or on its surface) overlaps by its separating-axis depth plus the radius.

Conventions as every sweep: the normal points from B towards A, ``point`` is on B's
surface at t where they touch (the middle of the contact polygon's corners), an
initial overlap answers t = 0 with the separating-axis depth (the minimum translation
distance of two convex polytopes) and its direction.

Precision: computed in float64 whatever the inputs' dtype (the hull and its
tolerances are float64); the answer comes back in the inputs' dtype
(``physics.result.answer_dtype``), so a float32 query sees the rounding of its
inputs, not float32 arithmetic.

Degenerate inputs: zero direction — an overlap test; zero-area faces and zero-length
edges give zero axes, which never separate (the shape is answered as the
lower-dimensional polytope it is); a polyhedron whose hull is a point or a segment is
that ``Point`` or ``Segment``, and a flat one against a sphere or capsule the
``Polygon`` it is.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np
from numba import prange

from sweeplab.physics.kernels import kernel, lane_input
from sweeplab.physics.core import EDGE, FACE, VERTEX, bounding_ball, dot_rows, newell_normal
from sweeplab.physics.geometry import (add, dot, like, maximum, minimum, plane_height, plus_zero, row, scale,
                                      sub)
from sweeplab.physics.lanes import lane_loop
from sweeplab.physics.result import FEATURE_KINDS, Feature, SweepResult, answer_dtype
from sweeplab.physics.shapes import ConvexPolyhedron, Plane, Point, Polygon, Segment, Triangle
from sweeplab.physics import tolerance
from sweeplab.physics.sweep.ball import ball_core
from sweeplab.physics.sweep.bounds import may_touch
from sweeplab.physics.sweep.capsule import capsule_polygon
from sweeplab.physics.sweep.lane_answer import Contact, LaneAnswer, answer_arrays, miss, store_answer
from sweeplab.physics.sweep.mesh import core_points, polytope_walks
from sweeplab.physics.sweep.query import flat_lanes, lane_inputs, pair_test, point_or_segment, rows_result
from sweeplab.physics.sweep.sat import axis_count, contact_features, contact_rtol, sat_sweep
from sweeplab.physics.traversal import TraversalTrace, ranks_before


class Polytope(NamedTuple):
    """A convex polytope as SAT sees it, batched: ``vertices (n, V, 3)``, unit
    ``normals (n, F, 3)``, edge vectors ``edges (n, E, 3)`` (one per edge direction),
    the vertex pairs of all its edges ``edge_ends (E', 2)``, its ``dimension`` (3
    solid ... 0 point) and how many ``faces`` number a ``face_index`` (polyhedra,
    polygons; 0 for others).  n is the lanes' count, or 1 where one polytope serves
    every lane (``polytope_of``, ``lane_row``)."""

    vertices: np.ndarray
    normals: np.ndarray
    edges: np.ndarray
    edge_ends: np.ndarray
    dimension: int
    faces: int


def polytope_of(shape, batch_shape: tuple) -> Polytope:
    """The shape's polytope in float64 as kernel inputs (``kernels.lane_input``): one
    row per lane of ``batch_shape`` (flattened), or a single row where the shape is one
    polytope, which every lane reads (``lane_row``): a target shared by 10^5 lanes is
    built once, not copied to each."""
    single = int(np.prod(shape.batch_shape, dtype=int)) == 1
    rows_shape = shape.batch_shape if single else batch_shape
    rows = 1 if single else int(np.prod(batch_shape, dtype=int))

    def flat(array, element_dims):
        return flat_lanes(array, element_dims, rows_shape, float)

    none = lane_input(np.zeros((rows, 0, 3)), float)
    if isinstance(shape, Point):
        return Polytope(flat(shape.p[..., None, :], 2), none, none, lane_input(np.zeros((0, 2)), np.int64), 0, 0)
    if isinstance(shape, Segment):
        ends = np.stack(np.broadcast_arrays(shape.a, shape.b), axis=-2)
        return Polytope(flat(ends, 2), none, flat((shape.b - shape.a)[..., None, :], 2), lane_input([[0, 1]], np.int64),
                        1, 0)
    if isinstance(shape, Polygon):  # a triangle's faces are not numbered (its face_index is None)
        polytope = polygon_polytopes(flat(shape.vertices, 2))
        return polytope._replace(faces=0) if isinstance(shape, Triangle) else polytope
    if isinstance(shape, ConvexPolyhedron):
        # one edge per direction is all SAT needs (a box: 3 of 12), subtracted in float64 (rounded to float32, an
        # edge direction tilts by 1e-7: contact points of float32 queries 0.5 off, issue #31)
        vertices = flat(shape.vertices, 2)
        return Polytope(vertices, flat(shape.normals, 2), edge_vectors(vertices, shape.edges[shape.distinct_edges]),
                        lane_input(shape.edges, np.int64), shape.dimension, len(shape.faces))
    raise TypeError(f"{type(shape).__name__} is not a polytope")


def polygon_polytopes(vertices: np.ndarray) -> Polytope:
    """Flat polytopes of polygons (n, V, 3): Newell unit normal (zero without area),
    the V edges of the loop."""
    normal = newell_normal(vertices - vertices[:, :1])
    length = np.linalg.norm(normal, axis=-1, keepdims=True)
    normal = np.where(length > 0, normal / np.where(length > 0, length, 1), 0)
    count_v = vertices.shape[1]
    ends = np.stack([np.arange(count_v), (np.arange(count_v) + 1) % count_v], axis=1)
    vertices = lane_input(vertices, float)
    return Polytope(vertices, lane_input(normal[:, None, :], float), edge_vectors(vertices, ends),
                    lane_input(ends, np.int64), 2, 1)


def edge_vectors(vertices: np.ndarray, edge_ends) -> np.ndarray:
    """(n, E, 3) float64: ``vertices[:, end] - vertices[:, start]`` of each of the
    ``edge_ends`` (E, 2), row by row in the compiled loop ``_edge_vector_lanes``
    (``vertices``: a kernel input, (n, V, 3) float64)."""
    edge_ends = lane_input(np.reshape(edge_ends, (-1, 2)), np.int64)
    vectors = np.empty((len(vertices), len(edge_ends), 3))
    _edge_vector_lanes(len(vertices), vertices, edge_ends, vectors)
    return vectors


@dataclass
class SatTrace:
    """Every candidate axis of a scalar polytope sweep: ``axes (K, 3)``, their
    ``kinds`` (``AXIS_KINDS``), the ``enter``/``exit`` times of overlap on each (±inf
    for always / never), the ``chosen`` axis (the last to enter; at t = 0 the one of
    least penetration), and the ``feature_pair`` that touched: (A's, B's) as
    "vertex" / "edge" / "face"."""

    axes: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    kinds: np.ndarray = field(default_factory=lambda: np.zeros(0, int))
    enter: np.ndarray = field(default_factory=lambda: np.zeros(0))
    exit: np.ndarray = field(default_factory=lambda: np.zeros(0))
    chosen: int = -1
    feature_pair: tuple = ()
    moving_feature: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    """The moving shape's touching vertices at the time of impact (one: a vertex,
    two: an edge, more: a face)."""


PARALLEL_MIN_POLYTOPES = 64
"""Lanes from which a batch of polytope sweeps runs in parallel (one costs 1-20 us)."""

AXIS_KINDS = ("face of A", "face of B", "edge pair", "motion")


FEATURE_SPAN = {1: "vertex", 2: "edge", 3: "face"}
"""What a touching feature spans (``sat.touching_feature``), by name."""


# --- one lane ----------------------------------------------------------------------------

@kernel(inline=True)
def polytope_pair(a_vertices, a_normals, a_edges, a_edge_ends, b_vertices, b_normals, b_edges, b_edge_ends,
                  b_faces, b_dimension, motion_axes, direction, ignore_separating, trace, rtol):
    """A polytope A moving along ``direction`` against a polytope B: (answer, face
    index, chosen axis, what A's and B's touching features span; touching within
    ``rtol``, ``sat.contact_rtol``).  Untraced, bounding
    balls skip pairs that cannot touch (``bounds``; the chosen axis is then -1)."""
    if len(trace[1]) == 0:
        a_center, a_radius = bounding_ball(a_vertices)
        b_center, b_radius = bounding_ball(b_vertices)
        if not may_touch(a_center, a_radius, direction, b_center, b_radius):
            return miss(a_radius), -1, -1, 0, 0
    t, normal, depth, chosen = sat_sweep(a_vertices, a_normals, a_edges, b_vertices, b_normals, b_edges, motion_axes,
                                         direction, ignore_separating, trace)
    if t != t and len(trace[1]) == 0:  # a miss, untraced: no features to find (9/10 of a box-box lane's time)
        return miss(t), -1, chosen, 0, 0
    point, code, index, face_index, span_a, span_b = contact_features(a_vertices, a_edge_ends, b_vertices, b_edge_ends,
                                                                      b_normals, b_faces, b_dimension, direction, t,
                                                                      normal, rtol)
    if t != t:
        return miss(t), -1, chosen, span_a, span_b
    return LaneAnswer(t, point, normal, depth, code, index), face_index, chosen, span_a, span_b


@kernel
def core_against_polyhedron(points, radius, direction, vertices, normals, edges, edge_ends, corners, triangle_face,
                            triangle_edge, ignore_separating):
    """A rounded core (a sphere's center, K = 1, or a capsule's segment, K = 2, with
    ``radius``) against a solid polyhedron: the exact sphere / capsule kernel on every
    fan triangle of its faces (``corners`` (T, 3) vertex indices, ``triangle_face``,
    ``triangle_edge`` the hull edge under each triangle edge, -1 inside a face), the
    first contact by the mesh rule (``ranks_before``), features mapped to the hull's;
    then a core in the solid or on its surface overlaps by its separating-axis depth
    plus the radius, outward (the faces alone would only see the radius, and a core on
    a face could leave into the solid).  Returns (answer, face index).  Bounding balls
    skip what cannot touch (``bounds``)."""
    # 1. bounding balls that never meet over [0, 1] skip the rest
    core_center, core_radius = bounding_ball(points)
    solid_center, solid_radius = bounding_ball(vertices)
    if not may_touch(core_center, core_radius + radius, direction, solid_center, solid_radius):
        return miss(radius), -1
    zero = like(radius, 0.0)
    triangle = np.empty((3, 3), vertices.dtype)
    nan = like(radius, math.nan)
    best, best_triangle = miss(radius), -1
    # 2. the rounded core against every fan triangle of the faces, by the exact sphere or
    #    capsule kernel; the first by the mesh walk's rule (``ranks_before``: smaller t,
    #    then deeper, then face, edge, vertex, then the lower triangle)
    start, end = row(points, 0), row(points, points.shape[0] - 1)
    for k in range(corners.shape[0]):
        for corner in range(3):
            for axis in range(3):
                triangle[corner, axis] = vertices[corners[k, corner], axis]
        if points.shape[0] == 1:
            answer = ball_core(start, radius, direction, triangle, zero, ignore_separating)
        else:
            answer = capsule_polygon(start, end, radius, direction, triangle, ignore_separating)
        if ranks_before(answer, k, best, best_triangle):
            best, best_triangle = answer, k
    # 3. the triangle's feature as the hull's: its face, the hull edge under a triangle
    #    edge (a fan diagonal is inside the face), the hull vertex
    t, point, normal, depth, code, local = best
    face = -1
    if best_triangle >= 0:
        face = triangle_face[best_triangle]
        hull_edge = triangle_edge[best_triangle, local]
        if code == EDGE and hull_edge < 0:
            code = FACE  # a fan diagonal lies inside its face
        index = corners[best_triangle, local] if code == VERTEX else hull_edge if code == EDGE else face
        best = LaneAnswer(t, point, normal, depth, code, index)
    # 4. the core in (or on) the solid: the separating axis test of the still core (a
    #    point or a segment) against it (``sat_sweep``, at t = 0): overlapping there, the
    #    answer is t = 0 with depth = SAT depth (0 if only touching) + radius along the
    #    SAT normal
    no_normals = np.empty((0, 3), vertices.dtype)
    core_edges = np.empty((points.shape[0] - 1, 3), vertices.dtype)
    if points.shape[0] == 2:
        core_edges[0, 0], core_edges[0, 1], core_edges[0, 2] = sub(end, start)
    core_ends = np.zeros((points.shape[0] - 1, 2), np.int64)
    if points.shape[0] == 2:
        core_ends[0, 1] = 1
    still = (zero, zero, zero)
    no_trace = (np.empty((0, 3)), np.empty(0, np.int64), np.empty(0), np.empty(0))
    inside_t, inside_normal, inside_depth, _ = sat_sweep(points, no_normals, core_edges, vertices, normals, edges,
                                                         False, still, False, no_trace)
    if inside_t != inside_t:
        return best, face
    if ignore_separating and dot(direction, inside_normal) >= 0:
        return miss(radius), -1
    # 5. where the core, moved out along the normal, touches: the capsule's surface touches
    #    there too
    witness, code, index, best_face, _, _ = contact_features(points, core_ends, vertices, edge_ends, normals,
                                                             normals.shape[0], 3, still, zero, inside_normal,
                                                             tolerance.HULL_RTOL)
    total = (inside_depth if inside_depth == inside_depth else zero) + radius
    return LaneAnswer(zero, witness, inside_normal, total if total > 0 else nan, code, index), best_face


@kernel
def polyhedron_plane(vertices, direction, normal, offset, ignore_separating):
    """A polyhedron against a two-sided plane: its extreme heights over the plane move
    at ``dot(d, n)``; it touches when the nearer one reaches 0; straddling it at t = 0
    it overlaps by the shorter way out (upwards on a tie).  Feature: face 0."""
    zero = like(offset, 0.0)
    nan = like(offset, math.nan)
    low = high = plane_height(row(vertices, 0), normal, offset)
    for i in range(1, vertices.shape[0]):
        height = plane_height(row(vertices, i), normal, offset)
        low, high = minimum(low, height), maximum(high, height)
    rate = dot(direction, normal)
    straddles = low <= 0 and high >= 0
    reach = -low / rate if low > 0 else -high / rate  # the nearer extreme to the plane
    if straddles:
        t = zero
    elif reach >= 0 and reach <= 1 and rate != 0:
        t = reach
    else:
        t = nan
    if straddles:
        side = like(offset, 1.0) if -low <= high else -like(offset, 1.0)
    else:
        side = like(offset, 1.0) if low > 0 else -like(offset, 1.0)
    depth = minimum(-low, high) if straddles else nan
    contact_normal = plus_zero(scale(side, normal))
    if ignore_separating and straddles and dot(direction, contact_normal) >= 0:
        t = nan
    if t != t:
        return miss(offset)
    lowest, lowest_height = 0, plane_height(row(vertices, 0), normal, offset) * side
    for i in range(1, vertices.shape[0]):
        height = plane_height(row(vertices, i), normal, offset) * side
        if height < lowest_height:
            lowest, lowest_height = i, height
    at_t = add(row(vertices, lowest), scale(t, direction))
    point = sub(at_t, scale(plane_height(at_t, normal, offset), normal))
    return LaneAnswer(t, point, contact_normal, depth if depth > 0 else nan, FACE, 0)



# --- batches ------------------------------------------------------------------------------

@kernel
def lane_row(rows, i):
    """What lane ``i`` reads of ``rows``: its own row, or the only one where a single
    row serves every lane (``polytope_of``)."""
    if len(rows) == 1:
        return rows[0]
    return rows[i]


@lane_loop
def _edge_vector_lanes(vertices, edge_ends, out):
    for i in prange(len(vertices)):
        for e in range(len(edge_ends)):
            for k in range(3):
                out[i, e, k] = vertices[i, edge_ends[e, 1], k] - vertices[i, edge_ends[e, 0], k]


@lane_loop(min_lanes=PARALLEL_MIN_POLYTOPES)
def _pair_lanes(a, b, motion_axes, directions, ignore_separating, trace, rtol, out, face_index, chosen, spans):
    a_vertices, a_normals, a_edges, a_edge_ends = a
    b_vertices, b_normals, b_edges, b_edge_ends, b_faces, b_dimension = b
    for i in prange(len(directions)):
        answer, face, axis, span_a, span_b = polytope_pair(
            lane_row(a_vertices, i), lane_row(a_normals, i), lane_row(a_edges, i), a_edge_ends,
            lane_row(b_vertices, i), lane_row(b_normals, i), lane_row(b_edges, i), b_edge_ends, b_faces, b_dimension,
            motion_axes, row(directions, i), ignore_separating, trace, rtol)
        store_answer(out, i, answer)
        face_index[i], chosen[i], spans[i, 0], spans[i, 1] = face, axis, span_a, span_b


@lane_loop(min_lanes=PARALLEL_MIN_POLYTOPES)
def _core_lanes(points, radius, directions, polyhedron, triangles, ignore_separating, out, face_index):
    vertices, normals, edges, edge_ends = polyhedron
    corners, triangle_face, triangle_edge = triangles
    for i in prange(len(radius)):
        answer, face = core_against_polyhedron(points[i], radius[i], row(directions, i), lane_row(vertices, i),
                                               lane_row(normals, i), lane_row(edges, i), edge_ends, corners,
                                               triangle_face, triangle_edge, ignore_separating)
        store_answer(out, i, answer)
        face_index[i] = face


@lane_loop(min_lanes=PARALLEL_MIN_POLYTOPES)
def _plane_lanes(vertices, directions, normals, offsets, ignore_separating, out):
    for i in prange(len(offsets)):
        store_answer(out, i, polyhedron_plane(vertices[i], row(directions, i), row(normals, i), offsets[i],
                                        ignore_separating))


def _sweep(polyhedron: ConvexPolyhedron, target, direction, ignore_separating, trace) -> SweepResult:
    batch_shape = np.broadcast_shapes(polyhedron.batch_shape, target.batch_shape, direction.shape[:-1])
    count = int(np.prod(batch_shape, dtype=int))
    a, b = polytope_of(polyhedron, batch_shape), polytope_of(target, batch_shape)
    motion = np.ascontiguousarray(flat_lanes(direction, 1, batch_shape, float))
    motion_axes = a.dimension < 3 and b.dimension < 3
    axes = axis_count(a.normals[0], a.edges[0], b.normals[0], b.edges[0], motion_axes) if count else 0
    traced = trace is not None and count == 1
    trace_arrays = (np.empty((axes if traced else 0, 3)), np.empty(axes if traced else 0, np.int64),
                    np.empty(axes if traced else 0), np.empty(axes if traced else 0))
    out, face_index = answer_arrays(count, np.float64), np.empty(count, np.int64)
    chosen, spans = np.empty(count, np.int64), np.empty((count, 2), np.int64)
    dtype = answer_dtype(polyhedron, target, direction)
    _pair_lanes(count, a[:4], b[:4] + (b.faces, b.dimension), motion_axes, motion, bool(ignore_separating),
                trace_arrays, contact_rtol(dtype), out, face_index, chosen, spans)
    if traced:
        trace.axes, trace.kinds, trace.enter, trace.exit = trace_arrays
        trace.chosen = int(chosen[0])
        trace.feature_pair = (FEATURE_SPAN[int(spans[0, 0])], FEATURE_SPAN[int(spans[0, 1])])
        first = Contact(*out)
        if first.t[0] == first.t[0]:
            trace.moving_feature = _touching_vertices(a.vertices[0] + first.t[0] * motion[0], first.normal[0])
    return rows_result(Contact(*out), face_index, batch_shape, dtype)


def _touching_vertices(vertices: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """The vertices (V, 3) lowest along ``normal``, within ``tolerance.HULL_RTOL`` of
    their scale: the moving shape's touching feature, for the trace."""
    heights = dot_rows(vertices, normal)
    slack = tolerance.HULL_RTOL * np.abs(vertices).max()
    return vertices[np.abs(heights - heights.min()) <= slack]


def _sweep_lower_dimensional(moving, target, direction, **options) -> SweepResult:
    """A sweep with a point- or segment-like polyhedron (``dimension < 2``) on either
    side, answered as the point or segment it is (feature numbers agree: its vertex
    0 and 1, its edge 0; it has no faces)."""
    from sweeplab.physics.sweep.dispatch import sweep

    def lowered(shape):
        return point_or_segment(shape) if isinstance(shape, ConvexPolyhedron) and shape.dimension < 2 else shape

    return sweep(lowered(moving), lowered(target), direction, **options)


@pair_test(trace=SatTrace)
def sweep_polyhedron_polytope(polyhedron: ConvexPolyhedron, target, direction, *, ignore_separating=False,
                              trace: SatTrace | None = None) -> SweepResult:
    """A moving convex polyhedron against a Point, Segment, Triangle, Polygon or
    ConvexPolyhedron by the separating axis test over time (module docstring).
    ``face_index``: B's face whose normal is nearest the contact normal (polyhedra,
    polygons); ``feature``: B's vertex, edge or face that touched.  A polyhedron
    whose hull is a point or a segment (either side) is answered as that shape
    (``trace`` then stays empty)."""
    if polyhedron.dimension < 2 or (isinstance(target, ConvexPolyhedron) and target.dimension < 2):
        return _sweep_lower_dimensional(polyhedron, target, direction, ignore_separating=ignore_separating)
    return _sweep(polyhedron, target, direction, ignore_separating, trace)


@pair_test(trace=SatTrace)
def sweep_polyhedron_plane(polyhedron: ConvexPolyhedron, plane: Plane, direction, *, ignore_separating=False,
                           trace=None) -> SweepResult:
    """A moving convex polyhedron against a two-sided plane (``polyhedron_plane``).
    Feature: face 0.  Degenerate inputs: motion parallel to the plane — a hit only
    when touching at t = 0; a point- or segment-like hull — that shape."""
    if polyhedron.dimension < 2:
        return _sweep_lower_dimensional(polyhedron, plane, direction, ignore_separating=ignore_separating)
    batch_shape = np.broadcast_shapes(polyhedron.batch_shape, plane.batch_shape, direction.shape[:-1])
    count = int(np.prod(batch_shape, dtype=int))
    out = answer_arrays(count, np.float64)
    _plane_lanes(count, *lane_inputs(batch_shape, float, [(polyhedron.vertices, 2), (direction, 1), (plane.normal, 1),
                                                         (plane.offset, 0)]), bool(ignore_separating), out)
    return rows_result(Contact(*out), -1, batch_shape, answer_dtype(polyhedron, plane, direction))


class FaceTriangles(NamedTuple):
    """A solid polyhedron's faces as fan triangles: ``corners (T, 3)`` vertex indices,
    ``face (T,)``, and per triangle edge the hull edge it lies on (-1 for a fan
    diagonal, inside its face)."""

    corners: np.ndarray
    face: np.ndarray
    hull_edge: np.ndarray


@functools.lru_cache(maxsize=256)
def face_triangles(faces: tuple, edges: tuple) -> FaceTriangles:
    """The fan triangles of a solid hull's face loops (``faces``; ``edges`` its vertex
    pairs), computed once per hull structure."""
    edge_ids = {tuple(sorted(edge)): number for number, edge in enumerate(edges)}
    corners, triangle_faces, hull_edges = [], [], []
    for number, loop in enumerate(faces):
        for k in range(1, len(loop) - 1):
            triangle = (loop[0], loop[k], loop[k + 1])
            corners.append(triangle)
            triangle_faces.append(number)
            hull_edges.append([edge_ids.get(tuple(sorted((triangle[i], triangle[(i + 1) % 3]))), -1)
                               for i in range(3)])
    return FaceTriangles(np.array(corners, np.int64), np.array(triangle_faces, np.int64),
                         np.array(hull_edges, np.int64))


def _rounded_against_polyhedron(moving, polyhedron: ConvexPolyhedron, direction, ignore_separating) -> SweepResult:
    """A sphere or capsule against a polyhedron (``core_against_polyhedron``); a point-
    or segment-like hull is that shape, a flat one the polygon it is."""
    if polyhedron.dimension < 2:
        return _sweep_lower_dimensional(moving, polyhedron, direction, ignore_separating=ignore_separating)
    if polyhedron.dimension == 2:
        return _against_flat_hull(moving, polyhedron, direction, ignore_separating)
    batch_shape = np.broadcast_shapes(moving.batch_shape, polyhedron.batch_shape, direction.shape[:-1])
    count = int(np.prod(batch_shape, dtype=int))
    points, radius = core_points(moving)
    body = polytope_of(polyhedron, batch_shape)
    triangles = face_triangles(polyhedron.faces, tuple(map(tuple, polyhedron.edges.tolist())))
    out, face_index = answer_arrays(count, np.float64), np.empty(count, np.int64)
    _core_lanes(count, *lane_inputs(batch_shape, float, [(points, 2), (radius, 0), (direction, 1)]), body[:4],
                tuple(triangles), bool(ignore_separating), out, face_index)
    return rows_result(Contact(*out), face_index, batch_shape, answer_dtype(moving, polyhedron, direction))


def _against_flat_hull(moving, polyhedron: ConvexPolyhedron, direction, ignore_separating) -> SweepResult:
    """A sphere or capsule against a flat hull: the polygon it is, whole (its fan
    triangles would each see a core on their shared diagonal at their boundary, and
    could leave across it into the other); the polygon's features renumbered as the
    hull's: edge i of the loop is the hull edge joining loop[i] and loop[i + 1],
    vertex i is loop[i], and the face is 0 or 1 by the side touched."""
    from sweeplab.physics.sweep.dispatch import sweep

    loop = np.array(polyhedron.faces[0])
    found = sweep(moving, Polygon(polyhedron.vertices[..., loop, :]), direction, ignore_separating=ignore_separating)
    edge_ids = {tuple(sorted(map(int, edge))): number for number, edge in enumerate(polyhedron.edges)}
    hull_edge = np.array([edge_ids[tuple(sorted((int(loop[i]), int(loop[(i + 1) % len(loop)]))))]
                          for i in range(len(loop))])
    hit = np.asarray(found.hit)
    kind = np.asarray(found.feature.kind, dtype=object)
    local = np.maximum(np.asarray(-1 if found.feature.index is None else found.feature.index), 0)
    code = np.select([kind == "vertex", kind == "edge"], [VERTEX, EDGE], FACE)
    normal = np.nan_to_num(np.asarray(found.normal if found.hit is not False else np.zeros(3), float))
    side = np.where((normal * polyhedron.normals[..., 0, :]).sum(axis=-1) >= 0, 0, 1)
    index = np.where(code == VERTEX, loop[local], np.where(code == EDGE, hull_edge[local], side))
    if np.ndim(hit) == 0:
        return replace(found, face_index=int(side), feature=Feature(FEATURE_KINDS[int(code)], int(index))) \
            if found.hit else found
    kinds = np.array(("",) + FEATURE_KINDS)[np.where(hit, code, -1) + 1]
    return replace(found, face_index=np.where(hit, side, -1), feature=Feature(kinds, np.where(hit, index, -1)))


@pair_test
def sweep_sphere_polyhedron(sphere, polyhedron: ConvexPolyhedron, direction, *, ignore_separating=False) -> SweepResult:
    """A moving sphere against a solid convex polyhedron: its center against the
    polyhedron inflated by the radius, face by face (``_rounded_against_polyhedron``).
    Features number the hull's faces, edges and vertices; ``face_index`` the face
    touched (for an edge or vertex, the face whose triangle reported it).

    Degenerate inputs: zero radius — a point against the polyhedron; a center inside
    the solid — overlap with depth = radius + its distance to the nearest face
    plane; a flat, straight or point hull — the polygon, segment or point it is."""
    return _rounded_against_polyhedron(sphere, polyhedron, direction, ignore_separating)


@pair_test
def sweep_capsule_polyhedron(capsule, polyhedron: ConvexPolyhedron, direction, *,
                             ignore_separating=False) -> SweepResult:
    """A moving capsule (or segment) against a solid convex polyhedron, as
    ``sweep_sphere_polyhedron`` with the capsule's core segment; a core that starts
    inside (or through) the solid overlaps by the segment's separating-axis depth
    plus the radius."""
    return _rounded_against_polyhedron(capsule, polyhedron, direction, ignore_separating)


@pair_test(trace=TraversalTrace)
def sweep_polyhedron_mesh(polyhedron: ConvexPolyhedron, mesh, direction, *, ignore_separating=False,
                          raw_edge_normals=False, trace=None) -> SweepResult:
    """A moving convex polyhedron against a triangle mesh: the mesh's sphere tree
    walked with the polyhedron's bounding sphere (a conservative node test), each
    leaf triangle tested exactly by the separating axis test over time; the first
    hit, internal edges and world space as for spheres (``physics.sweep.mesh``).
    Batched over polyhedra and directions.  ``trace``: a ``TraversalTrace``.  A point-
    or segment-like hull is answered as that shape."""
    if polyhedron.dimension < 2:
        return _sweep_lower_dimensional(polyhedron, mesh, direction, ignore_separating=ignore_separating,
                                        raw_edge_normals=raw_edge_normals, trace=trace)
    batch_shape = np.broadcast_shapes(polyhedron.batch_shape, direction.shape[:-1])
    body = polytope_of(polyhedron, batch_shape)
    count = int(np.prod(batch_shape, dtype=int))

    def every_lane(rows):  # the walks read row i in lane i
        return lane_input(np.broadcast_to(rows, (count,) + rows.shape[1:]), float)

    return polytope_walks(every_lane(body.vertices), every_lane(body.normals), every_lane(body.edges), body.edge_ends,
                          body.dimension == 3, flat_lanes(direction, 1, batch_shape, float), batch_shape,
                          answer_dtype(polyhedron, direction, mesh), mesh, ignore_separating=ignore_separating,
                          raw_edge_normals=raw_edge_normals, trace=trace)
