"""Walking a sphere tree: one query at a time, compiled, depth first.

``walk_query`` pops a node, tests it (``node_entry``: the earliest t in [0, 1] at
which the query can touch the node's sphere, +inf if never), and either descends
(the nearer child first) or, at a leaf, tests its triangle exactly (``leaf``).

Pruning: each query has a bound; a node whose entry time exceeds it is culled.  A
first-hit query lowers its bound to the best hit found so far (a node entered
exactly at it is still tested: ties are decided by the first-hit rule,
``ranks_before``), an every-hit query keeps it at 1 and may stop at its first hit
deeper than a depth (a classification).  Node tests are conservative
(``tolerance.BVH_CULL_RTOL``), leaf tests exact, so pruning changes the work, never
the answer.

A ``TraversalTrace`` records every tested (query, node) pair with its entry time and
status, for the editor to draw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from sweeplab.physics.bvh import SphereTree
from sweeplab.physics.kernels import kernel
from sweeplab.physics.geometry import like
from sweeplab.physics.sweep.lane_answer import Contact

VISITED, CULLED, LEAF_MISSED, LEAF_HIT = range(4)
STATUS_NAMES = ("visited", "culled", "leaf missed", "leaf hit")
"""Status of a tested (query, node) pair: an inner node reached and descended, a node
whose sphere is not reached before the bound (culled), a leaf whose triangle was
tested and missed, a leaf whose triangle was hit."""


@dataclass
class TraversalTrace:
    """What a walk did: for every tested (query, node) pair in test order, its
    ``step`` (the position of the test in its query's walk), ``query``, ``node``,
    node ``entry`` time (+inf when the sphere is never reached) and ``status`` (see
    ``STATUS_NAMES``)."""

    _records: list = field(default_factory=list)

    def record_pairs(self, step, queries, nodes, entry, status) -> None:
        """Record tested pairs with their own ``step`` numbers (a dual walk)."""
        self._records.append((step, queries, nodes, entry, status))

    def record_walks(self, queries, nodes, entry, status) -> None:
        """Record compiled walks (``walk_query``), whose steps are their node tests:
        the step of a test is its position in its query's walk."""
        queries = np.asarray(queries)
        starts = np.flatnonzero(np.concatenate([[True], queries[1:] != queries[:-1]])) if len(queries) else queries
        step = np.arange(len(queries)) - np.repeat(starts, np.diff(np.concatenate([starts, [len(queries)]])))
        self._records.append((step, queries, nodes, entry, status))

    def _column(self, index: int) -> np.ndarray:
        if not self._records:
            return np.zeros(0, float if index == 3 else np.int64)
        return np.concatenate([record[index] for record in self._records])

    step = property(lambda self: self._column(0), doc="walk step of each tested pair")
    query = property(lambda self: self._column(1), doc="query of each tested pair")
    node = property(lambda self: self._column(2), doc="node of each tested pair")
    entry = property(lambda self: self._column(3), doc="entry time into the node's sphere (+inf: never)")
    status = property(lambda self: self._column(4), doc="status code (``STATUS_NAMES``)")

    def counts(self) -> dict[str, int]:
        """How many pairs ended in each status, by name."""
        counted = np.bincount(self.status, minlength=len(STATUS_NAMES))
        return {name: int(count) for name, count in zip(STATUS_NAMES, counted, strict=True)}


class LeafContacts(NamedTuple):
    """Every leaf test a walk made: ``query`` and ``face`` per test, and the
    ``contact`` (``physics.sweep.lane_answer.Contact``, ``t`` NaN where the triangle was
    missed)."""

    query: np.ndarray
    face: np.ndarray
    contact: Contact


# --- the tree as a walk reads it ----------------------------------------------------------

class PackedTree(NamedTuple):
    """A sphere tree laid out for walking (``packed_tree``), node ids the tree's own
    (breadth first; ``SphereTree``):

    * ``spheres (M + 1, 4)``: row ``id + 1`` is node id's (center x, y, z, radius).  The
      two children of a node (ids c and c + 1, c odd) are rows c + 1 and c + 2: 64
      bytes from a multiple of 64, one cache line of float64 (the array starts on one);
    * ``links (M,)``: an inner node's first child; -1 - k for the k-th leaf (by id);
    * ``corners (F, 3, 3)``: the k-th leaf's triangle corners, ``faces (F,)`` its face.

    A walk that tests a node's children reads one line of ``spheres``; a leaf's
    triangle is one row of ``corners``, the leaves of a level in the tree's triangle
    order (neighbours in space) -- not three vertices through ``faces``: on a
    1.3M-triangle mesh those scattered reads took a third of a walk."""

    spheres: np.ndarray
    links: np.ndarray
    corners: np.ndarray
    faces: np.ndarray


CACHE_LINE_BYTES = 64


def aligned_empty(shape: tuple, dtype, alignment: int = CACHE_LINE_BYTES) -> np.ndarray:
    """An uninitialised C-contiguous array whose first byte is at a multiple of
    ``alignment``."""
    dtype = np.dtype(dtype)
    size = math.prod(shape) * dtype.itemsize
    raw = np.empty(size + alignment, np.uint8)
    offset = -raw.ctypes.data % alignment
    return raw[offset:offset + size].view(dtype).reshape(shape)


def packed_tree(tree: SphereTree, vertices: np.ndarray, faces: np.ndarray, dtype) -> PackedTree:
    """``tree`` over the mesh (``vertices``, ``faces``) as a ``PackedTree`` in ``dtype``
    (spheres and corners rounded to it, as a walk in that dtype reads them)."""
    spheres = aligned_empty((tree.node_count + 1, 4), dtype)
    spheres[0] = np.nan  # (no node: row 0 only aligns the children's pairs)
    spheres[1:, :3], spheres[1:, 3] = tree.centers, tree.radii
    leaves = np.flatnonzero(tree.first_child < 0)
    links = tree.first_child.copy()
    links[leaves] = -1 - np.arange(len(leaves))
    leaf_faces = np.ascontiguousarray(tree.face[leaves])
    return PackedTree(spheres, links, np.ascontiguousarray(vertices[faces[leaf_faces]], dtype), leaf_faces)


# --- one query, compiled: a depth-first walk ----------------------------------------------
# A query is a NamedTuple the walk hands to two kernels it is given: ``node_entry(query,
# center, radius)``, the earliest t in [0, 1] at which the query can touch a node's sphere
# (+inf: never; conservative), and ``leaf(query, face, triangle, bound)``, the exact answer
# (a ``physics.sweep.lane_answer.LaneAnswer``) with a leaf's triangle (its corners (3, 3)) where
# its t is at most ``bound`` (the walk's bound when it reaches the leaf; a hit beyond it may
# be left unfinished, as the walk discards it, but must stay a hit).  The walk is compiled
# for each pair of kernels (a sphere's walk holds no capsule code), and both are inlined
# into it (``kernel(inline=True)``): a query carries its mesh's arrays, and a call that
# passes them costs more than the node test itself (on a 1.3M-triangle mesh a ray's walk
# took 40 us with calls, 12 us inline).

FIRST_HIT, EVERY_HIT = 0, 1
"""Walk modes: keep the first hit by the tie rule (nodes entered after it are culled),
or every hit (only nodes never entered in [0, 1] are culled)."""


@kernel
def ranks_before(answer, face, best, best_face) -> bool:
    """The first-hit rule: smaller t; at equal t the deeper initial overlap; then a
    face before an edge before a vertex; then the lower face index.  A miss never
    ranks before anything."""
    t, best_t = answer.t, best.t
    if t != t:
        return False
    if best_t != best_t or t < best_t:
        return True
    if t > best_t:
        return False
    depth = answer.depth if answer.depth == answer.depth else like(t, 0.0)
    best_depth = best.depth if best.depth == best.depth else like(t, 0.0)
    if depth != best_depth:
        return depth > best_depth
    if answer.feature_code != best.feature_code:
        return answer.feature_code > best.feature_code
    return face < best_face


@kernel
def _record(trace, count, node, entry, status):
    """Node test ``count[0]`` into ``trace``, counted beyond its length (room for a
    second walk); a trace of length 0 is not asked for and not counted (lanes may
    walk in parallel then)."""
    nodes, entries, statuses = trace
    if len(nodes) == 0:
        return
    if count[0] < len(nodes):
        nodes[count[0]], entries[count[0]], statuses[count[0]] = node, entry, status
    count[0] += 1


@kernel(inline=True)
def node_entry_of(tree, query, node_entry, node):
    """``node_entry`` of the query and node ``node``'s sphere (``PackedTree``)."""
    spheres = tree[0]
    return node_entry(query, (spheres[node + 1, 0], spheres[node + 1, 1], spheres[node + 1, 2]),
                      spheres[node + 1, 3])


@kernel(inline=True)
def walk_query(tree, query, node_entry, leaf, mode, stop_depth, found, found_count, trace, trace_count, miss):
    """Walk a sphere tree (a ``PackedTree``) for one query, depth first, the nearer
    child first (the first on a tie), with the node test ``node_entry`` and the leaf
    test ``leaf`` (kernels: see above).

    Inlined into its caller: ``node_entry`` and ``leaf`` are passed as numba
    dispatchers, each lowered as its Python object's address (a "dynamic global"), and
    a machine-code function holding one is never written to numba's disk cache.  Once
    inlined the addresses are unused and dropped; left a call (as LLVM chose for the
    turning sweeps' ``advancement.mesh_lanes``), every process compiled that loop anew.

    ``FIRST_HIT``: returns (best answer, its face) by ``ranks_before``; a node entered
    later than the best t is culled (not one entered at it: ties must be seen).
    ``EVERY_HIT``: every hit is written to ``found`` (t, point, normal, depth, code,
    index, face arrays; ``found_count[0]`` counts them, also beyond their length),
    and the walk stops at the first hit deeper than ``stop_depth``.  Every node test
    is written to ``trace`` (node, entry, status arrays; ``trace_count[0]`` likewise).
    ``miss`` is the no-hit answer, in the lane's dtype."""
    spheres, links, corners, leaf_faces = tree
    best, best_face = miss, -1
    bound = like(spheres[1, 3], 1.0)
    stack_nodes = np.empty(64, np.int64)
    stack_entries = np.empty(64, spheres.dtype)
    stack_nodes[0], stack_entries[0], depth = 0, node_entry_of(tree, query, node_entry, 0), 1
    while depth > 0:
        depth -= 1
        node, entry = stack_nodes[depth], stack_entries[depth]
        if not entry <= bound:
            _record(trace, trace_count, node, entry, CULLED)
            continue
        child = links[node]
        if child < 0:
            face = leaf_faces[-1 - child]
            answer = leaf(query, face, corners[-1 - child], bound)
            hit = answer.t == answer.t
            _record(trace, trace_count, node, entry, LEAF_HIT if hit else LEAF_MISSED)
            if not hit:
                continue
            if mode == FIRST_HIT:
                if ranks_before(answer, face, best, best_face):
                    best, best_face = answer, face
                    bound = answer.t
                continue
            _store_found(found, found_count, answer, face)
            if answer.depth == answer.depth and answer.depth > stop_depth:
                return best, best_face
            continue
        _record(trace, trace_count, node, entry, VISITED)
        first = node_entry_of(tree, query, node_entry, child)
        second = node_entry_of(tree, query, node_entry, child + 1)
        if depth + 2 > len(stack_nodes):
            stack_nodes = np.concatenate((stack_nodes, np.empty(len(stack_nodes), np.int64)))
            stack_entries = np.concatenate((stack_entries, np.empty(len(stack_entries), spheres.dtype)))
        near, far, near_entry, far_entry = child, child + 1, first, second
        if second < first:
            near, far, near_entry, far_entry = child + 1, child, second, first
        stack_nodes[depth], stack_entries[depth] = far, far_entry  # the nearer child is popped first
        stack_nodes[depth + 1], stack_entries[depth + 1] = near, near_entry
        depth += 2
    return best, best_face


@kernel
def _store_found(found, count, answer, face):
    t, point, normal, depth, code, index = answer
    times, points, normals, depths, codes, indices, faces = found
    i = count[0]
    if i < len(times):
        times[i], depths[i], codes[i], indices[i], faces[i] = t, depth, code, index, face
        for k in range(3):
            points[i, k], normals[i, k] = point[k], normal[k]
    count[0] += 1
