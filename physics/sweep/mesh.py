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
from typing import NamedTuple

import numpy as np
from numba import njit

from physics import tolerance
from physics.closest import clip01
from physics.core import EDGE, VERTEX
from physics.geometry import COMPILE, add, cross, dot, largest_magnitude, like, scale, sub
from physics.mesh_edges import MeshEdges, internal_feature, mesh_edges
from physics.result import SweepResult, answer_dtype
from physics.shapes import Capsule, Segment, Sphere, TriangleMesh, segment_vertices
from physics.sweep.ball import Contact, _answers, _store, ball_core, sweep_ball_core
from physics.sweep.capsule import capsule_core, capsule_polygon, sweep_core_polygon
from physics.sweep.rounded import ball_entry_time, ball_entry_times, segment_ball_entry_time, segment_ball_entry_times
from physics.sweep.sphere import sweep_query
from physics.traversal import (EVERY_HIT, FIRST_HIT, LEAF_ROUND_PAIRS, BoundUpdate, LeafContacts, TraversalTrace,
                               register_query, walk, walk_query)
from physics.vector import components, dot_last


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
    points = np.broadcast_to(points, batch_shape + points.shape[-2:]).reshape(-1, points.shape[-2], 3)
    radius = np.broadcast_to(radius, batch_shape).reshape(-1)
    direction = np.broadcast_to(direction, batch_shape + (3,)).reshape(-1, 3)
    dtype = answer_dtype(moving, direction, mesh)
    if not mesh.has_identity_pose:
        points, direction = mesh.to_body(points), mesh.vectors_to_body(direction)
    return MovingCore(points, radius.astype(points.dtype), direction, batch_shape, dtype)


def culling_reach(points: np.ndarray, direction: np.ndarray, radius: np.ndarray, tree) -> np.ndarray:
    """Per query, the radius a node sphere is inflated by when the walk decides
    whether it can be reached: the moving shape's own ``radius`` plus the
    ``tolerance.BVH_CULL_RTOL`` margin of the coordinates' scale (points (Q, K, 3))."""
    scale = np.maximum(np.abs(points).max(axis=(1, 2)), np.abs(direction).max(axis=1)) + tree.extent
    return radius + tolerance.BVH_CULL_RTOL * scale


def walk_mesh(core: MovingCore, mesh: TriangleMesh, *, ignore_separating: bool, update_bound: BoundUpdate | None,
              trace: TraversalTrace | None, first_round_pairs: int = LEAF_ROUND_PAIRS) -> LeafContacts:
    """Every leaf test of the tree walk for ``core`` (see the module docstring);
    ``update_bound`` and ``first_round_pairs`` as in ``physics.traversal.walk``."""
    tree = mesh.tree
    points, radius, direction = core.points, core.radius, core.direction
    reach = culling_reach(points, direction, radius, tree)
    starts, directions = components(points[:, 0]), components(direction)
    axes = components(points[:, -1] - points[:, 0])

    def node_entry(queries, nodes):
        offset = starts[:, queries] - tree.center_components[:, nodes]
        total = reach[queries] + tree.radii[nodes]
        if points.shape[1] == 1:
            return ball_entry_times(offset, directions[:, queries], total)
        return segment_ball_entry_times(offset, axes[:, queries], directions[:, queries], total)

    def leaf_test(queries, faces):
        triangles = mesh.vertices[mesh.faces[faces]]
        if points.shape[1] == 1:
            return sweep_ball_core(points[queries, 0], radius[queries], direction[queries], triangles,
                                   np.zeros((), radius.dtype), ignore_separating)
        return sweep_core_polygon(points[queries, 0], points[queries, 1], radius[queries], direction[queries],
                                  triangles, ignore_separating)

    return walk(tree, len(radius), node_entry, leaf_test, update_bound, trace, first_round_pairs)


def flatten_internal_edges(found: LeafContacts, core: MovingCore, mesh: TriangleMesh,
                           ignore_separating: bool = False) -> LeafContacts:
    """Apply the internal-edge rule (``physics.mesh_edges``) to body-space contacts.

    With ``ignore_separating``, a flattened contact whose face normal does not
    oppose the motion is dropped: the shape slides along the flat surface it
    already touches (the raw edge normal would have stopped it at the seam)."""
    contact = found.contact
    edges = edges_of(mesh)
    flat = internal_feature(edges, found.face, contact.feature_code, contact.feature_index) & ~np.isnan(contact.t)
    if np.any(flat):
        flat &= _over_the_flat_surface(found, core, mesh, edges)
    if not np.any(flat):
        return found
    face_normal = edges.face_normal[found.face]
    side = np.where(dot_last(contact.normal, face_normal) < 0, -1.0, 1.0)
    normal = np.where(flat[:, None], side[:, None] * face_normal, contact.normal)
    anchor = mesh.vertices[mesh.faces[found.face, 0]]
    direction = core.direction[found.query]
    points = core.points[found.query] + contact.t[:, None, None] * direction[:, None, :]
    heights = dot_last(points - anchor[:, None, :], normal[:, None, :])
    lowest = np.argmin(heights, axis=1)
    lowest_height = heights[np.arange(len(lowest)), lowest]
    overlapping = flat & ~np.isnan(contact.depth)
    depth = np.where(overlapping, core.radius[found.query] - lowest_height, contact.depth)
    witness = points[np.arange(len(lowest)), lowest] - lowest_height[:, None] * normal
    point = np.where(overlapping[:, None], witness, contact.point)
    contact = contact._replace(normal=normal, depth=depth, point=point)
    if ignore_separating:
        sliding = flat & (dot_last(direction, normal) >= 0)
        contact = _dropped(contact, sliding)
    return found._replace(contact=contact)


def _over_the_flat_surface(found: LeafContacts, core: MovingCore, mesh: TriangleMesh, edges: MeshEdges) -> np.ndarray:
    """Per contact on an internal edge or vertex: whether the moving core's point
    nearest the contact (at its time) lies over the flat surface there, i.e. projects
    into the face or a neighbour across one of the face's edges at the feature (up to
    the rounding of the coordinates).  Only there is the edge a seam of one flat
    surface; a core beside the surface touches the edge from the side, and its raw
    normal is the true one."""
    contact = found.contact
    faces = mesh.faces
    at_t = core.points[found.query] + np.nan_to_num(contact.t)[:, None, None] * core.direction[found.query][:, None, :]
    if at_t.shape[1] == 1:
        nearest = at_t[:, 0]
    else:  # the capsule core's point nearest the contact
        start, along = at_t[:, 0], at_t[:, 1] - at_t[:, 0]
        length_squared = dot_last(along, along)
        with np.errstate(all="ignore"):
            s = np.where(length_squared > 0, dot_last(np.nan_to_num(contact.point) - start, along) / length_squared, 0)
        nearest = start + np.clip(s, 0, 1)[:, None] * along
    index = np.clip(contact.feature_index, 0, 2)
    candidates = [found.face, edges.neighbor[found.face, index],
                  np.where(contact.feature_code == VERTEX, edges.neighbor[found.face, (index + 2) % 3], -1)]
    scale = np.abs(mesh.vertices).max() + np.abs(nearest).max(axis=1)
    slack = tolerance.COORDINATE_ROUNDING_ULPS * np.finfo(float).eps * scale
    over = np.zeros(len(found.face), bool)
    for face in candidates:
        corners = mesh.vertices[faces[np.maximum(face, 0)]]  # (n, 3, 3)
        normal = edges.face_normal[np.maximum(face, 0)]
        following = np.roll(corners, -1, axis=1)
        sides = dot_last(np.cross(following - corners, nearest[:, None] - corners), normal[:, None])
        lengths = np.linalg.norm(following - corners, axis=-1)
        over |= (face >= 0) & np.all(sides >= -slack[:, None] * lengths, axis=1)
    return over


def _dropped(contact: Contact, rows: np.ndarray) -> Contact:
    """``contact`` with ``rows`` turned into misses (NaN, -1)."""
    return Contact(np.where(rows, np.nan, contact.t), np.where(rows[:, None], np.nan, contact.point),
                   np.where(rows[:, None], np.nan, contact.normal), np.where(rows, np.nan, contact.depth),
                   np.where(rows, -1, contact.feature_code), np.where(rows, -1, contact.feature_index))


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


def _result(found: LeafContacts, chosen: np.ndarray, mesh: TriangleMesh, *, scalar: bool, shape: tuple,
            dtype: np.dtype) -> SweepResult:
    """The rows ``chosen`` of ``found`` as the public answer, in world space and ``dtype``
    (a walk that tested no leaf, and the "no hit" row, hold float64 NaN)."""
    contact = contact_to_world(Contact(*[np.asarray(field)[chosen] for field in found.contact]), mesh)
    contact = contact._replace(**{name: getattr(contact, name).astype(dtype, copy=False)
                                  for name in ("t", "point", "normal", "depth")})
    faces = found.face[chosen]
    hit = ~np.isnan(contact.t)
    return SweepResult.from_arrays(
        t=contact.t.reshape(shape), point=contact.point.reshape(shape + (3,)),
        normal=contact.normal.reshape(shape + (3,)), face_index=np.where(hit, faces, -1).reshape(shape),
        penetration_depth=contact.depth.reshape(shape), feature_code=contact.feature_code.reshape(shape),
        feature_index=contact.feature_index.reshape(shape), scalar=scalar)


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
    """The compiled walk (``physics.traversal.walk``) of every query of ``core`` (a
    sphere's center or a capsule's segment) through ``mesh``'s sphere tree, in the
    common dtype of the core and the mesh."""
    tree, edges = mesh.tree, edges_of(mesh)
    dtype = np.result_type(core.points, core.radius, core.direction, mesh.vertices)
    count = len(core.radius)
    points = np.ascontiguousarray(core.points, dtype)
    radius, direction = np.asarray(core.radius, dtype), np.ascontiguousarray(core.direction, dtype)
    reach = culling_reach(points, direction, radius, tree).astype(dtype)
    tree_arrays = (np.asarray(tree.center_components, dtype), np.asarray(tree.radii, dtype), tree.first_child,
                   tree.face)
    vertices = np.asarray(mesh.vertices, dtype)
    mesh_arrays = (vertices, mesh.faces, edges.neighbor, edges.internal, edges.internal_vertex,
                   np.asarray(edges.face_normal, dtype), dtype.type(np.abs(vertices).max()))
    out, out_face = _answers(count, dtype), np.empty(count, np.int64)
    capacity = 0 if mode == FIRST_HIT else 16 * count
    trace_capacity = tree.node_count * count if trace is not None else 0
    while True:
        found, found_query = _answers(capacity, dtype) + (np.empty(capacity, np.int64),), np.empty(capacity, np.int64)
        trace_arrays = (np.empty(trace_capacity, np.int64), np.empty(trace_capacity, dtype),
                        np.empty(trace_capacity, np.int64))
        trace_query = np.empty(trace_capacity, np.int64)
        found_count, trace_count = np.zeros(1, np.int64), np.zeros(1, np.int64)
        _rounded_walks(tree_arrays, points, radius, direction, reach, bool(ignore_separating), bool(raw_edge_normals),
                       mesh_arrays, mode, dtype.type(stop_depth), out, out_face, found, found_query, found_count,
                       trace_arrays, trace_query, trace_count)
        if found_count[0] <= capacity:
            break
        capacity = int(found_count[0])  # too many hits for the first guess: walk again with room for all
    if trace is not None:
        nodes, entries, statuses = (array[:trace_count[0]] for array in trace_arrays)
        trace.record_walks(trace_query[:trace_count[0]], nodes, entries, statuses)
    kept = int(found_count[0])
    return Walks(Contact(*out), out_face, Contact(*[array[:kept] for array in found[:6]]), found[6][:kept],
                 found_query[:kept])


def _first_hits(moving, mesh, direction, ignore_separating, raw_edge_normals, trace) -> SweepResult:
    core = moving_core(moving, direction, mesh)
    walks = rounded_walks(core, mesh, ignore_separating=ignore_separating, raw_edge_normals=raw_edge_normals,
                          trace=trace)
    rows = np.arange(len(core.radius))
    return _result(LeafContacts(rows, walks.first_face, walks.first), rows, mesh, scalar=core.batch_shape == (),
                   shape=core.batch_shape, dtype=core.dtype)


def first_hit_result(found: LeafContacts, core: MovingCore, mesh: TriangleMesh, ignore_separating: bool,
                     raw_edge_normals: bool) -> SweepResult:
    """The public answer of a first-hit walk: the internal-edge rule (unless raw),
    each query's first contact by the tie rule, in world space."""
    if not raw_edge_normals:
        found = flatten_internal_edges(found, core, mesh, ignore_separating)
    ranked = _ranked_hits(found)
    queries = found.query[ranked]
    first = ranked[np.concatenate([[True], queries[1:] != queries[:-1]])] if len(ranked) else ranked
    chosen = np.full(len(core.radius), len(found.query))  # one past the end: the "no hit" row
    chosen[found.query[first]] = first
    padded = _with_miss_row(found)
    return _result(padded, chosen, mesh, scalar=core.batch_shape == (), shape=core.batch_shape,
                   dtype=core.dtype)


def _with_miss_row(found: LeafContacts) -> LeafContacts:
    """``found`` plus one trailing row meaning "no hit" (NaN, -1)."""
    contact = found.contact
    miss = Contact(np.full(1, np.nan), np.full((1, 3), np.nan), np.full((1, 3), np.nan), np.full(1, np.nan),
                   np.full(1, -1), np.full(1, -1))
    joined = Contact(*[np.concatenate([np.asarray(a, dtype=np.result_type(a, b)), b]) for a, b in zip(contact, miss)])
    return LeafContacts(np.concatenate([found.query, [-1]]), np.concatenate([found.face, [-1]]), joined)


def _all_hits(moving, mesh, direction, ignore_separating, raw_edge_normals, trace) -> SweepResult:
    core = moving_core(moving, direction, mesh)
    if core.batch_shape != ():
        raise ValueError("all-hits sweeps take one moving shape and one direction, not a batch")
    walks = rounded_walks(core, mesh, ignore_separating=ignore_separating, raw_edge_normals=raw_edge_normals,
                          mode=EVERY_HIT, trace=trace)
    found = LeafContacts(walks.found_query, walks.found_face, walks.found)
    ranked = _ranked_hits(found)
    return _result(found, ranked, mesh, scalar=False, shape=(len(ranked),), dtype=core.dtype)


@sweep_query
def sweep_sphere_mesh(sphere: Sphere, mesh: TriangleMesh, direction, *, ignore_separating=False,
                      raw_edge_normals=False, trace: TraversalTrace | None = None) -> SweepResult:
    """First contact of a moving sphere with a triangle mesh (batched over spheres and
    directions; the mesh is one).  See the module docstring for the rules."""
    return _first_hits(sphere, mesh, direction, ignore_separating, raw_edge_normals, trace)


@sweep_query
def sweep_capsule_mesh(capsule: Capsule, mesh: TriangleMesh, direction, *, ignore_separating=False,
                       raw_edge_normals=False, trace: TraversalTrace | None = None) -> SweepResult:
    """First contact of a moving capsule (or segment) with a triangle mesh, batched
    over capsules and directions.  See the module docstring for the rules."""
    return _first_hits(capsule, mesh, direction, ignore_separating, raw_edge_normals, trace)


@sweep_query
def sweep_sphere_mesh_all(sphere: Sphere, mesh: TriangleMesh, direction, *, ignore_separating=False,
                          raw_edge_normals=False, trace: TraversalTrace | None = None) -> SweepResult:
    """Every triangle a single moving sphere touches along its sweep, one row per
    triangle (its first contact with it), sorted by t (then the first-hit rule)."""
    return _all_hits(sphere, mesh, direction, ignore_separating, raw_edge_normals, trace)


@sweep_query
def sweep_capsule_mesh_all(capsule: Capsule, mesh: TriangleMesh, direction, *, ignore_separating=False,
                           raw_edge_normals=False, trace: TraversalTrace | None = None) -> SweepResult:
    """Every triangle a single moving capsule touches along its sweep, sorted by t."""
    return _all_hits(capsule, mesh, direction, ignore_separating, raw_edge_normals, trace)


# --- compiled: one query's walk with a rounded core (a sphere's center or a capsule's segment) ---

class RoundedQuery(NamedTuple):
    """A sphere's center (K = 1) or a capsule's segment (K = 2) swept through a mesh,
    for ``physics.traversal.walk_query``; the mesh's arrays ride along."""

    points: np.ndarray           # (K, 3)
    radius: float
    direction: tuple
    reach: float                 # radius plus the culling margin (``culling_reach``)
    ignore_separating: bool
    raw_edge_normals: bool
    vertices: np.ndarray
    faces: np.ndarray
    neighbor: np.ndarray         # ``physics.mesh_edges.MeshEdges``
    internal: np.ndarray
    internal_vertex: np.ndarray
    face_normal: np.ndarray
    largest: float               # largest |coordinate| of the mesh
    triangle: np.ndarray         # (3, 3) scratch for a leaf's corners

@njit(**COMPILE)
def _point(points, k):
    return (points[k, 0], points[k, 1], points[k, 2])


@njit(**COMPILE)
def rounded_node_entry(query, center, node_radius):
    """When a sphere's center (or a capsule's segment), inflated by the culling reach,
    first touches a node's sphere."""
    points, direction, reach = query.points, query.direction, query.reach
    offset = sub(_point(points, 0), center)
    if points.shape[0] == 1:
        return ball_entry_time(offset, direction, reach + node_radius)
    return segment_ball_entry_time(offset, sub(_point(points, 1), _point(points, 0)), direction, reach + node_radius)


@njit(**COMPILE)
def rounded_leaf(query, face):
    """The exact sweep of a query's rounded core against triangle ``face``, with the
    internal-edge rule unless the query asks for raw edge normals."""
    points, radius, direction, vertices, faces = query.points, query.radius, query.direction, query.vertices, query.faces
    triangle = query.triangle
    for corner in range(3):
        for k in range(3):
            triangle[corner, k] = vertices[faces[face, corner], k]
    zero = like(radius, 0.0)
    if points.shape[0] == 1:
        answer = ball_core(_point(points, 0), radius, direction, triangle, zero, query.ignore_separating)
    else:
        answer = capsule_polygon(_point(points, 0), _point(points, 1), radius, direction, triangle,
                                 query.ignore_separating)
    return answer if query.raw_edge_normals else flattened(query, face, answer)


@njit(**COMPILE)
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
        anchor = _point(query.vertices, faces[face, 0])
        lowest, lowest_height = _point(points, 0), like(t, math.inf)
        for k in range(points.shape[0]):
            at_t = add(_point(points, k), scale(t, direction))
            height = dot(sub(at_t, anchor), normal)
            if height < lowest_height or k == 0:
                lowest, lowest_height = at_t, height
        depth = radius - lowest_height
        point = sub(lowest, scale(lowest_height, normal))
    if query.ignore_separating and dot(direction, normal) >= 0:
        nan = like(t, math.nan)
        return nan, (nan, nan, nan), (nan, nan, nan), nan, -1, -1
    return t, point, normal, depth, code, index


@njit(**COMPILE)
def over_the_flat_surface(query, face, code, index, point, t):
    """Whether the moving core's point nearest a contact (at its time) lies over the
    flat surface there: projects into the face or a neighbour across one of the
    face's edges at the feature (up to the rounding of the coordinates).  Only there
    is the edge a seam of one flat surface; a core beside the surface touches the edge
    from the side, and its raw normal is the true one."""
    points, direction, vertices, faces = query.points, query.direction, query.vertices, query.faces
    neighbor, face_normals, largest = query.neighbor, query.face_normal, query.largest
    start = add(_point(points, 0), scale(t, direction))
    nearest = start
    if points.shape[0] == 2:  # the capsule core's point nearest the contact
        along = sub(add(_point(points, 1), scale(t, direction)), start)
        length_squared = dot(along, along)
        s = dot(sub(point, start), along) / length_squared if length_squared > 0 else like(t, 0.0)
        nearest = add(start, scale(clip01(s), along))
    slack = like(t, tolerance.COORDINATE_ROUNDING_ULPS) * like(t, 2.220446049250313e-16) * (
        largest + largest_magnitude(nearest))
    for candidate in range(3):
        other = face if candidate == 0 else neighbor[face, index] if candidate == 1 else (
            neighbor[face, (index + 2) % 3] if code == VERTEX else -1)
        if other < 0:
            continue
        normal = (face_normals[other, 0], face_normals[other, 1], face_normals[other, 2])
        inside = True
        for j in range(3):
            corner = (vertices[faces[other, j], 0], vertices[faces[other, j], 1], vertices[faces[other, j], 2])
            next_index = faces[other, (j + 1) % 3]
            following = (vertices[next_index, 0], vertices[next_index, 1], vertices[next_index, 2])
            edge = sub(following, corner)
            if not dot(cross(edge, sub(nearest, corner)), normal) >= -slack * math.sqrt(dot(edge, edge)):
                inside = False
        if inside:
            return True
    return False


@njit(**COMPILE)
def _rounded_walks(tree, points, radius, directions, reach, ignore_separating, raw_edge_normals, mesh, mode,
                   stop_depth, out, out_face, found, found_query, found_count, trace, trace_query, trace_count):
    """The walk of every query (``points`` (Q, K, 3), ``radius``, ``directions``,
    ``reach`` (Q,)) through ``tree`` (centers (3, M), radii, first child, face) over
    ``mesh`` (vertices, faces, neighbor, internal, internal vertex, face normals,
    largest |vertex|): first hits to ``out`` and ``out_face``; with ``EVERY_HIT``,
    every hit to ``found`` and the query it belongs to to ``found_query``."""
    centers, radii, first_child, node_face = tree
    vertices = mesh[0]
    triangle = np.empty((3, 3), vertices.dtype)
    nan = like(vertices[0, 0], math.nan)
    miss = (nan, (nan, nan, nan), (nan, nan, nan), nan, -1, -1)
    for i in range(len(radius)):
        query = RoundedQuery(points[i], radius[i], _point(directions, i), reach[i], ignore_separating,
                             raw_edge_normals, mesh[0], mesh[1], mesh[2], mesh[3], mesh[4], mesh[5], mesh[6], triangle)
        before, traced = found_count[0], trace_count[0]
        best, face = walk_query(centers, radii, first_child, node_face, query, mode, stop_depth, found, found_count,
                                trace, trace_count, miss)
        _store(out, i, best)
        out_face[i] = face
        for row in range(before, min(found_count[0], len(found_query))):
            found_query[row] = i
        for row in range(traced, min(trace_count[0], len(trace_query))):
            trace_query[row] = i


register_query(RoundedQuery, rounded_node_entry, rounded_leaf)
