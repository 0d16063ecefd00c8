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

from physics.vector import cross, dot


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


def _farthest_squared(corners: np.ndarray, center: np.ndarray) -> np.ndarray:
    """Largest squared distance of a triangle's corners (3, 3, n) — (coordinate,
    corner, triangle) — from ``center`` (3, n), summed x, y, z as
    ``_vertex_distances`` sums them (sqrt is monotonic, so the square root of this
    maximum is the maximum of those distances)."""
    farthest = None
    for corner in range(3):
        offset = corners[:, corner] - center
        offset *= offset
        squared = offset[0] + offset[1]
        squared += offset[2]
        farthest = squared if farthest is None else np.maximum(farthest, squared, out=farthest)
    return farthest


MESH_CHUNK = 65536
"""Triangles per pass of a whole-mesh precomputation — the tree build here, the
edge analysis of ``physics.mesh_edges`` (a speed setting): whole-mesh temporaries
of a million triangles cost more in fresh memory than in arithmetic."""


def smallest_triangle_spheres(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centers (n, 3) and radii (n,) of the smallest spheres around triangles (n, 3, 3).

    Acute triangles: the circumsphere.  Right, obtuse and degenerate (zero-area)
    triangles: the sphere whose diameter is the longest edge.  The radius is the
    largest computed vertex distance, so the triangle is inside as float64 says.
    """
    center, radius = _smallest_spheres(np.transpose(corners, (2, 1, 0)))
    return np.ascontiguousarray(center.T), radius


def _smallest_spheres(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``smallest_triangle_spheres`` component-first: corners (3, 3, n) -> centers
    (3, n), radii (n,)."""
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
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
    return center, np.sqrt(_farthest_squared(corners, center))


def build_sphere_tree(vertices: np.ndarray, faces: np.ndarray) -> SphereTree:
    """Build the sphere tree of a mesh (``vertices (V, 3)``, ``faces (F, 3)``, F >= 1).

    Median split on centroids along the axis of widest centroid spread (the left
    child gets ``count // 2`` triangles); see the module docstring.  Whole-mesh
    arrays are few and filled chunk by chunk: on a large mesh, touching fresh
    memory costs as much as the arithmetic.
    """
    if len(faces) == 0:
        raise ValueError("faces must hold at least one triangle to build a tree")
    level_runs, order = _median_splits(_centroids(vertices, faces))
    return _assemble(level_runs, order, _corners_in_order(vertices, faces, order))


def mesh_chunks(count: int):
    """Slices of ``MESH_CHUNK`` items covering ``range(count)``."""
    return (slice(start, start + MESH_CHUNK) for start in range(0, count, MESH_CHUNK))


def _centroids(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Triangle centroids, component-first (3, F)."""
    centroids = np.empty((3, len(faces)))
    for chunk in mesh_chunks(len(faces)):
        corners = vertices[faces[chunk]]
        centroids[:, chunk] = ((corners[:, 0] + corners[:, 1] + corners[:, 2]) / 3).T
    return centroids


def _corners_in_order(vertices: np.ndarray, faces: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The triangles' corners in the tree's order, component-first: (coordinate,
    corner, position)."""
    corners = np.empty((3, 3, len(order)))
    for chunk in mesh_chunks(len(order)):
        corners[:, :, chunk] = vertices[faces[order[chunk]]].T
    return corners


def _median_splits(centroids: np.ndarray) -> tuple[list, np.ndarray]:
    """The runs of every level and the triangles in the tree's order: per level the
    nodes' runs [start, start + count) of positions in that order."""
    face_count = centroids.shape[1]
    index_type = np.int32 if face_count < 2**31 else np.int64
    orders = np.stack([np.argsort(row, kind="stable").astype(index_type) for row in centroids])
    # The runs that cover the positions at a level, and whether each is a node of
    # that level (a leaf of an earlier level is carried down as a run of one that
    # is not).
    starts, counts, is_node = np.zeros(1, index_type), np.full(1, face_count, index_type), np.ones(1, bool)
    level_runs = []
    while True:
        level_runs.append((starts[is_node], counts[is_node]))
        splitting = counts > 1
        if not np.any(splitting):
            break
        orders = _split_level(orders, centroids, starts, counts)
        left = counts // 2
        child_starts = np.stack([starts, starts + left], axis=1).ravel()
        child_counts = np.stack([left, counts - left], axis=1).ravel()
        kept = child_counts > 0
        starts, counts, is_node = child_starts[kept], child_counts[kept], np.repeat(splitting, 2)[kept]
    return level_runs, orders[0]  # every run is a single triangle now: all three orders agree


def _split_level(orders, centroids, starts, counts):
    """Split each run (the runs cover every position) at its centroid median along
    its widest axis: every order is partitioned stably so that the run's left half
    (``count // 2`` triangles; none for a run of one) comes first, in order."""
    ends = starts + counts - 1
    spread = np.stack([np.take(row, np.take(order, ends)) - np.take(row, np.take(order, starts))
                       for row, order in zip(centroids, orders)])
    axis = np.argmax(spread, axis=0)
    left_count = counts // 2
    goes_left = np.zeros(orders.shape[1], bool)
    for row, order in enumerate(orders):
        halves = np.flatnonzero((axis == row) & (left_count > 0))
        goes_left[np.take(order, _ranges(starts[halves], left_count[halves]))] = True
    # The lefts of every run, in order, fill the runs' left halves, the rest the
    # right halves; a run holds the same triangles in every order.
    left_slots = _ranges(starts, left_count)
    right_slots = _ranges(starts + left_count, counts - left_count)
    partitioned = np.empty_like(orders)
    for order, moved in zip(orders, partitioned):
        is_left = np.take(goes_left, order)
        moved[left_slots] = np.compress(is_left, order)
        moved[right_slots] = np.compress(~is_left, order)
    return partitioned


def _ranges(starts, counts):
    """The positions (``np.intp``) of the runs [start, start + count), concatenated
    in order."""
    offsets = np.cumsum(counts, dtype=np.intp) - counts
    return np.repeat(starts - offsets, counts) + np.arange(int(counts.sum()))


def _assemble(level_runs, order, ordered_corners) -> SphereTree:
    """The tree of the splits: nodes numbered level by level and linked, their
    spheres computed from the triangles' corners in the tree's order."""
    level_sizes = [len(starts) for starts, _ in level_runs]
    level_starts = np.concatenate([[0], np.cumsum(level_sizes)])
    node_count = int(level_starts[-1])
    first_child = np.full(node_count, -1, np.int64)
    parent = np.full(node_count, -1, np.int64)
    face = np.full(node_count, -1, np.int64)
    for level, (starts, counts) in enumerate(level_runs):
        first = level_starts[level]
        leaves = np.flatnonzero(counts == 1)
        face[first + leaves] = order[starts[leaves]]
        inner = first + np.flatnonzero(counts > 1)
        first_child[inner] = level_starts[level + 1] + 2 * np.arange(len(inner))
        parent[first_child[inner]] = parent[first_child[inner] + 1] = inner
    centers, radii = _node_spheres(level_runs, level_starts, ordered_corners)
    return SphereTree(center_components=centers, radii=radii, first_child=first_child, parent=parent, face=face,
                      depth=np.repeat(np.arange(len(level_runs)), level_sizes), level_starts=level_starts,
                      extent=float(max(centers.max(), -centers.min()) + radii.max()))


def _node_spheres(level_runs, level_starts, ordered_corners) -> tuple[np.ndarray, np.ndarray]:
    """Node centers (3, M) and radii (M,), bottom up: a leaf's smallest sphere; an
    inner node centred on its box (from its children's boxes), with the radius of
    its farthest triangle corner."""
    centers = np.empty((3, int(level_starts[-1])))
    radii = np.empty(len(centers[0]))
    below = None  # the boxes (low, high) of the level below, (3, its node count) each
    for level in range(len(level_runs) - 1, -1, -1):
        starts, counts = level_runs[level]
        first = level_starts[level]
        low, high = np.empty((3, len(starts))), np.empty((3, len(starts)))
        leaves = np.flatnonzero(counts == 1)
        for chunk in mesh_chunks(len(leaves)):
            columns = leaves[chunk]
            corners = np.take(ordered_corners, starts[columns], axis=2)
            leaf_centers, radii[first + columns] = _smallest_spheres(corners)
            for row, (a, b, c) in enumerate(corners):
                low[row, columns] = np.minimum(np.minimum(a, b), c)
                high[row, columns] = np.maximum(np.maximum(a, b), c)
                centers[row, first + columns] = leaf_centers[row]
        inner = np.flatnonzero(counts > 1)
        if len(inner):
            children = 2 * np.arange(len(inner))  # left children, indexed within the level below
            for row in range(3):
                low[row, inner] = np.minimum(below[0][row, children], below[0][row, children + 1])
                high[row, inner] = np.maximum(below[1][row, children], below[1][row, children + 1])
            inner_centers = 0.5 * (low[:, inner] + high[:, inner])
            for row, coordinate in enumerate(inner_centers):
                centers[row, first + inner] = coordinate
            radii[first + inner] = _farthest_in_runs(ordered_corners, inner_centers, starts[inner], counts[inner])
        below = low, high
    return centers, radii


def _farthest_in_runs(ordered_corners, run_centers, starts, counts):
    """Per run [start, start + count) of positions, the distance of its farthest
    triangle corner from the run's center (3, runs), as ``validate`` computes it."""
    total = int(counts.sum())
    run = np.repeat(np.arange(len(starts)), counts)
    positions = None if total == ordered_corners.shape[2] else _ranges(starts, counts)
    farthest = np.empty(total)
    for chunk in mesh_chunks(total):
        corners = ordered_corners[:, :, chunk] if positions is None else \
            np.take(ordered_corners, positions[chunk], axis=2)
        farthest[chunk] = _farthest_squared(corners, np.take(run_centers, run[chunk], axis=1))
    return np.sqrt(np.maximum.reduceat(farthest, np.cumsum(counts) - counts))
