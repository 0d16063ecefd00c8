"""Sweeps of a moving sphere or capsule against a ``TriangleMesh``, through its sphere tree.

The moving shape is reduced to its *core* (a sphere's center, a capsule's segment)
and radius, carried into the mesh's body space (no transform for the identity
pose), and walked down the tree (``physics.traversal``): the node test is the
same sweep against the node's sphere (``ball_entry_times`` for a sphere,
``segment_ball_entry_times`` for a capsule), the leaf test the exact triangle sweep
of ``physics.sweep.sphere`` / ``physics.sweep.capsule``.  Nodes entered later
than the best hit so far are culled.

First hit: the smallest t; among equal t, the deepest initial overlap, then a
face before an edge before a vertex, then the lower face index.  ``face_index``
is the mesh triangle hit; ``feature`` is local to it (edge i of that face runs
from its vertex i to i + 1).  Normals follow the internal-edge rule of
``physics.mesh_edges`` unless ``raw_edge_normals=True``.  ``trace`` (a
``physics.traversal.TraversalTrace``) records the walk.

Degenerate inputs: zero direction — an overlap test against every triangle (t = 0
with the deepest overlap, or a miss); zero radius — a ray (or moving segment)
cast; zero-area faces — their edges only, never a face hit; a zero-length capsule —
a sphere; initial overlap — t = 0, the deepest overlapping triangle's depth and
separating normal (a mesh is a surface, so this separates from that triangle).
"""

from __future__ import annotations

import math
import threading
from typing import NamedTuple

import numpy as np
from numba import prange

from sweeplab.physics.kernels import kernel
from sweeplab.physics import tolerance
from sweeplab.physics.closest import clip01
from sweeplab.physics.core import EDGE, VERTEX, inside_face, newell_vector, rounding_of
from sweeplab.physics.geometry import add, dot, largest_magnitude, like, maximum, row, scale, sqrt, sub
from sweeplab.physics.lanes import lane_loop
from sweeplab.physics.mesh_edges import MeshEdges, mesh_edges
from sweeplab.physics.result import SweepResult, answer_dtype
from sweeplab.physics.shapes import Capsule, Segment, Sphere, TriangleMesh, segment_vertices
from sweeplab.physics.sweep.ball import ball_core
from sweeplab.physics.sweep.capsule import capsule_core, capsule_polygon
from sweeplab.physics.sweep.lane_answer import Contact, LaneAnswer, answer_arrays, miss, store_answer
from sweeplab.physics.sweep.query import pair_test, rows_result
from sweeplab.physics.sweep.sat import contact_features, contact_rtol, sat_sweep
from sweeplab.physics.sweep.rounded import ball_entry_time, segment_ball_entry_time
from sweeplab.physics.traversal import EVERY_HIT, FIRST_HIT, LeafContacts, TraversalTrace, packed_tree, walk_query


PARALLEL_MIN_WALKS = 8
"""Queries from which the first-hit walks of a batch run in parallel (one walk costs
10-300 us, far more than starting the thread pool)."""


class MovingCore(NamedTuple):
    """A batch of moving shapes as cores in the mesh's body space: ``points (Q, K, 3)``
    (K = 1 for a sphere's center, 2 for a capsule's segment), ``radius (Q,)``,
    ``direction (Q, 3)``; ``batch_shape`` is the query's, ``dtype`` its answer's
    (``physics.result.answer_dtype``: a posed mesh's body space is float64)."""

    points: np.ndarray
    radius: np.ndarray
    direction: np.ndarray
    batch_shape: tuple
    dtype: np.dtype


def edges_of(mesh: TriangleMesh) -> MeshEdges:
    """The mesh's edge data (``physics.mesh_edges``), computed once per mesh."""
    return mesh.cached("edges", lambda: mesh_edges(mesh.vertices, mesh.faces))


def core_points(moving: Sphere | Capsule | Segment) -> tuple[np.ndarray, np.ndarray]:
    """(points (..., K, 3), radius): a sphere's center (K = 1) or a capsule's or
    segment's two ends (K = 2), and the radius around them."""
    if isinstance(moving, Sphere):
        return moving.center[..., None, :], moving.radius
    start, end, radius = capsule_core(moving)
    return segment_vertices(start, end), radius


def moving_core(moving: Sphere | Capsule | Segment, direction: np.ndarray, mesh: TriangleMesh) -> MovingCore:
    """The core of ``moving`` and ``direction`` in ``mesh``'s body space, flattened."""
    points, radius = core_points(moving)
    batch_shape = np.broadcast_shapes(points.shape[:-2], np.shape(radius), direction.shape[:-1])
    points = flattened_to(points, batch_shape, points.shape[-2:])
    radius, direction = flattened_to(radius, batch_shape, ()), flattened_to(direction, batch_shape, (3,))
    dtype = answer_dtype(moving, direction, mesh)
    if not mesh.has_identity_pose:
        points, direction = mesh.to_body(points), mesh.vectors_to_body(direction)
    return MovingCore(points, radius.astype(points.dtype), direction, batch_shape, dtype)


def flattened_to(array: np.ndarray, batch_shape: tuple, trailing: tuple) -> np.ndarray:
    """``array`` broadcast to ``batch_shape + trailing`` and flattened to (-1, *trailing):
    a view, broadcast only where its shape differs (``broadcast_to`` costs a single
    query microseconds)."""
    if array.shape != batch_shape + trailing:
        array = np.broadcast_to(array, batch_shape + trailing)
    return array.reshape((-1,) + trailing)


def ranked_hits(query: np.ndarray, face: np.ndarray, contact: Contact) -> np.ndarray:
    """Indices of the hits among flat contacts, ordered by query, then the first-hit
    rule: smallest t, deepest overlap, face before edge before vertex, lower face."""
    hits = np.flatnonzero(~np.isnan(contact.t))
    keys = (face[hits], -contact.feature_code[hits], -np.nan_to_num(contact.depth[hits]), contact.t[hits],
            query[hits])
    return hits[np.lexsort(keys)]


def _ranked_hits(found: LeafContacts) -> np.ndarray:
    return ranked_hits(found.query, found.face, found.contact)


def contact_to_world(contact: Contact, mesh: TriangleMesh) -> Contact:
    """A body-space ``contact`` (point, normal) in world space."""
    if mesh.has_identity_pose:
        return contact
    return contact._replace(point=mesh.to_world(contact.point), normal=mesh.vectors_to_world(contact.normal))


ALL_ROWS = slice(None)
"""``_result``'s rows of a first-hit walk: every query's, in order (views, no copy)."""


def _result(found: LeafContacts, chosen, mesh: TriangleMesh, *, shape: tuple, dtype: np.dtype) -> SweepResult:
    """The rows ``chosen`` (indices, or ``ALL_ROWS``) of ``found`` as the public answer
    of a query of batch ``shape``, in world space and ``dtype`` (a walk that tested no
    leaf, and the "no hit" row, hold float64 NaN); a row's face is -1 where it holds no
    hit (``query.rows_result``)."""
    contact = contact_to_world(Contact(*[np.asarray(field)[chosen] for field in found.contact]), mesh)
    return rows_result(contact, found.face[chosen], shape, dtype)


class Walks(NamedTuple):
    """What the compiled walks of a batch of queries found: per query its first hit
    (``first``, a ``Contact`` of shape (Q,), and ``first_face``), and with
    ``EVERY_HIT`` every hit (``found``, ``found_face``, ``found_query``), in body space."""

    first: Contact
    first_face: np.ndarray
    found: Contact
    found_face: np.ndarray
    found_query: np.ndarray


def rounded_walks(core: MovingCore, mesh: TriangleMesh, *, ignore_separating: bool, raw_edge_normals: bool,
                  mode: int = FIRST_HIT, stop_depth: float = math.inf, trace: TraversalTrace | None = None) -> Walks:
    """The compiled walk (``physics.traversal.walk_query``) of every query of ``core`` (a
    sphere's center or a capsule's segment) through ``mesh``'s sphere tree, in the
    common dtype of the core and the mesh.  A single first-hit query (no batch
    dimensions) without a trace walks on arrays kept with the mesh (``one_walk``): the
    same kernel, no array made."""
    dtype = np.result_type(core.points, core.radius, core.direction, mesh.vertices)
    kind = BALL if core.points.shape[1] == 1 else SEGMENT
    if core.batch_shape == () and mode == FIRST_HIT and trace is None:
        walk = one_walk(mesh, kind, dtype)
        walk.points[...], walk.radius[...], walk.direction[...] = core.points, core.radius, core.direction
        walk.center[...] = core.points[:, 0]
        return _run_walks(kind, walk.points, walk.radius, walk.direction, walk.center, walk.radius, walk.polytope,
                          mesh, dtype, ignore_separating, raw_edge_normals, mode, stop_depth, None, walk.buffers)
    points = np.ascontiguousarray(core.points, dtype)
    radius, direction = np.asarray(core.radius, dtype), np.ascontiguousarray(core.direction, dtype)
    return _run_walks(kind, points, radius, direction, np.ascontiguousarray(points[:, 0]), radius,
                      no_polytope(len(radius), dtype), mesh, dtype, ignore_separating, raw_edge_normals, mode,
                      stop_depth, trace)


def no_polytope(count: int, dtype) -> tuple:
    """The polytope arguments of a walk of ``count`` rounded cores: no faces, no edges."""
    empty = np.zeros((count, 0, 3), dtype)
    return empty, empty, np.zeros((0, 2), np.int64), False, tolerance.HULL_RTOL


class OneWalk(NamedTuple):
    """The arrays of a walk of one rounded core, kept with a mesh per kind of core, dtype
    and thread (``one_walk``): inputs ``points`` (1, K, 3), ``radius`` (1,),
    ``direction`` (1, 3), ``center`` (1, 3) (its first point) and ``buffers`` for one
    first hit without a trace.  A single sweep writes its core into the inputs and
    reads its answer from ``buffers.out`` (copied out before it returns)."""

    points: np.ndarray
    radius: np.ndarray
    direction: np.ndarray
    center: np.ndarray
    polytope: tuple
    buffers: WalkBuffers


class PerThread(threading.local):
    """``make()``, made once on each thread that asks for ``value``."""

    def __init__(self, make):
        self.value = make()


def one_walk(mesh: TriangleMesh, kind: int, dtype: np.dtype) -> OneWalk:
    """This thread's ``OneWalk`` for cores of ``kind`` in ``dtype`` on ``mesh`` (another
    thread's sweep never writes into it)."""
    def make() -> OneWalk:
        points = np.empty((1, 1 if kind == BALL else 2, 3), dtype)
        return OneWalk(points, np.empty(1, dtype), np.empty((1, 3), dtype), np.empty((1, 3), dtype),
                       no_polytope(1, dtype), walk_buffers(1, 0, 0, dtype))
    return mesh.cached(("one walk", kind, dtype.str), lambda: PerThread(make)).value


def polytope_walks(vertices, normals, edges, edge_ends, solid: bool, direction, batch_shape: tuple, answer_dtype_,
                   mesh, *, ignore_separating: bool, raw_edge_normals: bool,
                   trace: TraversalTrace | None) -> SweepResult:
    """The first hits of convex polytopes (``vertices`` (Q, V, 3), unit ``normals``,
    edge directions ``edges``, ``edge_ends`` (E, 2), ``solid`` or flat, along
    ``direction`` (Q, 3), all
    float64, world space) against ``mesh``: the tree walked with each polytope's
    bounding sphere (about the middle of its box), each leaf by the separating axis
    test over time; the first hit, internal edges and world space as for spheres."""
    if not mesh.has_identity_pose:
        vertices, direction = mesh.to_body(vertices), mesh.vectors_to_body(direction)
        normals, edges = mesh.vectors_to_body(normals), mesh.vectors_to_body(edges)
    count = len(direction)
    center = 0.5 * (vertices.min(axis=1) + vertices.max(axis=1))
    bound = np.linalg.norm(vertices - center[:, None], axis=-1).max(axis=1)
    walks = _run_walks(POLYTOPE, np.ascontiguousarray(vertices, float), np.zeros(count),
                       np.ascontiguousarray(direction, float), np.ascontiguousarray(center, float), bound,
                       (np.ascontiguousarray(normals, float), np.ascontiguousarray(edges, float), edge_ends,
                        bool(solid), contact_rtol(answer_dtype_)), mesh, np.dtype(float), ignore_separating,
                       raw_edge_normals, FIRST_HIT, math.inf, trace)
    return _result(LeafContacts(np.arange(count), walks.first_face, walks.first), ALL_ROWS, mesh, shape=batch_shape,
                   dtype=answer_dtype_)


def walk_arrays(mesh: TriangleMesh, dtype) -> tuple[tuple, tuple]:
    """What a walk reads of the mesh, in ``dtype``: (tree: ``packed_tree``'s spheres,
    links, corners and faces, extent; mesh: vertices, faces, neighbours, internal edges
    and vertices, face normals, largest |vertex|).  Computed once per mesh and dtype
    (O(size): on a 1.3M-triangle mesh recomputing it took ~2 ms of every query)."""
    tree, edges = mesh.tree, edges_of(mesh)
    tree_arrays = (*packed_tree(tree, mesh.vertices, mesh.faces, dtype), dtype.type(tree.extent))
    vertices = np.asarray(mesh.vertices, dtype)
    mesh_arrays = (vertices, mesh.faces, edges.neighbor, edges.internal, edges.internal_vertex,
                   np.asarray(edges.face_normal, dtype), dtype.type(np.abs(vertices).max()))
    return tree_arrays, mesh_arrays


class WalkBuffers(NamedTuple):
    """What a batch walk writes: per query its first hit (``out``: t, point, normal,
    depth, code, index; ``out_face``); every hit (``found``: those and the face;
    ``found_query``) and every traced node test (``trace``: node, entry, status;
    ``trace_query``), each with room for its capacity and counted, also beyond it, in
    ``found_count`` and ``trace_count``."""

    out: tuple
    out_face: np.ndarray
    found: tuple
    found_query: np.ndarray
    found_count: np.ndarray
    trace: tuple
    trace_query: np.ndarray
    trace_count: np.ndarray


def walk_buffers(count: int, capacity: int, trace_capacity: int, dtype) -> WalkBuffers:
    """``WalkBuffers`` for ``count`` queries, room for ``capacity`` hits and
    ``trace_capacity`` traced node tests."""
    return WalkBuffers(answer_arrays(count, dtype), np.empty(count, np.int64),
                       answer_arrays(capacity, dtype) + (np.empty(capacity, np.int64),), np.empty(capacity, np.int64),
                       np.zeros(1, np.int64),
                       (np.empty(trace_capacity, np.int64), np.empty(trace_capacity, dtype),
                        np.empty(trace_capacity, np.int64)), np.empty(trace_capacity, np.int64), np.zeros(1, np.int64))


def _run_walks(kind, points, radius, direction, centers, bound_radius, polytope, mesh, dtype, ignore_separating,
               raw_edge_normals, mode, stop_depth, trace, buffers: WalkBuffers | None = None) -> Walks:
    """``WALKS[kind]`` over a batch of cores of that kind (``points``, ``radius``,
    ``direction``, the ``centers`` and ``bound_radius`` of the spheres their node tests
    sweep), in ``dtype``, on ``buffers`` (one first hit each) or on buffers with room
    for every hit and every traced node test (walking again with more room if the
    first guess was short).  First-hit walks without a trace run in ``walk_order``;
    the others (sharing counters) in the queries' order."""
    tree, count = mesh.tree, len(radius)
    tree_arrays, mesh_arrays = mesh.cached(f"walk arrays {dtype.str}", lambda: walk_arrays(mesh, dtype))
    capacity = 0 if mode == FIRST_HIT else 16 * count
    trace_capacity = tree.node_count * count if trace is not None else 0
    independent = mode == FIRST_HIT and trace is None
    order = walk_order(centers) if independent and count > 1 else np.arange(count)
    while True:
        buffers = buffers or walk_buffers(count, capacity, trace_capacity, dtype)
        arguments = (order, tree_arrays, points, radius, direction, centers, np.asarray(bound_radius, dtype),
                     polytope, bool(ignore_separating), bool(raw_edge_normals), mesh_arrays, mode,
                     dtype.type(stop_depth), *buffers)
        if independent:
            WALKS[kind](count, *arguments)
        else:  # shared counters of every hit and of the trace
            WALKS[kind].run_serially(count, *arguments)
        if buffers.found_count[0] <= capacity:
            break
        capacity = int(buffers.found_count[0])  # too many hits for the first guess: walk again with room for all
        buffers = None
    if trace is not None:
        nodes, entries, statuses = (array[:buffers.trace_count[0]] for array in buffers.trace)
        trace.record_walks(buffers.trace_query[:buffers.trace_count[0]], nodes, entries, statuses)
    kept = int(buffers.found_count[0])
    found = buffers.found
    return Walks(Contact(*buffers.out), buffers.out_face, Contact(*[array[:kept] for array in found[:6]]),
                 found[6][:kept], buffers.found_query[:kept])


MORTON_BITS = 21
"""Bits of each coordinate in a walk's Morton code (three make 63: one uint64)."""


def walk_order(centers: np.ndarray) -> np.ndarray:
    """The order in which a batch's walks run (independent lanes: each writes only its
    own query's row, so the answers do not depend on it): by the Morton code of their
    ``centers`` (Q, 3) on a grid of 2^21 cells a side over the batch's bounding box,
    x in the lowest bit (a Z-order curve).  Walks one after another on a thread start
    near each other and read the same nodes and triangles."""
    low, high = centers.min(axis=0), centers.max(axis=0)
    with np.errstate(all="ignore"):  # a span beyond float's range: those cells are 0
        unit = np.nan_to_num((centers - low) / np.where(high > low, high - low, 1.0), posinf=0.0)
    cells = (np.clip(unit, 0.0, 1.0) * (2**MORTON_BITS - 1)).astype(np.uint64)
    code = spread_bits(cells[:, 0]) | (spread_bits(cells[:, 1]) << np.uint64(1)) \
        | (spread_bits(cells[:, 2]) << np.uint64(2))
    return np.argsort(code)


def spread_bits(cells: np.ndarray) -> np.ndarray:
    """The low 21 bits of each of ``cells`` (uint64) spread to every third bit (bit k to
    bit 3k): shifts and masks, five rounds (libmorton's 64-bit "part 1 by 2")."""
    spread = cells & np.uint64(0x1FFFFF)
    for shift, mask in ((32, 0x1F00000000FFFF), (16, 0x1F0000FF0000FF), (8, 0x100F00F00F00F00F),
                        (4, 0x10C30C30C30C30C3), (2, 0x1249249249249249)):
        spread = (spread | (spread << np.uint64(shift))) & np.uint64(mask)
    return spread


def _first_hits(moving, mesh, direction, ignore_separating, raw_edge_normals, trace) -> SweepResult:
    core = moving_core(moving, direction, mesh)
    walks = rounded_walks(core, mesh, ignore_separating=ignore_separating, raw_edge_normals=raw_edge_normals,
                          trace=trace)
    return _result(LeafContacts(np.arange(len(core.radius)), walks.first_face, walks.first), ALL_ROWS, mesh,
                   shape=core.batch_shape, dtype=core.dtype)


def _all_hits(moving, mesh, direction, ignore_separating, raw_edge_normals, trace) -> SweepResult:
    core = moving_core(moving, direction, mesh)
    if core.batch_shape != ():
        raise ValueError("all-hits sweeps take one moving shape and one direction, not a batch")
    walks = rounded_walks(core, mesh, ignore_separating=ignore_separating, raw_edge_normals=raw_edge_normals,
                          mode=EVERY_HIT, trace=trace)
    found = LeafContacts(walks.found_query, walks.found_face, walks.found)
    ranked = _ranked_hits(found)
    return _result(found, ranked, mesh, shape=(len(ranked),), dtype=core.dtype)


@pair_test(trace=TraversalTrace)
def sweep_sphere_mesh(sphere: Sphere, mesh: TriangleMesh, direction, *, ignore_separating=False,
                      raw_edge_normals=False, trace: TraversalTrace | None = None) -> SweepResult:
    """First contact of a moving sphere with a triangle mesh (batched over spheres and
    directions; the mesh is one).  See the module docstring for the rules."""
    return _first_hits(sphere, mesh, direction, ignore_separating, raw_edge_normals, trace)


@pair_test(trace=TraversalTrace)
def sweep_capsule_mesh(capsule: Capsule, mesh: TriangleMesh, direction, *, ignore_separating=False,
                       raw_edge_normals=False, trace: TraversalTrace | None = None) -> SweepResult:
    """First contact of a moving capsule (or segment) with a triangle mesh, batched
    over capsules and directions.  See the module docstring for the rules."""
    return _first_hits(capsule, mesh, direction, ignore_separating, raw_edge_normals, trace)


@pair_test(trace=TraversalTrace)
def sweep_sphere_mesh_all(sphere: Sphere, mesh: TriangleMesh, direction, *, ignore_separating=False,
                          raw_edge_normals=False, trace: TraversalTrace | None = None) -> SweepResult:
    """Every triangle a single moving sphere touches along its sweep, one row per
    triangle (its first contact with it), sorted by t (then the first-hit rule)."""
    return _all_hits(sphere, mesh, direction, ignore_separating, raw_edge_normals, trace)


@pair_test(trace=TraversalTrace)
def sweep_capsule_mesh_all(capsule: Capsule, mesh: TriangleMesh, direction, *, ignore_separating=False,
                           raw_edge_normals=False, trace: TraversalTrace | None = None) -> SweepResult:
    """Every triangle a single moving capsule touches along its sweep, sorted by t."""
    return _all_hits(capsule, mesh, direction, ignore_separating, raw_edge_normals, trace)


# --- compiled: one query's walk with a moving core: a sphere's center, a capsule's segment, a polytope ---

BALL, SEGMENT, POLYTOPE = range(3)
"""Kinds of moving core a mesh query has: a point inflated by a radius (a sphere),
a segment inflated by a radius (a capsule), a convex polytope (radius 0)."""


class CoreQuery(NamedTuple):
    """A moving core swept through a mesh, for ``physics.traversal.walk_query``; the
    mesh's arrays and scratch space ride along (so the kernels below that take the
    whole query are compiled inline: passing it to a call costs more than their work)."""

    kind: int                    # BALL, SEGMENT or POLYTOPE
    points: np.ndarray           # (K, 3): the center, the segment's ends, the polytope's vertices
    radius: float
    direction: tuple
    center: tuple                # of the sphere the node tests sweep (a polytope's bounding sphere)
    reach: float                 # that sphere's radius plus the culling margin (``culling_reach``)
    normals: np.ndarray          # a polytope's unit face normals (F, 3)
    edges: np.ndarray            # a polytope's edge directions (E, 3)
    edge_ends: np.ndarray        # a polytope's edges as vertex pairs (E', 2)
    solid: bool                  # a polytope of dimension 3
    contact_rtol: float          # a polytope's touching slack (``sat.contact_rtol``)
    ignore_separating: bool
    raw_edge_normals: bool
    vertices: np.ndarray
    faces: np.ndarray
    neighbor: np.ndarray         # ``physics.mesh_edges.MeshEdges``
    internal: np.ndarray
    internal_vertex: np.ndarray
    face_normal: np.ndarray
    largest: float               # largest |coordinate| of the mesh
    triangle_normal: np.ndarray  # (1, 3) scratch: a leaf's unit normal (a polytope's SAT)
    triangle_edges: np.ndarray   # (3, 3) scratch: a leaf's edges (a polytope's SAT)


TRIANGLE_ENDS = np.array([[0, 1], [1, 2], [2, 0]])
"""The edges of a triangle as vertex pairs (edge i from vertex i to i + 1)."""


@kernel(inline=True)
def culling_reach(points, direction, radius, extent):
    """The radius a node sphere is inflated by when the walk decides whether a query
    can reach it: the query's bounding ``radius`` plus the ``tolerance.BVH_CULL_RTOL``
    margin of the coordinates' scale, the largest |coordinate| of its ``points`` (K, 3)
    and ``direction`` plus the tree's ``extent``, in the lane's dtype:

        reach = radius + BVH_CULL_RTOL (max(|points|, |direction|) + extent)
    """
    largest = largest_magnitude(row(points, 0))
    for k in range(1, points.shape[0]):
        largest = maximum(largest, largest_magnitude(row(points, k)))
    coordinate_scale = maximum(largest, largest_magnitude(direction)) + extent
    return radius + like(radius, tolerance.BVH_CULL_RTOL) * coordinate_scale


@kernel(inline=True)
def sphere_node_entry(query, center, radius):
    """When the query's bounding sphere (a sphere's own, a polytope's), inflated by the
    culling reach, first touches a node's sphere (``center``, ``radius``)."""
    return ball_entry_time(sub(query.center, center), query.direction, query.reach + radius)


@kernel(inline=True)
def segment_node_entry(query, center, radius):
    """When the query's segment, inflated by the culling reach, first touches a node's
    sphere (``center``, ``radius``): the segment's own swept shape."""
    start = row(query.points, 0)
    return segment_ball_entry_time(sub(start, center), sub(row(query.points, 1), start), query.direction,
                                   query.reach + radius)


@kernel(inline=True)
def ball_leaf(query, face, triangle, bound):
    """The exact sweep of the query's ball against triangle ``face`` (corners
    ``triangle``: ``ball_core``), with the internal-edge rule (``on_the_surface``)."""
    answer = ball_core(row(query.points, 0), query.radius, query.direction, triangle, like(query.radius, 0.0),
                       query.ignore_separating)
    return on_the_surface(query, face, bound, answer)


@kernel(inline=True)
def segment_leaf(query, face, triangle, bound):
    """The exact sweep of the query's capsule against triangle ``face`` (corners
    ``triangle``: ``capsule_polygon``), with the internal-edge rule (``on_the_surface``)."""
    points = query.points
    answer = capsule_polygon(row(points, 0), row(points, 1), query.radius, query.direction, triangle,
                             query.ignore_separating)
    return on_the_surface(query, face, bound, answer)


@kernel(inline=True)
def polytope_leaf(query, face, triangle, bound):
    """The exact sweep of the query's polytope against triangle ``face`` (corners
    ``triangle``: ``polytope_triangle``), with the internal-edge rule (``on_the_surface``)."""
    return on_the_surface(query, face, bound, polytope_triangle(query, triangle))


@kernel(inline=True)
def on_the_surface(query, face, bound, answer):
    """A leaf's ``answer`` with the internal-edge rule (``flattened``) unless the query
    asks for raw edge normals.  A hit later than ``bound`` skips the rule (the walk
    discards it; the rule keeps t and, without ``ignore_separating``, never drops a
    hit): on a fine mesh most leaves a walk tests are such hits."""
    if query.raw_edge_normals or (answer.t > bound and not query.ignore_separating):
        return answer
    return flattened(query, face, answer)


@kernel(inline=True)
def polytope_triangle(query, triangle):
    """A polytope against a leaf's ``triangle`` (3, 3): the separating axis test over
    time and where the features touch (``physics.sweep.sat``)."""
    normal, edges = query.triangle_normal, query.triangle_edges
    newell = newell_vector(triangle)
    length = sqrt(dot(newell, newell))
    for k in range(3):
        normal[0, k] = newell[k] / length if length > 0 else like(length, 0.0)
        for axis in range(3):
            edges[k, axis] = triangle[(k + 1) % 3, axis] - triangle[k, axis]
    no_trace = (np.empty((0, 3)), np.empty(0, np.int64), np.empty(0), np.empty(0))
    t, contact_normal, depth, _ = sat_sweep(query.points, query.normals, query.edges, triangle, normal, edges,
                                            not query.solid, query.direction, query.ignore_separating, no_trace)
    if t != t:  # a miss: no features to find
        return miss(t)
    point, code, index, _, _, _ = contact_features(query.points, query.edge_ends, triangle, TRIANGLE_ENDS, normal, 1, 2,
                                                   query.direction, t, contact_normal, query.contact_rtol)
    return LaneAnswer(t, point, contact_normal, depth, code, index)


@kernel(inline=True)
def flattened(query, face, answer):
    """The internal-edge rule (``physics.mesh_edges``) on one contact with triangle
    ``face``: on an internal edge or vertex, where the core is over the flat surface
    there (``over_the_flat_surface``), the face's normal on the core's side; an
    initial overlap's depth measured along it (radius minus the core's lowest
    height), its point under that lowest core point.  With ``ignore_separating``, a
    flattened contact the motion does not deepen is dropped (the shape slides)."""
    t, point, normal, depth, code, index = answer
    points, radius, direction, faces, face_normals = query.points, query.radius, query.direction, query.faces, \
        query.face_normal
    if t != t or index < 0:
        return answer
    if not ((code == EDGE and query.internal[face, index]) or (code == VERTEX and query.internal_vertex[face, index])):
        return answer
    if not over_the_flat_surface(query, face, code, index, point, t):
        return answer
    face_normal = (face_normals[face, 0], face_normals[face, 1], face_normals[face, 2])
    side = -like(t, 1.0) if dot(normal, face_normal) < 0 else like(t, 1.0)
    normal = scale(side, face_normal)
    if depth == depth:
        anchor = row(query.vertices, faces[face, 0])
        lowest, lowest_height = row(points, 0), like(t, math.inf)
        for k in range(points.shape[0]):
            at_t = add(row(points, k), scale(t, direction))
            height = dot(sub(at_t, anchor), normal)
            if height < lowest_height or k == 0:
                lowest, lowest_height = at_t, height
        depth = radius - lowest_height
        point = sub(lowest, scale(lowest_height, normal))
    if query.ignore_separating and dot(direction, normal) >= 0:
        return miss(t)
    return LaneAnswer(t, point, normal, depth, code, index)


@kernel(inline=True)
def over_the_flat_surface(query, face, code, index, point, t):
    """Whether the moving core's point nearest a contact (at its time) lies over the
    flat surface there: projects into the face or a neighbour across one of the
    face's edges at the feature (up to the rounding of the coordinates).  Only there
    is the edge a seam of one flat surface; a core beside the surface touches the edge
    from the side, and its raw normal is the true one."""
    points, direction, vertices, faces = query.points, query.direction, query.vertices, query.faces
    neighbor, face_normals, largest = query.neighbor, query.face_normal, query.largest
    # 1. the core's point nearest the contact at time t: a ball's center; a polytope's
    #    contact point; on a capsule's core a + s (b - a), s = clip01((p - a) . (b - a) /
    #    |b - a|^2) (the closest point of a segment, Ericson, Real-Time Collision
    #    Detection (2005), 5.1.2)
    start = add(row(points, 0), scale(t, direction))
    nearest = start  # a ball's center
    if query.kind == POLYTOPE:  # it touches the mesh at the contact point
        nearest = point
    elif query.kind == SEGMENT:  # the capsule core's point nearest the contact
        along = sub(add(row(points, 1), scale(t, direction)), start)
        length_squared = dot(along, along)
        s = dot(sub(point, start), along) / length_squared if length_squared > 0 else like(t, 0.0)
        nearest = add(start, scale(clip01(s), along))
    # 2. the margin: the rounding of the mesh's largest |coordinate| plus the point's,
    #    in the lane's dtype
    margin = rounding_of(largest + largest_magnitude(nearest))
    # 3. over the face, the neighbour across edge ``index``, or (a vertex: edges index
    #    and index - 1 meet there) the neighbour across edge index - 1 = index + 2 mod 3:
    #    inside the triangle up to the margin (``inside_face``; a zero-area face, with
    #    its zero normal, has no surface to be over)
    corners = np.empty((3, 3), vertices.dtype)
    for candidate in range(3):
        other = face if candidate == 0 else neighbor[face, index] if candidate == 1 else (
            neighbor[face, (index + 2) % 3] if code == VERTEX else -1)
        if other < 0:
            continue
        for j in range(3):
            for k in range(3):
                corners[j, k] = vertices[faces[other, j], k]
        normal = (face_normals[other, 0], face_normals[other, 1], face_normals[other, 2])
        if inside_face(corners, normal, sub(nearest, row(corners, 0)), like(margin, 0.0), margin):
            return True
    return False


@kernel(inline=True)
def walk_lane(i, node_entry, leaf, tree, kind, points, radius, directions, centers, bound_radius, polytope,
              ignore_separating, raw_edge_normals, mesh, mode, stop_depth, out, out_face, found, found_query,
              found_count, trace, trace_query, trace_count):
    """Query ``i``'s walk (``points[i]`` (K, 3), ``radius[i]``, ``directions[i]``, and
    ``centers[i]``, ``bound_radius[i]``: the sphere its node tests sweep; ``polytope``
    (normals (Q, F, 3), edges (Q, E, 3), edge ends, solid, contact slack) for
    ``POLYTOPE`` cores) through ``tree`` (a ``PackedTree``'s arrays and the tree's
    extent) over ``mesh`` (vertices, faces, neighbor, internal, internal vertex, face
    normals, largest |vertex|), with the node and leaf tests of its ``kind``: its
    first hit to ``out[i]`` and ``out_face[i]``; with ``EVERY_HIT``, every hit to
    ``found`` and ``i`` to ``found_query``.  Lanes are independent (each has its own
    scratch) except for ``found`` and the trace, shared counters: only first-hit walks
    without a trace run in parallel."""
    spheres, links, corners, leaf_faces, extent = tree
    normals, edges, edge_ends, solid, contact_rtol = polytope
    vertices = mesh[0]
    no_hit = miss(vertices[0, 0])
    triangle_normal, triangle_edges = np.empty((1, 3)), np.empty((3, 3))
    direction = row(directions, i)
    reach = culling_reach(points[i], direction, bound_radius[i], extent)
    query = CoreQuery(kind, points[i], radius[i], direction, row(centers, i), reach, normals[i], edges[i],
                      edge_ends, solid, contact_rtol, ignore_separating, raw_edge_normals, mesh[0], mesh[1], mesh[2],
                      mesh[3], mesh[4], mesh[5], mesh[6], triangle_normal, triangle_edges)
    before, traced = found_count[0], trace_count[0]
    best, face = walk_query((spheres, links, corners, leaf_faces), query, node_entry, leaf, mode, stop_depth, found,
                            found_count, trace, trace_count, no_hit)
    store_answer(out, i, best)
    out_face[i] = face
    for position in range(before, min(found_count[0], len(found_query))):
        found_query[position] = i
    for position in range(traced, min(trace_count[0], len(trace_query))):
        trace_query[position] = i


# One loop per kind of core, each compiled with only its own tests (a sphere's walks hold
# no separating axis test); lane k walks query ``order[k]`` (``walk_order``), the other
# arguments are ``walk_lane``'s after ``kind``.

@lane_loop(min_lanes=PARALLEL_MIN_WALKS)
def _ball_walks(order, tree, points, radius, directions, centers, bound_radius, polytope, ignore_separating,
                raw_edge_normals, mesh, mode, stop_depth, out, out_face, found, found_query, found_count, trace,
                trace_query, trace_count):
    for lane in prange(len(order)):
        walk_lane(order[lane], sphere_node_entry, ball_leaf, tree, BALL, points, radius, directions, centers,
                  bound_radius, polytope, ignore_separating, raw_edge_normals, mesh, mode, stop_depth, out, out_face,
                  found, found_query, found_count, trace, trace_query, trace_count)


@lane_loop(min_lanes=PARALLEL_MIN_WALKS)
def _segment_walks(order, tree, points, radius, directions, centers, bound_radius, polytope, ignore_separating,
                   raw_edge_normals, mesh, mode, stop_depth, out, out_face, found, found_query, found_count, trace,
                   trace_query, trace_count):
    for lane in prange(len(order)):
        walk_lane(order[lane], segment_node_entry, segment_leaf, tree, SEGMENT, points, radius, directions, centers,
                  bound_radius, polytope, ignore_separating, raw_edge_normals, mesh, mode, stop_depth, out, out_face,
                  found, found_query, found_count, trace, trace_query, trace_count)


@lane_loop(min_lanes=PARALLEL_MIN_WALKS)
def _polytope_walks(order, tree, points, radius, directions, centers, bound_radius, polytope, ignore_separating,
                    raw_edge_normals, mesh, mode, stop_depth, out, out_face, found, found_query, found_count, trace,
                    trace_query, trace_count):
    for lane in prange(len(order)):
        walk_lane(order[lane], sphere_node_entry, polytope_leaf, tree, POLYTOPE, points, radius, directions, centers,
                  bound_radius, polytope, ignore_separating, raw_edge_normals, mesh, mode, stop_depth, out, out_face,
                  found, found_query, found_count, trace, trace_query, trace_count)


WALKS = {BALL: _ball_walks, SEGMENT: _segment_walks, POLYTOPE: _polytope_walks}
"""The batch walk of each kind of core."""


