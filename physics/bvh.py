"""The sphere tree: a bounding-volume hierarchy of spheres over a triangle mesh.

A binary tree built top down: a node holds a contiguous run of triangles (in the
tree's triangle order) and splits it at the median of their centroids along the
axis where the centroids spread most (the longest side of their bounding box; x
before y before z on a tie), until each leaf holds one triangle.  The left child
gets the ``count // 2`` lowest triangles along that axis, equal centroid
coordinates ranked by triangle index (NaN after every number, as numpy sorts): the
triangles a node holds are fixed by the mesh alone, not by the order in which the
split visits them.

The build is compiled scalar code (numba).  The shape of the tree depends only on
the triangle count (a run of n splits into n // 2 and n - n // 2), so it is laid
out first (``tree_shape``); then the runs of each level are split in place by a
selection (``select``), and the spheres are computed bottom up, level by level.
The nodes of a level are processed in parallel (``prange``); each touches only its
own run and node, so the tree is the same whatever the number of threads.  The
build computes in float64 whatever the vertices' dtype.

Nodes are stored as flat arrays in breadth-first order (node 0 is the root; the
children of node i are ``first_child[i]`` and ``first_child[i] + 1``, both on the
next level; a leaf has ``first_child == -1`` and the index of its triangle in
``face``).  Node spheres are tight for their own triangles: a leaf's is the
smallest sphere around its triangle (the circumsphere when the triangle is acute,
else the sphere on its longest edge); an internal node's is centred on the box of
its triangles' vertices with the farthest such vertex on its surface.  Radii are
computed with the same arithmetic ``validate`` checks them with, so every vertex
lies inside every ancestor's sphere exactly as float64 computes the distance.

Queries use the tree in the mesh's body space (``TriangleMesh`` pose), so a moved
or rotated mesh keeps its tree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import prange

from sweeplab.physics.kernels import kernel, lane_input
from sweeplab.physics.lanes import parallel_above
from sweeplab.physics.geometry import add, cross, dot, like, maximum, minimum, row, scale, sqrt, sub


@dataclass(frozen=True, eq=False)
class SphereTree:
    """Flat arrays of a sphere tree over ``F`` triangles (``2F - 1`` nodes).

    ``center_components (3, M)`` (node centers component-first, as the traversal
    kernels read them; ``centers`` is the (M, 3) view), ``radii (M,)``,
    ``first_child (M,)`` (-1 for a leaf),
    ``parent (M,)`` (-1 for the root), ``face (M,)`` (a leaf's triangle, -1 for an
    internal node), ``depth (M,)`` (root 0), ``level_starts``: node index where each
    depth begins (nodes of depth k are ``level_starts[k]:level_starts[k + 1]``).
    """

    center_components: np.ndarray
    radii: np.ndarray
    first_child: np.ndarray
    parent: np.ndarray
    face: np.ndarray
    depth: np.ndarray
    level_starts: np.ndarray
    extent: float
    """Largest |coordinate| of a node center plus the largest radius: the tree's
    coordinate scale (for ``tolerance.BVH_CULL_RTOL``)."""

    @property
    def centers(self) -> np.ndarray:
        """Node centers (M, 3), a view of ``center_components``."""
        return self.center_components.T

    @property
    def node_count(self) -> int:
        return len(self.radii)

    @property
    def height(self) -> int:
        """Number of levels (a single-triangle tree has 1)."""
        return len(self.level_starts) - 1

    def nodes_at_depth(self, depth: int) -> np.ndarray:
        """Indices of the nodes at ``depth`` (0 is the root)."""
        if not 0 <= depth < self.height:
            raise ValueError(f"depth must be in [0, {self.height}), got {depth}")
        return np.arange(self.level_starts[depth], self.level_starts[depth + 1])

    def leaves_under(self, node: int) -> np.ndarray:
        """Leaf node indices in the subtree of ``node``."""
        nodes = np.array([node])
        leaves = []
        while len(nodes):
            is_leaf = self.first_child[nodes] < 0
            leaves.append(nodes[is_leaf])
            inner = self.first_child[nodes[~is_leaf]]
            nodes = np.concatenate([inner, inner + 1])
        return np.sort(np.concatenate(leaves))

    def validate(self, vertices: np.ndarray, faces: np.ndarray) -> None:
        """Check the tree against the mesh it was built for; ``ValueError`` saying
        which node is wrong.

        Checks: parent/child links agree and children sit one level deeper; every
        triangle is in exactly one leaf; every vertex of a leaf's triangle lies
        inside (or on) the sphere of the leaf and of every ancestor, with distances
        computed as the build computes them.
        """
        count = self.node_count
        if count != max(2 * len(faces) - 1, 0):
            raise ValueError(f"a tree over {len(faces)} triangles has {max(2 * len(faces) - 1, 0)} nodes, not {count}")
        inner = np.flatnonzero(self.first_child >= 0)
        for offset in (0, 1):
            child = self.first_child[inner] + offset
            wrong = (self.parent[child] != inner) | (self.depth[child] != self.depth[inner] + 1)
            if np.any(wrong):
                raise ValueError(f"node {inner[np.argmax(wrong)]}: child {child[np.argmax(wrong)]} does not link back")
        leaves = np.flatnonzero(self.first_child < 0)
        if np.any(self.face[inner] != -1) or np.any(np.sort(self.face[leaves]) != np.arange(len(faces))):
            raise ValueError("leaves must hold every triangle exactly once (and internal nodes none)")
        corners = vertices[faces[self.face[leaves]]]  # (L, 3, 3)
        ancestor = leaves.copy()
        while len(ancestor):
            distance = _vertex_distances(corners, self.centers[ancestor])
            outside = distance > self.radii[ancestor][:, None]
            if np.any(outside):
                row = np.argmax(np.any(outside, axis=1))
                raise ValueError(f"node {ancestor[row]}: triangle {self.face[leaves[row]]} pokes out of its sphere "
                                 f"(vertex at {distance[row].max()!r} > radius {self.radii[ancestor[row]]!r})")
            keep = self.parent[ancestor] >= 0
            ancestor, corners = self.parent[ancestor[keep]], corners[keep]


def _vertex_distances(corners: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """Distances (n, 3) of the corners (n, 3, 3) of triangles from centers (n, 3)."""
    offset = corners - centers[:, None, :]
    return np.sqrt(offset[..., 0] * offset[..., 0] + offset[..., 1] * offset[..., 1] + offset[..., 2] * offset[..., 2])


# --- spheres ------------------------------------------------------------------------------

@kernel
def first_largest(values):
    """Index of the largest of three values: the first on a tie, the first NaN if any
    (``numpy.argmax``)."""
    best = 0
    for k in range(1, 3):
        if values[best] == values[best] and (values[k] > values[best] or values[k] != values[k]):
            best = k
    return best


@kernel
def lowest(a, b):
    """Componentwise ``minimum`` of two 3-vectors."""
    return (minimum(a[0], b[0]), minimum(a[1], b[1]), minimum(a[2], b[2]))


@kernel
def highest(a, b):
    """Componentwise ``maximum`` of two 3-vectors."""
    return (maximum(a[0], b[0]), maximum(a[1], b[1]), maximum(a[2], b[2]))


@kernel
def squared_distance(point, center):
    """|point - center|^2, summed x, y, z as ``validate`` sums it."""
    offset = sub(point, center)
    return dot(offset, offset)


@kernel
def farthest_squared(a, b, c, center):
    """Largest squared distance of the corners a, b, c from ``center`` (NaN if any is);
    sqrt is monotonic, so its square root is the largest distance ``validate``
    computes."""
    return maximum(maximum(squared_distance(a, center), squared_distance(b, center)), squared_distance(c, center))


@kernel
def smallest_sphere(a, b, c):
    """(center, radius) of the smallest sphere around the triangle abc.

    Acute triangles: the circumsphere.  Right, obtuse and degenerate (zero-area)
    triangles: the sphere whose diameter is the longest edge (the first on a tie:
    ab, bc, ca).  The radius is the largest computed vertex distance, so the
    triangle is inside as the arithmetic says."""
    ab, ac = sub(b, a), sub(c, a)
    bc = sub(c, b)
    edges_squared = (dot(ab, ab), dot(bc, bc), dot(ac, ac))  # the edges opposite c, a, b
    longest = first_largest(edges_squared)
    longest_squared = edges_squared[longest]
    # law of cosines: the angle opposite the longest edge is right or obtuse iff that
    # edge's square is at least the sum of the other two squares
    obtuse_or_flat = longest_squared >= (edges_squared[0] + edges_squared[1]) + edges_squared[2] - longest_squared
    normal = cross(ab, ac)
    normal_squared = dot(normal, normal)
    if obtuse_or_flat or normal_squared == 0:
        ends = add(a, b) if longest == 0 else add(b, c) if longest == 1 else add(a, c)
        center = scale(like(a[0], 0.5), ends)
    else:
        # the circumcenter, with n = ab x ac (Wikipedia, "Circumcircle", higher dimensions):
        # a + (|ac|^2 (n x ab) + |ab|^2 (ac x n)) / (2 |n|^2)
        offset = add(scale(edges_squared[2], cross(normal, ab)), scale(edges_squared[0], cross(ac, normal)))
        twice = like(a[0], 2.0) * normal_squared
        center = (a[0] + offset[0] / twice, a[1] + offset[1] / twice, a[2] + offset[2] / twice)
    return center, sqrt(farthest_squared(a, b, c, center))


@kernel
def _corners(corners, triangle):
    """The three corners of triangle ``triangle`` of an (n, 3, 3) array."""
    return (row(corners[triangle], 0), row(corners[triangle], 1), row(corners[triangle], 2))


def smallest_triangle_spheres(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centers (n, 3) and radii (n,) of the smallest spheres around triangles
    (n, 3, 3), in float64 (``smallest_sphere``)."""
    return _smallest_spheres(np.ascontiguousarray(corners, np.float64))


@kernel
def _smallest_spheres(corners):
    centers, radii = np.empty((len(corners), 3)), np.empty(len(corners))
    for triangle in range(len(corners)):
        a, b, c = _corners(corners, triangle)
        center, radii[triangle] = smallest_sphere(a, b, c)
        centers[triangle, 0], centers[triangle, 1], centers[triangle, 2] = center
    return centers, radii


# --- the build ----------------------------------------------------------------------------

def build_sphere_tree(vertices: np.ndarray, faces: np.ndarray) -> SphereTree:
    """Build the sphere tree of a mesh (``vertices (V, 3)``, ``faces (F, 3)``, F >= 1);
    see the module docstring."""
    faces = lane_input(faces, np.int64)
    if len(faces) == 0:
        raise ValueError("faces must hold at least one triangle to build a tree")
    vertices = lane_input(vertices, np.float64)
    if faces.min() < 0 or faces.max() >= len(vertices):  # the compiled build reads unchecked
        raise ValueError(f"faces index out of range [0, {len(vertices)})")
    first_child, parent, face, depth, level_starts, centers, radii = tree_arrays(len(faces), vertices, faces)
    return SphereTree(center_components=centers, radii=radii, first_child=first_child, parent=parent, face=face,
                      depth=depth, level_starts=level_starts,
                      extent=float(max(centers.max(), -centers.min()) + radii.max()))


@kernel
def tree_shape(face_count):
    """The nodes of the tree over ``face_count`` triangles, which depend on nothing
    else: per node its run [start, start + count) of positions in the tree's
    triangle order, ``first_child``, ``parent`` and ``depth``; and ``level_starts``.
    A node's children are appended when it is reached, so the nodes come level by
    level, each level in position order."""
    node_count = 2 * face_count - 1
    start, count = np.zeros(node_count, np.int64), np.zeros(node_count, np.int64)
    first_child, parent = np.full(node_count, -1, np.int64), np.full(node_count, -1, np.int64)
    depth = np.zeros(node_count, np.int64)
    count[0] = face_count
    appended = 1
    for node in range(node_count):
        if count[node] > 1:
            child, left = appended, count[node] // 2
            appended += 2
            first_child[node] = child
            start[child], count[child] = start[node], left
            start[child + 1], count[child + 1] = start[node] + left, count[node] - left
            parent[child], parent[child + 1] = node, node
            depth[child], depth[child + 1] = depth[node] + 1, depth[node] + 1
    level_starts = np.zeros(depth[node_count - 1] + 2, np.int64)
    for node in range(node_count):
        level_starts[depth[node] + 1] = node + 1
    return start, count, first_child, parent, depth, level_starts


PARALLEL_MIN_FACES = 200_000
"""Triangles from which a tree is built on numba's threads (``lanes.parallel_above``):
below, one thread builds it in well under a second, and the parallel variant (a
second compile of the whole build) is never needed."""


@parallel_above(PARALLEL_MIN_FACES, seconds_per_work=3.5e-4)  # as Python: 0.31 ms a triangle (1,280)
def tree_arrays(vertices, faces):
    """The tree's arrays: ``first_child``, ``parent``, ``face``, ``depth``,
    ``level_starts``, centers (3, M) and radii (M,)."""
    start, count, first_child, parent, depth, level_starts = tree_shape(len(faces))
    levels, node_count = len(level_starts) - 1, len(count)
    order, centroids = np.arange(len(faces)), np.empty((len(faces), 3))  # the triangles in the tree's order
    for triangle in prange(len(faces)):
        a, b, c = _triangle(vertices, faces, triangle)
        summed, three = add(add(a, b), c), like(a[0], 3.0)
        centroids[triangle, 0], centroids[triangle, 1], centroids[triangle, 2] = \
            summed[0] / three, summed[1] / three, summed[2] / three
    for level in range(levels):
        for node in prange(level_starts[level], level_starts[level + 1]):
            if count[node] > 1:
                split_run(order, centroids, start[node], count[node])
    corners = np.empty((len(faces), 3, 3))  # in the tree's order
    for position in prange(len(faces)):
        for corner in range(3):
            for k in range(3):
                corners[position, corner, k] = vertices[faces[order[position], corner], k]
    face = np.full(node_count, -1, np.int64)
    centers, radii = np.empty((3, node_count)), np.empty(node_count)
    low, high = np.empty((node_count, 3)), np.empty((node_count, 3))  # the boxes of the nodes' vertices
    for level in range(levels - 1, -1, -1):
        for node in prange(level_starts[level], level_starts[level + 1]):
            if count[node] == 1:
                face[node] = order[start[node]]
            _node_sphere(node, start[node], count[node], first_child[node], corners, centers, radii, low, high)
    return first_child, parent, face, depth, level_starts, centers, radii


@kernel
def _triangle(vertices, faces, triangle):
    """The corners of mesh triangle ``triangle``."""
    return (row(vertices, faces[triangle, 0]), row(vertices, faces[triangle, 1]),
            row(vertices, faces[triangle, 2]))


@kernel
def _node_sphere(node, start, count, child, corners, centers, radii, low, high):
    """Sphere and box of ``node``, whose run [start, start + count) of ``corners``
    (in the tree's order) it covers and whose children (``child`` and the next)
    have their boxes: a leaf's smallest sphere, or an inner node's sphere centred on
    its box with its farthest corner on the surface."""
    if count == 1:
        a, b, c = _corners(corners, start)
        center, radii[node] = smallest_sphere(a, b, c)
        box_low, box_high = lowest(lowest(a, b), c), highest(highest(a, b), c)
    else:
        box_low = lowest(row(low, child), row(low, child + 1))
        box_high = highest(row(high, child), row(high, child + 1))
        center = scale(like(box_low[0], 0.5), add(box_low, box_high))
        a, b, c = _corners(corners, start)
        farthest = farthest_squared(a, b, c, center)
        for position in range(start + 1, start + count):
            a, b, c = _corners(corners, position)
            farthest = maximum(farthest, farthest_squared(a, b, c, center))
        radii[node] = sqrt(farthest)
    centers[0, node], centers[1, node], centers[2, node] = center
    low[node, 0], low[node, 1], low[node, 2] = box_low
    high[node, 0], high[node, 1], high[node, 2] = box_high


# --- the median split -----------------------------------------------------------------------

@kernel
def split_run(order, centroids, start, count):
    """Split the run [start, start + count) of triangles (``order``, with their
    ``centroids`` (n, 3) alongside) at its centroid median along its widest axis:
    afterwards its first ``count // 2`` positions hold the lower triangles
    (``ranks_lower``)."""
    low = high = row(centroids, start)
    for position in range(start + 1, start + count):
        centroid = row(centroids, position)
        low, high = lowest(low, centroid), highest(high, centroid)
    rounds, size = 0, count  # 2 log2(count): introselect's budget of partitions
    while size > 1:
        rounds, size = rounds + 2, size // 2
    select(order, centroids, first_largest(sub(high, low)), start, start + count - 1, start + count // 2, rounds)


@kernel
def ranks_lower(order, centroids, axis, i, j):
    """Whether the triangle at position i comes before the one at j along ``axis``: the
    lower centroid coordinate, NaN after every number (as numpy sorts), then the lower
    triangle index.  A strict total order: no two triangles tie."""
    a, b = centroids[i, axis], centroids[j, axis]
    if a < b:
        return True
    if b < a:
        return False
    if (a != a) != (b != b):
        return b != b
    return order[i] < order[j]


@kernel
def _swap(order, centroids, i, j):
    order[i], order[j] = order[j], order[i]
    for k in range(3):
        centroids[i, k], centroids[j, k] = centroids[j, k], centroids[i, k]


@kernel
def select(order, centroids, axis, low, high, kth, rounds):
    """Reorder positions [low, high] (``order`` and ``centroids`` together) so that
    ``kth`` holds the triangle it would hold were they sorted by ``ranks_lower``,
    every lower one before it and every higher one after.

    Introselect (Musser, "Introspective sorting and selection algorithms", 1997):
    Hoare's quickselect with a median-of-three pivot, partitioned between sentinels
    as in Sedgewick's quicksort; after ``rounds`` partitions, a heapsort of the
    positions still unsettled, so the worst case is O(n log n)."""
    while high > low:
        if rounds == 0:
            heapsort(order, centroids, axis, low, high)
            return
        rounds -= 1
        middle = low + (high - low) // 2
        if ranks_lower(order, centroids, axis, middle, low):
            _swap(order, centroids, middle, low)
        if ranks_lower(order, centroids, axis, high, low):
            _swap(order, centroids, high, low)
        if ranks_lower(order, centroids, axis, high, middle):
            _swap(order, centroids, high, middle)
        if high - low < 3:
            return  # low, middle and high were all there is: now in order
        pivot = high - 1  # the median of three, between the sentinels at low and high
        _swap(order, centroids, middle, pivot)
        i, j = low + 1, high - 2
        while True:
            while ranks_lower(order, centroids, axis, i, pivot):
                i += 1
            while ranks_lower(order, centroids, axis, pivot, j):
                j -= 1
            if i >= j:
                break
            _swap(order, centroids, i, j)
            i, j = i + 1, j - 1
        _swap(order, centroids, i, pivot)
        if kth == i:
            return
        if kth < i:
            high = i - 1
        else:
            low = i + 1


@kernel
def heapsort(order, centroids, axis, low, high):
    """Sort positions [low, high] by ``ranks_lower`` (Williams' heapsort, Floyd's
    heap construction)."""
    size = high - low + 1
    for root in range(size // 2 - 1, -1, -1):
        _sift_down(order, centroids, axis, low, root, size)
    for end in range(size - 1, 0, -1):
        _swap(order, centroids, low, low + end)
        _sift_down(order, centroids, axis, low, 0, end)


@kernel
def _sift_down(order, centroids, axis, base, root, size):
    """Restore the max-heap of positions base + [0, size) below ``root``."""
    while 2 * root + 1 < size:
        child = 2 * root + 1
        if child + 1 < size and ranks_lower(order, centroids, axis, base + child, base + child + 1):
            child += 1
        if not ranks_lower(order, centroids, axis, base + root, base + child):
            return
        _swap(order, centroids, base + root, base + child)
        root = child
