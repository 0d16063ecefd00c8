"""The sphere tree as a walk reads it (``traversal.packed_tree``): every node's sphere,
link and leaf triangle where the walk looks for them, children on one cache line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from sweeplab.physics import TriangleMesh
from sweeplab.physics.traversal import CACHE_LINE_BYTES, aligned_empty, packed_tree
from tests.physics.strategies import meshes
from tests.physics.test_bvh import jittered_grid


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meshes(max_faces=40))
def test_packed_tree_holds_every_node_and_leaf(mesh):
    tree = mesh.tree
    packed = packed_tree(tree, mesh.vertices, mesh.faces, np.dtype(np.float64))
    assert packed.spheres[1:, :3].tolist() == tree.centers.tolist()
    assert packed.spheres[1:, 3].tolist() == tree.radii.tolist()
    inner = tree.first_child >= 0
    assert (packed.links[inner] == tree.first_child[inner]).all()
    leaves = np.flatnonzero(~inner)
    assert (packed.links[leaves] == -1 - np.arange(len(leaves))).all()  # the k-th leaf by id
    assert (packed.faces[-1 - packed.links[leaves]] == tree.face[leaves]).all()
    assert (packed.corners == mesh.vertices[mesh.faces[packed.faces]]).all()
    assert sorted(packed.faces) == list(range(len(mesh.faces)))


@pytest.mark.parametrize("dtype, pair_bytes", [(np.float64, 64), (np.float32, 32)])
def test_children_share_a_cache_line(dtype, pair_bytes):
    """The two children of every inner node (rows c + 1, c + 2 for the first child c)
    start at a multiple of their 64 (32) bytes, from an array that starts on a line."""
    vertices, faces = jittered_grid(6)
    mesh = TriangleMesh(vertices, faces)
    packed = packed_tree(mesh.tree, vertices, faces, np.dtype(dtype))
    start = packed.spheres.ctypes.data
    assert start % CACHE_LINE_BYTES == 0
    children = mesh.tree.first_child[mesh.tree.first_child >= 0]
    offsets = (children + 1) * packed.spheres.strides[0]
    assert (offsets % pair_bytes == 0).all() and CACHE_LINE_BYTES % pair_bytes == 0
    assert packed.spheres.dtype == dtype and packed.corners.dtype == dtype
    assert packed.spheres.flags.c_contiguous and packed.spheres.flags.writeable


@pytest.mark.parametrize("shape, dtype", [((5, 4), np.float64), ((3,), np.int64), ((7, 3, 3), np.float32)])
def test_aligned_empty_starts_on_a_line(shape, dtype):
    for _ in range(8):
        array = aligned_empty(shape, dtype)
        assert array.shape == shape and array.dtype == dtype and array.flags.c_contiguous
        assert array.ctypes.data % CACHE_LINE_BYTES == 0
