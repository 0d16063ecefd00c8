"""The sphere tree: structure, tightness, validation, and the mesh pose it serves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from physics import TriangleMesh
from physics.bvh import build_sphere_tree, smallest_triangle_spheres
from physics.tolerance import EXACT_RTOL
from tests.physics.strategies import meshes


def grid_mesh(count: int) -> tuple[np.ndarray, np.ndarray]:
    """A flat count x count grid of unit squares, two triangles each."""
    xs, ys = np.meshgrid(np.arange(count + 1.0), np.arange(count + 1.0), indexing="ij")
    vertices = np.stack([xs.ravel(), ys.ravel(), np.zeros(xs.size)], axis=1)
    index = np.arange((count + 1) ** 2).reshape(count + 1, count + 1)
    a, b, c, d = index[:-1, :-1].ravel(), index[1:, :-1].ravel(), index[1:, 1:].ravel(), index[:-1, 1:].ravel()
    return vertices, np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])


def test_structure_of_a_grid_tree():
    vertices, faces = grid_mesh(8)  # 128 triangles
    tree = build_sphere_tree(vertices, faces)
    tree.validate(vertices, faces)
    assert tree.node_count == 2 * 128 - 1
    assert tree.height == 8  # a balanced median split: 2^7 = 128 leaves on the last level
    assert np.array_equal(np.sort(tree.face[tree.face >= 0]), np.arange(128))
    assert np.all(tree.depth[tree.nodes_at_depth(3)] == 3)
    inner = np.flatnonzero(tree.first_child >= 0)
    assert np.all(tree.parent[tree.first_child[inner]] == inner)
    assert np.all(tree.parent[tree.first_child[inner] + 1] == inner)
    # median split: the two children of every node hold the same number of leaves, +-1
    for node in inner[:20]:
        left, right = (len(tree.leaves_under(child)) for child in (tree.first_child[node], tree.first_child[node] + 1))
        assert left in (right, right - 1)


def test_root_sphere_is_tight_for_a_square():
    vertices, faces = grid_mesh(4)  # the square [0, 4]^2
    tree = build_sphere_tree(vertices, faces)
    assert np.allclose(tree.centers[0], [2, 2, 0])
    assert abs(tree.radii[0] - np.sqrt(8)) <= EXACT_RTOL  # the corners: no slack at all


def test_split_follows_the_widest_axis():
    """A long strip along y splits across y first: each child holds one half."""
    vertices, faces = grid_mesh(8)
    strip = vertices * [0.01, 1, 1]
    tree = build_sphere_tree(strip, faces)
    left = tree.leaves_under(1)
    centroid_y = strip[faces[tree.face[left]]][:, :, 1].mean(axis=1)
    assert centroid_y.max() <= 4 + 1e-12


def test_leaf_spheres_are_the_smallest():
    right = np.array([[[0, 0, 0], [2, 0, 0], [0, 2, 0]]], float)  # right angle: sphere on the hypotenuse
    equilateral = np.array([[[1, 0, 0], [-0.5, np.sqrt(3) / 2, 0], [-0.5, -np.sqrt(3) / 2, 0]]])
    flat = np.array([[[0, 0, 0], [1, 0, 0], [3, 0, 0]]], float)  # zero area: the longest edge
    point = np.zeros((1, 3, 3))
    centers, radii = smallest_triangle_spheres(np.concatenate([right, equilateral, flat, point]))
    assert np.allclose(centers, [[1, 1, 0], [0, 0, 0], [1.5, 0, 0], [0, 0, 0]], atol=1e-15)
    assert np.allclose(radii, [np.sqrt(2), 1, 1.5, 0], atol=1e-15)


def test_validate_catches_a_shrunken_sphere_and_a_lost_triangle():
    vertices, faces = grid_mesh(4)
    tree = build_sphere_tree(vertices, faces)
    tree.radii[5] *= 0.999
    with pytest.raises(ValueError, match="node 5"):
        tree.validate(vertices, faces)
    tree = build_sphere_tree(vertices, faces)
    leaf = np.flatnonzero(tree.face >= 0)[0]
    tree.face[leaf] = tree.face[np.flatnonzero(tree.face >= 0)[1]]
    with pytest.raises(ValueError, match="exactly once"):
        tree.validate(vertices, faces)


def test_single_triangle_tree():
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    tree = build_sphere_tree(vertices, np.array([[0, 1, 2]]))
    assert tree.node_count == 1 and tree.face[0] == 0 and tree.first_child[0] == -1
    tree.validate(vertices, np.array([[0, 1, 2]]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meshes(max_faces=40))
def test_every_random_tree_validates(mesh):
    mesh.tree.validate(mesh.vertices, mesh.faces)


def test_mesh_pose_validation_and_sharing():
    vertices, faces = grid_mesh(2)
    mesh = TriangleMesh(vertices, faces)
    with pytest.raises(ValueError, match="rotation"):
        TriangleMesh(vertices, faces, rotation=np.diag([1.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="rotation"):
        TriangleMesh(vertices, faces, rotation=np.diag([1.0, 1.0, -1.0]))  # a mirror
    with pytest.raises(ValueError, match="translation"):
        TriangleMesh(vertices, faces, translation=[0, np.nan, 0])
    with pytest.raises(ValueError, match="at least one"):
        TriangleMesh(vertices, np.zeros((0, 3), int))
    quarter_turn = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]])
    moved = mesh.moved(translation=[1, 2, 3], rotation=quarter_turn)
    assert moved.tree is mesh.tree  # never rebuilt
    assert np.allclose(moved.to_world([[1, 0, 0]]), [[1, 3, 3]])
    assert np.allclose(moved.to_body(moved.to_world(vertices)), vertices)
    assert mesh.has_identity_pose and not moved.has_identity_pose
