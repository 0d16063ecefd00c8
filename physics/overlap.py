"""Mesh against mesh at rest: which triangle pairs overlap, by a dual tree walk.

The two sphere trees are walked together, depth first (compiled): pairs of (node of
A, node of B), node centers and triangles carried into world space as they are
visited.  A pair whose spheres are apart is culled (``tolerance.BVH_CULL_RTOL`` keeps
the cull conservative); otherwise the larger inner node is split (A's on ties), until
both are leaves and their triangles are tested exactly.

Triangle against triangle is the separating-axis test over the axes that can
separate two triangles (``separating_axis``): the two face normals, the 9 cross
products of their edges, the in-plane edge normals (coplanar triangles), and the
axes degenerate triangles need (a zero-area triangle is a segment or a point, whose
Minkowski difference with the other has other faces).  Zero axes never separate.
Touching counts as overlapping (closed triangles); a pair is *touching* when some
axis shows exactly zero overlap, *crossing* otherwise.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from sweeplab.physics.kernels import entry, kernel
from sweeplab.physics import tolerance
from sweeplab.physics.shapes import TriangleMesh
from sweeplab.physics.traversal import CULLED, LEAF_HIT, LEAF_MISSED, VISITED, TraversalTrace
from sweeplab.physics.geometry import add, cross, dot, maximum, minimum, row, sub


class MeshOverlap(NamedTuple):
    """Overlapping triangle pairs: ``pairs (K, 2)`` face of A, face of B (sorted),
    and ``touching (K,)``: True where they only touch (zero overlap on some axis)."""

    pairs: np.ndarray
    touching: np.ndarray


# --- one pair, compiled --------------------------------------------------------------------

@kernel
def _longest_edge(edges):
    """The longest of a triangle's edges (the first of equals): the direction of a
    degenerate triangle."""
    best, best_length = row(edges, 0), dot(row(edges, 0), row(edges, 0))
    for k in range(1, 3):
        if dot(row(edges, k), row(edges, k)) > best_length:
            best, best_length = row(edges, k), dot(row(edges, k), row(edges, k))
    return best


@kernel
def separating_axis(k, a, b, edges_a, edges_b):
    """The k-th of the 31 candidate separating axes of triangles a, b (3, 3).

    Two triangles: the face normals, each face normal crossed with every edge of both
    (in-plane edge normals, for coplanar pairs), the 9 edge cross products.
    Degenerate triangles (segments, points) need the axes of their Minkowski
    differences too: the segments' directions ``u``, their common normal's in-plane
    normals, the perpendicular from one segment's line to the other's vertex, and the
    vertex difference ``w`` (point against point)."""
    normal_a = cross(row(edges_a, 0), row(edges_a, 1))
    normal_b = cross(row(edges_b, 0), row(edges_b, 1))
    if k == 0:
        return normal_a
    if k == 1:
        return normal_b
    if k < 14:
        group, i = (k - 2) // 3, (k - 2) % 3
        normal = normal_a if group == 0 or group == 2 else normal_b
        edges = edges_a if group == 0 or group == 3 else edges_b
        return cross(normal, row(edges, i))
    if k < 23:
        return cross(row(edges_a, (k - 14) // 3), row(edges_b, (k - 14) % 3))
    u_a, u_b = _longest_edge(edges_a), _longest_edge(edges_b)
    common = cross(u_a, u_b)
    w = sub(row(a, 0), row(b, 0))
    if k == 23:
        return u_a
    if k == 24:
        return u_b
    if k == 25:
        return common
    if k == 26:
        return cross(common, u_a)
    if k == 27:
        return cross(common, u_b)
    if k == 28:
        return cross(u_a, cross(w, u_a))
    if k == 29:
        return cross(u_b, cross(w, u_b))
    return w


@kernel
def triangle_overlap(first, second):
    """(overlapping, touching) of two closed triangles (3, 3): no candidate axis
    separates their projections; touching where some axis shows exactly zero overlap
    (coplanar triangles sharing area touch).  Coordinates are taken relative to the
    first triangle's first vertex, so pairs far from the origin lose no more
    precision than their size demands.  Zero axes never separate."""
    origin = row(first, 0)
    a, b = np.empty((3, 3), first.dtype), np.empty((3, 3), first.dtype)
    edges_a, edges_b = np.empty((3, 3), first.dtype), np.empty((3, 3), first.dtype)
    for i in range(3):
        a[i, 0], a[i, 1], a[i, 2] = sub(row(first, i), origin)
        b[i, 0], b[i, 1], b[i, 2] = sub(row(second, i), origin)
    for i in range(3):
        edges_a[i, 0], edges_a[i, 1], edges_a[i, 2] = sub(row(a, (i + 1) % 3), row(a, i))
        edges_b[i, 0], edges_b[i, 1], edges_b[i, 2] = sub(row(b, (i + 1) % 3), row(b, i))
    touching = False
    for k in range(31):
        axis = separating_axis(k, a, b, edges_a, edges_b)
        if axis[0] == 0 and axis[1] == 0 and axis[2] == 0:
            continue
        low_a = high_a = dot(row(a, 0), axis)
        low_b = high_b = dot(row(b, 0), axis)
        for i in range(1, 3):
            low_a, high_a = minimum(low_a, dot(row(a, i), axis)), maximum(high_a, dot(row(a, i), axis))
            low_b, high_b = minimum(low_b, dot(row(b, i), axis)), maximum(high_b, dot(row(b, i), axis))
        overlap = minimum(high_a - low_b, high_b - low_a)
        if not overlap >= 0:
            return False, False
        touching = touching or overlap == 0
    return True, touching


# --- the dual walk, compiled ----------------------------------------------------------------

@kernel
def _to_world(point, rotation, translation, identity):
    """``rotation point + translation`` (summed x, y, z), or the point itself for an
    identity pose."""
    if identity:
        return point
    return add((point[0] * rotation[0, 0] + point[1] * rotation[0, 1] + point[2] * rotation[0, 2],
                point[0] * rotation[1, 0] + point[1] * rotation[1, 1] + point[2] * rotation[1, 2],
                point[0] * rotation[2, 0] + point[1] * rotation[2, 1] + point[2] * rotation[2, 2]), translation)


@kernel
def is_identity(rotation, translation) -> bool:
    """Whether a pose (3 x 3 rotation, translation tuple) is the identity."""
    for i in range(3):
        for j in range(3):
            if rotation[i, j] != (1.0 if i == j else 0.0):
                return False
    return translation[0] == 0 and translation[1] == 0 and translation[2] == 0


@kernel
def _world_triangle(mesh, face, out):
    vertices, faces, rotation, translation, identity = mesh
    for corner in range(3):
        out[corner, 0], out[corner, 1], out[corner, 2] = _to_world(row(vertices, faces[face, corner]), rotation,
                                                                   translation, identity)


def _dual_walk_work(tree_a, tree_b, *rest) -> int:
    """``dual_walk``'s work for the tier choice: the nodes of both trees."""
    return len(tree_a[1]) + len(tree_b[1])


@entry(work=_dual_walk_work)
def dual_walk(tree_a, tree_b, mesh_a, mesh_b, reach_slack, pairs, touching, count, trace, trace_count):
    """Walk two sphere trees together, depth first: a pair of nodes whose spheres (in
    world space) are apart is culled; otherwise the larger inner node is split (A's on
    ties, and whichever is not a leaf), until both are leaves and their triangles are
    tested exactly.  Overlapping face pairs go to ``pairs`` / ``touching`` (``count``
    counts them, also beyond their length); every node pair tested to ``trace``
    (node of A, node of B, entry 0 near / +inf apart, status)."""
    centers_a, radii_a, first_a, face_a = tree_a
    centers_b, radii_b, first_b, face_b = tree_b
    _, _, rotation_a, translation_a, identity_a = mesh_a
    _, _, rotation_b, translation_b, identity_b = mesh_b
    first_triangle, second_triangle = np.empty((3, 3)), np.empty((3, 3))
    stack = np.zeros((64, 2), np.int64)
    depth = 1
    while depth > 0:
        depth -= 1
        node_a, node_b = stack[depth, 0], stack[depth, 1]
        center_a = _to_world((centers_a[0, node_a], centers_a[1, node_a], centers_a[2, node_a]), rotation_a,
                             translation_a, identity_a)
        center_b = _to_world((centers_b[0, node_b], centers_b[1, node_b], centers_b[2, node_b]), rotation_b,
                             translation_b, identity_b)
        gap = sub(center_b, center_a)
        reach = radii_a[node_a] + radii_b[node_b] + reach_slack
        near = dot(gap, gap) <= reach * reach
        leaf_a, leaf_b = first_a[node_a] < 0, first_b[node_b] < 0
        status = VISITED if near else CULLED
        if near and leaf_a and leaf_b:
            _world_triangle(mesh_a, face_a[node_a], first_triangle)
            _world_triangle(mesh_b, face_b[node_b], second_triangle)
            overlapping, touches = triangle_overlap(first_triangle, second_triangle)
            status = LEAF_HIT if overlapping else LEAF_MISSED
            if overlapping:
                if count[0] < len(touching):
                    pairs[count[0], 0], pairs[count[0], 1], touching[count[0]] = face_a[node_a], face_b[node_b], touches
                count[0] += 1
        nodes, entries, statuses, steps = trace
        if trace_count[0] < len(nodes):
            nodes[trace_count[0], 0], nodes[trace_count[0], 1] = node_a, node_b
            entries[trace_count[0]] = 0.0 if near else math.inf
            statuses[trace_count[0]], steps[trace_count[0]] = status, trace_count[0]
        trace_count[0] += 1
        if not near or (leaf_a and leaf_b):
            continue
        if depth + 2 > len(stack):
            stack = np.concatenate((stack, np.zeros(stack.shape, np.int64)))
        if not leaf_a and (leaf_b or radii_a[node_a] >= radii_b[node_b]):
            for child in (first_a[node_a] + 1, first_a[node_a]):
                stack[depth, 0], stack[depth, 1] = child, node_b
                depth += 1
        else:
            for child in (first_b[node_b] + 1, first_b[node_b]):
                stack[depth, 0], stack[depth, 1] = node_a, child
                depth += 1


def _arrays(mesh: TriangleMesh) -> tuple:
    tree = mesh.tree
    return ((tree.center_components, tree.radii, tree.first_child, tree.face),
            (mesh.vertices, mesh.faces, mesh.rotation, tuple(float(v) for v in mesh.translation),
             mesh.has_identity_pose))


def mesh_overlap(mesh_a: TriangleMesh, mesh_b: TriangleMesh, trace: TraversalTrace | None = None) -> MeshOverlap:
    """Every overlapping (face of A, face of B) pair, at the meshes' current poses.

    Nodes and triangles are compared in world space, transformed as they are
    visited, so a mesh and a copy at the same pose meet exactly where their world
    coordinates do.  ``trace`` records the dual walk: ``query`` holds A's node,
    ``node`` B's node, ``entry`` 0 for overlapping spheres (+inf apart), ``status``
    visited / culled / leaf hit (triangles overlap) / leaf missed."""
    (tree_a, arrays_a), (tree_b, arrays_b) = _arrays(mesh_a), _arrays(mesh_b)
    reach_slack = tolerance.BVH_CULL_RTOL * (mesh_a.tree.extent + mesh_b.tree.extent + np.abs(mesh_a.translation).max()
                                              + np.abs(mesh_b.translation).max())
    capacity, trace_capacity = 64, (mesh_a.tree.node_count + mesh_b.tree.node_count) * 4 if trace is not None else 0
    while True:
        pairs, touching = np.empty((capacity, 2), np.int64), np.empty(capacity, bool)
        trace_arrays = (np.empty((trace_capacity, 2), np.int64), np.empty(trace_capacity),
                        np.empty(trace_capacity, np.int64), np.empty(trace_capacity, np.int64))
        count, trace_count = np.zeros(1, np.int64), np.zeros(1, np.int64)
        dual_walk(tree_a, tree_b, arrays_a, arrays_b, float(reach_slack), pairs, touching, count, trace_arrays,
                   trace_count)
        if count[0] <= capacity and trace_count[0] <= trace_capacity or (count[0] <= capacity and trace is None):
            break
        capacity, trace_capacity = max(capacity, int(count[0])), max(trace_capacity, int(trace_count[0]))
    pairs, touching = pairs[:count[0]], touching[:count[0]]
    if trace is not None:
        nodes, entries, statuses, steps = (array[:trace_count[0]] for array in trace_arrays)
        trace.record_pairs(steps, nodes[:, 0], nodes[:, 1], entries, statuses)
    order = np.lexsort((pairs[:, 1], pairs[:, 0]))
    return MeshOverlap(pairs[order], touching[order])
