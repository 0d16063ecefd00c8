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

The analysis is compiled scalar code (numba): the neighbours in serial passes over
the half-edges, normals and the rule face by face in parallel (``prange``; each
face writes only its own rows, so any number of threads gives the same arrays).
Face normals are computed in the vertices' dtype (float32 stays float32; other
types are taken as float64) and stored in float64, where the rest of the rule is
computed.
"""

from __future__ import annotations

from typing import NamedTuple

import math

import numpy as np
from numba import prange

from sweeplab.physics.kernels import kernel, lane_input
from sweeplab.physics.lanes import parallel_above
from sweeplab.physics import tolerance
from sweeplab.physics.geometry import cross, dot, row, sqrt, sub


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
    vertices = np.asarray(vertices)
    vertices = lane_input(vertices, np.float32 if vertices.dtype == np.float32 else np.float64)
    faces = lane_input(np.asarray(faces).reshape(-1, 3), np.int64)
    if faces.size and (faces.min() < 0 or faces.max() >= len(vertices)):  # the compiled analysis reads unchecked
        raise ValueError(f"faces index out of range [0, {len(vertices)})")
    return MeshEdges(*edge_analysis(len(faces), vertices, faces, math.sin(tolerance.INTERNAL_EDGE_ANGLE)))


PARALLEL_MIN_FACES = 200_000
"""Triangles from which the edges are analysed on numba's threads
(``lanes.parallel_above``; below, the serial variant takes well under a second)."""


@parallel_above(PARALLEL_MIN_FACES, seconds_per_work=1e-4)  # as Python: 40-80 us a triangle
def edge_analysis(vertices, faces, most_sine):
    """``MeshEdges`` of the mesh; ``most_sine`` is the sine of the largest angle
    between the normals of faces that are flat across their edge."""
    neighbor, opposite = neighbors(faces, len(vertices))
    face_normal, area_positive = np.empty((len(faces), 3)), np.empty(len(faces), np.bool_)
    for face in prange(len(faces)):
        face_normal[face, 0], face_normal[face, 1], face_normal[face, 2], area_positive[face] = \
            unit_normal(vertices, faces, face)
    internal, internal_vertex = np.empty((len(faces), 3), np.bool_), np.empty((len(faces), 3), np.bool_)
    for face in prange(len(faces)):
        for edge in range(3):
            internal[face, edge] = is_internal(vertices, faces, neighbor, opposite, face_normal, area_positive,
                                               most_sine, face, edge)
        for vertex in range(3):  # edges i and i - 1 meet at vertex i
            internal_vertex[face, vertex] = internal[face, vertex] and internal[face, (vertex + 2) % 3]
    return neighbor, internal, internal_vertex, face_normal


@kernel
def neighbors(faces, vertex_count):
    """Per face edge (F, 3): the neighbour face across it (-1 when none) and that
    neighbour's vertex off the shared edge (0 when none).

    Half-edge 3 f + j is edge j of face f, keyed by its (low, high) vertex indices.
    The half-edges are bucketed by their low vertex (a counting sort), each with its
    high vertex alongside; within a bucket, a tally per high vertex finds the keys
    held by exactly two half-edges, which pair them.  The vertex of a face opposite
    its edge j is its vertex j + 2."""
    half_edges = 3 * len(faces)
    starts = np.zeros(vertex_count + 1, np.int64)  # of the buckets
    for half_edge in range(half_edges):
        starts[_ends(faces, half_edge)[0] + 1] += 1
    for vertex in range(vertex_count):
        starts[vertex + 1] += starts[vertex]
    slots, bucketed, bucketed_high = starts[:-1].copy(), np.empty(half_edges, np.int64), np.empty(half_edges, np.int64)
    for half_edge in range(half_edges):
        low, high = _ends(faces, half_edge)
        bucketed[slots[low]], bucketed_high[slots[low]] = half_edge, high
        slots[low] += 1
    neighbor, opposite = np.full((len(faces), 3), -1, np.int64), np.zeros((len(faces), 3), np.int64)
    tally, first = np.zeros(vertex_count, np.int64), np.empty(vertex_count, np.int64)  # per high vertex
    for vertex in range(vertex_count):
        for slot in range(starts[vertex], starts[vertex + 1]):
            if tally[bucketed_high[slot]] == 0:
                first[bucketed_high[slot]] = slot
            tally[bucketed_high[slot]] += 1
        for slot in range(starts[vertex], starts[vertex + 1]):
            twin_slot = first[bucketed_high[slot]]
            if tally[bucketed_high[slot]] == 2 and twin_slot != slot:
                half_edge, twin = bucketed[slot], bucketed[twin_slot]
                neighbor[half_edge // 3, half_edge % 3], neighbor[twin // 3, twin % 3] = twin // 3, half_edge // 3
                opposite[half_edge // 3, half_edge % 3] = faces[twin // 3, (twin % 3 + 2) % 3]
                opposite[twin // 3, twin % 3] = faces[half_edge // 3, (half_edge % 3 + 2) % 3]
        for slot in range(starts[vertex], starts[vertex + 1]):
            tally[bucketed_high[slot]] = 0
    return neighbor, opposite


@kernel
def _ends(faces, half_edge):
    """(low, high) vertex indices of a half-edge."""
    start, end = faces[half_edge // 3, half_edge % 3], faces[half_edge // 3, (half_edge % 3 + 1) % 3]
    return min(start, end), max(start, end)


@kernel
def unit_normal(vertices, faces, face):
    """(x, y, z, area_positive): the unit normal of ``face`` in float64 (zero for a
    zero-area face), (b - a) x (c - a) and its length computed in the vertices'
    dtype, and whether that length is positive."""
    a, b, c = row(vertices, faces[face, 0]), row(vertices, faces[face, 1]), row(vertices, faces[face, 2])
    normal = cross(sub(b, a), sub(c, a))
    length = np.float64(np.sqrt(dot(normal, normal)))  # np.sqrt: float32 stays float32 also as plain Python
    if length > 0:
        return np.float64(normal[0]) / length, np.float64(normal[1]) / length, np.float64(normal[2]) / length, True
    return 0.0, 0.0, 0.0, False


@kernel
def is_internal(vertices, faces, neighbor, opposite, face_normal, area_positive, most_sine, face, edge):
    """Whether edge ``edge`` of ``face`` is internal (the module docstring): it has a
    neighbour, both faces have an area, |n x n'| <= ``most_sine`` for their unit
    normals, and the face's vertex off the edge and the neighbour's lie on opposite
    sides of the edge within the face's plane."""
    their = neighbor[face, edge]
    if their < 0:
        return False
    own_unit = row(face_normal, face)
    twist = cross(own_unit, row(face_normal, their))
    if not (area_positive[face] and area_positive[their] and sqrt(dot(twist, twist)) <= most_sine):
        return False
    start = row(vertices, faces[face, edge])
    # in the face's plane, square to the edge
    across = cross(own_unit, sub(row(vertices, faces[face, (edge + 1) % 3]), start))
    own_side = dot(sub(row(vertices, faces[face, (edge + 2) % 3]), start), across)  # vertex i + 2 is off edge i
    their_side = dot(sub(row(vertices, opposite[face, edge]), start), across)
    return own_side * their_side < 0

