"""Edges of a triangle mesh: the neighbour across each edge, and the internal-edge rule.

Edge ``i`` of face ``f`` runs from its vertex ``i`` to vertex ``i + 1`` (mod 3), as
for a ``Triangle``.  Two faces are neighbours across an edge when they share its
two vertex indices and no third face does (non-manifold edges have no neighbour).

**The internal-edge rule.**  A sphere sliding over a flat region made of several
triangles must not feel the seams: a contact on the shared edge of two coplanar
triangles would otherwise get an *edge* normal, tilted by the rounding of where
exactly the sphere touches, and a character would bump on a flat floor.  So:

* an edge is *internal* when it has a neighbour, the two faces' normals are
  parallel to within ``tolerance.INTERNAL_EDGE_ANGLE`` (either winding), and the
  two faces lie on opposite sides of the edge (not folded onto each other);
* a vertex of a face is internal when both of that face's edges at the vertex are;
* a contact on an internal edge or vertex reports the face's normal instead,
  oriented to the moving shape's side (the sign of the raw normal along it), and
  an initial overlap's depth is measured along that normal: the summed radius
  minus the lowest height of the moving core above the face's plane.

Contacts on faces, and on edges where the surface really bends, keep their exact
normals; ``raw_edge_normals=True`` on the mesh queries shows the raw answer.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from physics import tolerance
from physics.bvh import mesh_chunks
from physics.core import EDGE, VERTEX
from physics.vector import cross, dot


class MeshEdges(NamedTuple):
    """Per face: ``neighbor (F, 3)`` across each edge (-1 when none), ``internal
    (F, 3)`` edges by the rule above, ``internal_vertex (F, 3)``, and the unit
    ``face_normal (F, 3)`` (zero for zero-area faces)."""

    neighbor: np.ndarray
    internal: np.ndarray
    internal_vertex: np.ndarray
    face_normal: np.ndarray


def mesh_edges(vertices: np.ndarray, faces: np.ndarray) -> MeshEdges:
    """Neighbours, internal edges and vertices, and face normals of a mesh."""
    neighbor, opposite = _neighbors(faces, len(vertices))
    coordinates = np.ascontiguousarray(vertices.T)
    unit, area_positive = _unit_normals(coordinates, faces)
    has_neighbor = neighbor >= 0
    other = np.where(has_neighbor, neighbor, 0)
    internal = np.zeros(faces.shape, bool)
    most_sine = np.sin(tolerance.INTERNAL_EDGE_ANGLE)
    for chunk in mesh_chunks(len(faces)):
        corner = [coordinates[:, faces[chunk, k]] for k in range(3)]  # (3, n) each
        own_unit = unit[:, chunk]
        for edge in range(3):
            their = other[chunk, edge]
            twist = cross(own_unit, unit[:, their])
            parallel = area_positive[chunk] & area_positive[their] & (np.sqrt(dot(twist, twist)) <= most_sine)
            start = corner[edge]
            across = cross(own_unit, corner[(edge + 1) % 3] - start)  # in the face's plane, perpendicular to the edge
            own_side = dot(corner[(edge + 2) % 3] - start, across)  # vertex i + 2 is opposite edge i
            their_side = dot(coordinates[:, opposite[chunk, edge]] - start, across)
            internal[chunk, edge] = has_neighbor[chunk, edge] & parallel & (own_side * their_side < 0)
    internal_vertex = internal & np.roll(internal, 1, axis=1)  # edges i and i - 1 meet at vertex i
    return MeshEdges(neighbor, internal, internal_vertex, np.ascontiguousarray(unit.T))


def _neighbors(faces: np.ndarray, vertex_count: int) -> tuple[np.ndarray, np.ndarray]:
    """Per face edge (F, 3): the neighbour face across it (-1 when none) and that
    neighbour's vertex off the shared edge (0 when none).

    Half-edges are sorted by their undirected key ``low * vertex_count + high``; a
    key held by exactly two half-edges pairs them.  The vertex of a face opposite
    its edge j is its vertex j + 2."""
    half_edges = faces.size
    starts, ends = faces.ravel(), np.roll(faces, -1, axis=1).ravel()
    key = np.minimum(starts, ends).astype(np.int64) * vertex_count + np.maximum(starts, ends)
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    group_start = np.flatnonzero(np.concatenate([[True], sorted_key[1:] != sorted_key[:-1]]))
    group_size = np.diff(np.append(group_start, half_edges))
    pair = group_start[group_size == 2]
    a, b = order[pair], order[pair + 1]
    neighbor = np.full(half_edges, -1, np.int64)
    neighbor[a], neighbor[b] = b // 3, a // 3
    opposite = np.zeros(half_edges, faces.dtype)
    # starts[3 f + j] is vertex j of face f; its vertex j + 2 is at 3 f + (j + 2) % 3
    opposite[a], opposite[b] = starts[b - b % 3 + (b + 2) % 3], starts[a - a % 3 + (a + 2) % 3]
    return neighbor.reshape(faces.shape), opposite.reshape(faces.shape)


def _unit_normals(coordinates, faces) -> tuple[np.ndarray, np.ndarray]:
    """Unit face normals, component-first (3, F) (zero for zero-area faces), and
    whether each face has a nonzero area; ``coordinates`` are the vertices
    component-first (3, V)."""
    unit = np.empty((3, len(faces)))
    length = np.empty(len(faces))
    for chunk in mesh_chunks(len(faces)):
        a, b, c = (coordinates[:, faces[chunk, k]] for k in range(3))
        normal = cross(b - a, c - a)
        length[chunk] = np.sqrt(dot(normal, normal))
        with np.errstate(all="ignore"):
            unit[:, chunk] = np.where(length[chunk] > 0, normal / length[chunk], 0)
    return unit, length > 0


def internal_feature(edges: MeshEdges, faces: np.ndarray, feature_code: np.ndarray,
                     feature_index: np.ndarray) -> np.ndarray:
    """Whether each contact (on face ``faces``, feature code/index local to that
    face) lies on an internal edge or vertex."""
    index = np.clip(feature_index, 0, 2)
    on_edge = (feature_code == EDGE) & edges.internal[faces, index]
    on_vertex = (feature_code == VERTEX) & edges.internal_vertex[faces, index]
    return on_edge | on_vertex
