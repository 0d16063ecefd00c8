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
from physics.core import EDGE, VERTEX


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
    face_count = len(faces)
    starts, ends = faces, np.roll(faces, -1, axis=1)
    low, high = np.minimum(starts, ends).ravel(), np.maximum(starts, ends).ravel()
    order = np.lexsort((high, low))
    key_low, key_high = low[order], high[order]
    same_as_next = (key_low[:-1] == key_low[1:]) & (key_high[:-1] == key_high[1:])
    group_start = np.concatenate([[True], ~same_as_next])
    group_id = np.cumsum(group_start) - 1
    group_size = np.bincount(group_id)
    paired = group_size[group_id] == 2
    first_of_pair = paired & group_start
    a, b = order[first_of_pair], order[np.flatnonzero(first_of_pair) + 1]
    neighbor = np.full(face_count * 3, -1, np.int64)
    neighbor[a], neighbor[b] = b // 3, a // 3
    neighbor = neighbor.reshape(face_count, 3)

    corners = vertices[faces]
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.linalg.norm(normal, axis=1)
    with np.errstate(all="ignore"):
        unit = np.where(length[:, None] > 0, normal / length[:, None], 0)
    has_neighbor = neighbor >= 0
    other = np.where(has_neighbor, neighbor, 0)
    sine = np.linalg.norm(np.cross(unit[:, None, :], unit[other]), axis=-1)
    parallel = (length[:, None] > 0) & (length[other] > 0) & (sine <= np.sin(tolerance.INTERNAL_EDGE_ANGLE))
    edge_start = corners
    edge_vector = np.roll(corners, -1, axis=1) - corners
    across = np.cross(unit[:, None, :], edge_vector)  # in the face's plane, perpendicular to the edge
    own_opposite = np.roll(corners, -2, axis=1)  # vertex i + 2 is opposite edge i
    opposite_index = _opposite_vertex(faces, other, starts, ends)
    their_opposite = vertices[opposite_index]
    own_side = np.einsum("fik,fik->fi", own_opposite - edge_start, across)
    their_side = np.einsum("fik,fik->fi", their_opposite - edge_start, across)
    internal = has_neighbor & parallel & (own_side * their_side < 0)
    internal_vertex = internal & np.roll(internal, 1, axis=1)  # edges i and i - 1 meet at vertex i
    return MeshEdges(neighbor, internal, internal_vertex, unit)


def _opposite_vertex(faces, neighbor, starts, ends) -> np.ndarray:
    """Index of the neighbour's vertex that is on neither end of the shared edge."""
    theirs = faces[neighbor]  # (F, 3 edges, 3 vertices)
    on_edge = (theirs == starts[..., None]) | (theirs == ends[..., None])
    return np.take_along_axis(theirs, np.argmin(on_edge, axis=-1)[..., None], axis=-1)[..., 0]


def internal_feature(edges: MeshEdges, faces: np.ndarray, feature_code: np.ndarray,
                     feature_index: np.ndarray) -> np.ndarray:
    """Whether each contact (on face ``faces``, feature code/index local to that
    face) lies on an internal edge or vertex."""
    index = np.clip(feature_index, 0, 2)
    on_edge = (feature_code == EDGE) & edges.internal[faces, index]
    on_vertex = (feature_code == VERTEX) & edges.internal_vertex[faces, index]
    return on_edge | on_vertex
