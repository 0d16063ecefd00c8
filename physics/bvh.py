"""The sphere tree: a bounding-volume hierarchy of spheres over a triangle mesh.

A binary tree built top down: a node holds a contiguous run of triangles (in the
tree's triangle order) and splits it at the median of their centroids along the
axis where the centroids spread most, until each leaf holds one triangle.  The
split uses three centroid orders sorted once and partitioned stably level by
level, so a whole level is split in a few array passes — no Python per node.

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

from physics.vector import components, cross, dot


@dataclass(frozen=True, eq=False)
class SphereTree:
    """Flat arrays of a sphere tree over ``F`` triangles (``2F - 1`` nodes).

    ``centers (M, 3)``, ``radii (M,)``, ``first_child (M,)`` (-1 for a leaf),
    ``parent (M,)`` (-1 for the root), ``face (M,)`` (a leaf's triangle, -1 for an
    internal node), ``depth (M,)`` (root 0), ``level_starts``: node index where each
    depth begins (nodes of depth k are ``level_starts[k]:level_starts[k + 1]``).
    """

    centers: np.ndarray
    radii: np.ndarray
    first_child: np.ndarray
    parent: np.ndarray
    face: np.ndarray
    depth: np.ndarray
    level_starts: np.ndarray
    center_components: np.ndarray
    """``centers`` component-first (3, M), as the traversal kernels read them."""
    extent: float
    """Largest |coordinate| of a node center plus the largest radius: the tree's
    coordinate scale (for ``tolerance.BVH_CULL_RTOL``)."""

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


def _farthest_squared(corners: np.ndarray, center: np.ndarray) -> np.ndarray:
    """Largest squared distance of a triangle's corners (3, 3, n) from ``center``
    (3, n), summed x, y, z as ``_vertex_distances`` sums them (sqrt is monotonic, so
    the square root of this maximum is the maximum of those distances)."""
    farthest = None
    for corner in corners.transpose(1, 0, 2):
        offset = corner - center
        squared = dot(offset, offset)
        farthest = squared if farthest is None else np.maximum(farthest, squared)
    return farthest


BUILD_CHUNK = 65536
"""Triangles per pass of the build's heavy arithmetic (a speed setting): whole-mesh
temporaries of a million triangles cost more in fresh memory than in arithmetic."""


def smallest_triangle_spheres(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centers (n, 3) and radii (n,) of the smallest spheres around triangles (n, 3, 3).

    Acute triangles: the circumsphere.  Right, obtuse and degenerate (zero-area)
    triangles: the sphere whose diameter is the longest edge.  The radius is the
    largest computed vertex distance, so the triangle is inside as float64 says.
    """
    parts = [_smallest_spheres(corners[start:start + BUILD_CHUNK]) for start in range(0, len(corners), BUILD_CHUNK)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _smallest_spheres(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a, b, c = (components(corners[:, k]) for k in range(3))
    ab, ac = b - a, c - a
    edges_squared = np.stack([dot(ab, ab), dot(c - b, c - b), dot(ac, ac)])  # edges opposite c, a, b
    longest = np.argmax(edges_squared, axis=0)
    longest_squared = np.take_along_axis(edges_squared, longest[None], axis=0)[0]
    obtuse_or_flat = longest_squared >= edges_squared.sum(axis=0) - longest_squared
    midpoint = 0.5 * np.where(longest == 0, a + b, np.where(longest == 1, b + c, a + c))
    normal = cross(ab, ac)
    normal_squared = dot(normal, normal)
    with np.errstate(all="ignore"):
        circumcenter = a + (cross(normal, ab) * edges_squared[2] + cross(ac, normal) * edges_squared[0]) \
            / (2 * normal_squared)
    center = np.where(obtuse_or_flat | (normal_squared == 0), midpoint, circumcenter)
    corners_first = np.stack([a, b, c], axis=1)
    return np.ascontiguousarray(center.T), np.sqrt(_farthest_squared(corners_first, center))


def build_sphere_tree(vertices: np.ndarray, faces: np.ndarray) -> SphereTree:
    """Build the sphere tree of a mesh (``vertices (V, 3)``, ``faces (F, 3)``, F >= 1).

    Median split on centroids along the axis of widest centroid spread (the left
    child gets ``count // 2`` triangles); see the module docstring.
    """
    face_count = len(faces)
    if face_count == 0:
        raise ValueError("faces must hold at least one triangle to build a tree")
    centroids = (vertices[faces[:, 0]] + vertices[faces[:, 1]] + vertices[faces[:, 2]]) / 3
    orders = np.stack([np.argsort(centroids[:, axis], kind="stable") for axis in range(3)]).astype(np.int32)
    # Per level: the nodes' runs [start, start + count) of the (common) position space.
    level_runs = []
    starts, counts = np.zeros(1, np.int64), np.full(1, face_count, np.int64)
    while True:
        level_runs.append((starts, counts))
        splitting = counts > 1
        if not np.any(splitting):
            break
        orders = _split_level(orders, centroids, starts[splitting], counts[splitting])
        left = counts[splitting] // 2
        child_starts = np.stack([starts[splitting], starts[splitting] + left], axis=1).ravel()
        child_counts = np.stack([left, counts[splitting] - left], axis=1).ravel()
        starts, counts = child_starts, child_counts
    order = orders[0]  # every run is a single triangle now: all three orders agree
    return _assemble(level_runs, order, vertices, faces)


def _run_positions(starts, counts, position_count):
    """(positions, run of each position) of runs [start, start + count) in order;
    ``positions`` is a slice when the runs cover every position (all but the last
    levels of a median split), which saves a gather per array."""
    run = np.repeat(np.arange(len(starts), dtype=np.int32), counts)
    if len(run) == position_count:
        return slice(None), run
    offsets = np.cumsum(counts) - counts
    return np.arange(len(run)) - (offsets - starts)[run], run


def _split_level(orders, centroids, starts, counts):
    """Split each run at its centroid median along its widest axis: every order is
    partitioned stably so that the run's left half comes first, in order."""
    positions, run = _run_positions(starts, counts, orders.shape[1])
    first, last = orders[:, starts], orders[:, starts + counts - 1]
    spread = np.stack([centroids[last[axis], axis] - centroids[first[axis], axis] for axis in range(3)])
    axis = np.argmax(spread, axis=0)
    left_count = counts // 2
    run_offset = np.cumsum(counts) - counts
    rank = np.arange(len(run), dtype=np.int64) - run_offset[run]
    in_runs = orders[:, positions]
    chosen = np.take_along_axis(in_runs, axis[run][None], axis=0)[0]
    goes_left = np.zeros(orders.shape[1], bool)
    goes_left[chosen[rank < left_count[run]]] = True
    partitioned = np.empty_like(orders) if isinstance(positions, slice) else orders.copy()
    right_base = (starts + left_count)[run] + rank  # a right element's slot before subtracting lefts before it
    left_base = starts[run]
    for row in range(3):
        is_left = goes_left[in_runs[row]]
        lefts_before = np.cumsum(is_left, dtype=np.int64)
        lefts_before -= is_left
        lefts_before -= lefts_before[run_offset][run]  # within the run
        target = np.where(is_left, left_base + lefts_before, right_base - lefts_before)
        partitioned[row, target] = in_runs[row]
    return partitioned


def _assemble(level_runs, order, vertices, faces) -> SphereTree:
    """Number the nodes level by level, link them, and compute their spheres (in
    chunks of ``BUILD_CHUNK`` triangles, gathered from ``vertices`` as needed)."""
    level_sizes = [len(starts) for starts, _ in level_runs]
    level_starts = np.concatenate([[0], np.cumsum(level_sizes)])
    node_count = int(level_starts[-1])
    first_child = np.full(node_count, -1, np.int64)
    parent = np.full(node_count, -1, np.int64)
    depth = np.repeat(np.arange(len(level_runs)), level_sizes)
    face = np.full(node_count, -1, np.int64)
    for level, (starts, counts) in enumerate(level_runs):
        nodes = np.arange(level_starts[level], level_starts[level + 1])
        inner = nodes[counts > 1]
        first_child[inner] = level_starts[level + 1] + 2 * np.arange(len(inner))
        parent[first_child[inner]] = parent[first_child[inner] + 1] = inner
        leaves = counts == 1
        face[nodes[leaves]] = order[starts[leaves]]
    centers = np.empty((node_count, 3))
    radii = np.empty(node_count)
    box_low, box_high = np.empty((node_count, 3)), np.empty((node_count, 3))
    ordered_corners = np.empty((3, 3, len(order)))  # (coordinate, corner, position in the tree's order)
    for start in range(0, len(order), BUILD_CHUNK):
        ordered_corners[:, :, start:start + BUILD_CHUNK] = vertices[faces[order[start:start + BUILD_CHUNK]]].T
    leaves = np.flatnonzero(face >= 0)
    for start in range(0, len(leaves), BUILD_CHUNK):
        chunk = leaves[start:start + BUILD_CHUNK]
        corners = vertices[faces[face[chunk]]]
        centers[chunk], radii[chunk] = _smallest_spheres(corners)
        box_low[chunk], box_high[chunk] = corners.min(axis=1), corners.max(axis=1)
    for level in range(len(level_runs) - 1, -1, -1):
        starts, counts = level_runs[level]
        inner = counts > 1
        if not np.any(inner):
            continue
        nodes = np.arange(level_starts[level], level_starts[level + 1])[inner]
        starts, counts = starts[inner], counts[inner]
        children = first_child[nodes]
        box_low[nodes] = np.minimum(box_low[children], box_low[children + 1])
        box_high[nodes] = np.maximum(box_high[children], box_high[children + 1])
        centers[nodes] = 0.5 * (box_low[nodes] + box_high[nodes])
        positions, run = _run_positions(starts, counts, len(order))
        node_corners = ordered_corners[:, :, positions]
        node_centers = components(centers[nodes])
        farthest = np.concatenate([
            _farthest_squared(node_corners[:, :, start:start + BUILD_CHUNK], node_centers[:, run[start:start + BUILD_CHUNK]])
            for start in range(0, len(run), BUILD_CHUNK)])
        radii[nodes] = np.sqrt(np.maximum.reduceat(farthest, np.cumsum(counts) - counts))
    return SphereTree(centers=centers, radii=radii, first_child=first_child, parent=parent, face=face, depth=depth,
                      level_starts=level_starts, center_components=np.ascontiguousarray(centers.T),
                      extent=float(np.abs(centers).max() + radii.max()))
