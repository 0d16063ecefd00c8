"""Mesh against mesh at rest: which triangle pairs overlap, by a dual tree walk.

The two sphere trees are walked together: a frontier of (node of A, node of B)
pairs, node centers and triangles carried into world space as they are visited.
A pair whose spheres are apart is culled (``tolerance.BVH_CULL_RTOL`` keeps the
cull conservative); otherwise the larger inner node is split (A's on ties), until
both are leaves and their triangles are tested exactly.

Triangle against triangle is the separating-axis test over the axes that can
separate two triangles (``separating_axes``): the two face normals, the 9 cross
products of their edges, the in-plane edge normals (coplanar triangles), and the
axes degenerate triangles need (a zero-area triangle is a segment or a point, whose
Minkowski difference with the other has other faces).  Zero axes never separate.
Touching counts as overlapping (closed triangles); a pair is *touching* when some
axis shows exactly zero overlap, *crossing* otherwise.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from physics import tolerance
from physics.shapes import TriangleMesh
from physics.traversal import CULLED, LEAF_HIT, LEAF_MISSED, VISITED, TraversalTrace
from physics.vector import components, cross, dot


class MeshOverlap(NamedTuple):
    """Overlapping triangle pairs: ``pairs (K, 2)`` face of A, face of B (sorted),
    and ``touching (K,)``: True where they only touch (zero overlap on some axis)."""

    pairs: np.ndarray
    touching: np.ndarray


def _longest_edge(edges: np.ndarray) -> np.ndarray:
    """(3, n) longest of the (3, n, 3) edges: the direction of a degenerate triangle."""
    longest = np.argmax(dot(edges, edges), axis=-1)
    return np.take_along_axis(edges, longest[None, :, None], axis=-1)[..., 0]


def separating_axes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Candidate separating axes (3, n, 31) of triangles a, b (3, n, 3 vertices).

    Two triangles: the face normals, edge cross products, and each face normal
    crossed with every edge of both (in-plane edge normals, for coplanar pairs).
    Degenerate triangles (segments, points) need the axes of their Minkowski
    differences too: the segments' directions ``u``, their common normal's in-plane
    normals, the perpendicular from one segment's line to the other's vertex, and
    the vertex difference ``w`` (point against point).
    """
    edges_a = np.roll(a, -1, axis=-1) - a
    edges_b = np.roll(b, -1, axis=-1) - b
    normal_a = cross(edges_a[..., 0], edges_a[..., 1])[..., None]
    normal_b = cross(edges_b[..., 0], edges_b[..., 1])[..., None]
    u_a, u_b = _longest_edge(edges_a), _longest_edge(edges_b)
    common = cross(u_a, u_b)
    w = a[..., 0] - b[..., 0]
    axes = [normal_a, normal_b, cross(normal_a, edges_a), cross(normal_b, edges_b),
            cross(normal_a, edges_b), cross(normal_b, edges_a)]
    axes += [cross(edges_a[..., i:i + 1], edges_b) for i in range(3)]
    axes += [vector[..., None] for vector in (u_a, u_b, common, cross(common, u_a), cross(common, u_b),
                                              cross(u_a, cross(w, u_a)), cross(u_b, cross(w, u_b)), w)]
    return np.concatenate(axes, axis=-1)


def triangle_overlap(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(overlapping, touching) per pair of triangles (n, 3, 3) and (n, 3, 3).

    Touching means they meet without crossing: some axis shows exactly zero
    overlap (coplanar triangles sharing area touch).  Coordinates are taken
    relative to the first triangle's first vertex, so pairs far from the origin
    lose no more precision than their size demands."""
    origin = first[:, :1, :]
    a, b = components(first - origin), components(second - origin)  # (3, n, 3 vertices)
    axes = separating_axes(a, b)
    project_a = dot(a[..., None, :], axes[..., None])  # (n, axes, 3 vertices)
    project_b = dot(b[..., None, :], axes[..., None])
    overlap = np.minimum(project_a.max(axis=-1) - project_b.min(axis=-1),
                         project_b.max(axis=-1) - project_a.min(axis=-1))
    is_axis = np.any(axes != 0, axis=0)
    overlapping = np.all(~is_axis | (overlap >= 0), axis=-1)
    touching = overlapping & np.any(is_axis & (overlap == 0), axis=-1)
    return overlapping, touching


def _world(mesh: TriangleMesh, points: np.ndarray) -> np.ndarray:
    return points if mesh.has_identity_pose else mesh.to_world(points)


def mesh_overlap(mesh_a: TriangleMesh, mesh_b: TriangleMesh, trace: TraversalTrace | None = None) -> MeshOverlap:
    """Every overlapping (face of A, face of B) pair, at the meshes' current poses.

    Nodes and triangles are compared in world space, transformed as they are
    visited, so a mesh and a copy at the same pose meet exactly where their world
    coordinates do.  ``trace`` records the dual walk: ``query`` holds A's node,
    ``node`` B's node, ``entry`` 0 for overlapping spheres (+inf apart), ``status``
    visited / culled / leaf hit (triangles overlap) / leaf missed."""
    tree_a, tree_b = mesh_a.tree, mesh_b.tree
    reach_slack = tolerance.BVH_CULL_RTOL * (tree_a.extent + tree_b.extent + np.abs(mesh_a.translation).max()
                                              + np.abs(mesh_b.translation).max())
    nodes_a, nodes_b = np.zeros(1, np.int64), np.zeros(1, np.int64)
    found_pairs, found_touching = [], []
    step = 0
    while len(nodes_a):
        gap = _world(mesh_b, tree_b.centers[nodes_b]) - _world(mesh_a, tree_a.centers[nodes_a])
        reach = tree_a.radii[nodes_a] + tree_b.radii[nodes_b] + reach_slack
        near = np.einsum("ij,ij->i", gap, gap) <= reach * reach
        leaf_a, leaf_b = tree_a.first_child[nodes_a] < 0, tree_b.first_child[nodes_b] < 0
        both_leaves = near & leaf_a & leaf_b
        status = np.where(near, VISITED, CULLED)
        if np.any(both_leaves):
            faces_a, faces_b = tree_a.face[nodes_a[both_leaves]], tree_b.face[nodes_b[both_leaves]]
            overlapping, touching = triangle_overlap(_world(mesh_a, mesh_a.vertices[mesh_a.faces[faces_a]]),
                                                     _world(mesh_b, mesh_b.vertices[mesh_b.faces[faces_b]]))
            found_pairs.append(np.stack([faces_a, faces_b], axis=1)[overlapping])
            found_touching.append(touching[overlapping])
            status[both_leaves] = np.where(overlapping, LEAF_HIT, LEAF_MISSED)
        if trace is not None:
            trace.record(step, nodes_a, nodes_b, np.where(near, 0.0, np.inf), status)
        split = near & ~both_leaves
        split_a = split & ~leaf_a & (leaf_b | (tree_a.radii[nodes_a] >= tree_b.radii[nodes_b]))
        split_b = split & ~split_a
        children_a, children_b = tree_a.first_child[nodes_a[split_a]], tree_b.first_child[nodes_b[split_b]]
        nodes_a = np.concatenate([np.repeat(children_a, 2) + np.tile([0, 1], len(children_a)),
                                  np.repeat(nodes_a[split_b], 2)])
        nodes_b = np.concatenate([np.repeat(nodes_b[split_a], 2),
                                  np.repeat(children_b, 2) + np.tile([0, 1], len(children_b))])
        step += 1
    pairs = np.concatenate(found_pairs) if found_pairs else np.zeros((0, 2), np.int64)
    touching = np.concatenate(found_touching) if found_touching else np.zeros(0, bool)
    order = np.lexsort((pairs[:, 1], pairs[:, 0]))
    return MeshOverlap(pairs[order], touching[order])
