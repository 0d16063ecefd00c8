"""The sphere tree: structure, tightness, validation, and the mesh pose it serves."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from sweeplab.physics import TriangleMesh
from sweeplab.physics.bvh import build_sphere_tree, select, smallest_triangle_spheres
from sweeplab.physics.tolerance import EXACT_RTOL
from tests.physics.strategies import meshes


def grid_mesh(count: int) -> tuple[np.ndarray, np.ndarray]:
    """A flat count x count grid of unit squares, two triangles each."""
    xs, ys = np.meshgrid(np.arange(count + 1.0), np.arange(count + 1.0), indexing="ij")
    vertices = np.stack([xs.ravel(), ys.ravel(), np.zeros(xs.size)], axis=1)
    index = np.arange((count + 1) ** 2).reshape(count + 1, count + 1)
    a, b, c, d = index[:-1, :-1].ravel(), index[1:, :-1].ravel(), index[1:, 1:].ravel(), index[:-1, 1:].ravel()
    return vertices, np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])


def jittered_grid(count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``grid_mesh`` with every vertex moved a little in x, y and z."""
    vertices, faces = grid_mesh(count)
    return vertices + np.random.default_rng(seed).uniform(-0.3, 0.3, vertices.shape), faces


def with_threads(count: int, compute):
    """``compute()`` run with numba's thread count set to ``count`` (restored after)."""
    before = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        return compute()
    finally:
        numba.set_num_threads(before)


TREE_ARRAYS = ("center_components", "radii", "first_child", "parent", "face", "depth", "level_starts")


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


@pytest.mark.parametrize("shear, accepted", [(np.nextafter(1e-9, 0), True), (1e-9, True),
                                             (np.nextafter(1e-9, 1), False), (1e-8, False)])
def test_a_pose_rotation_is_orthonormal_to_a_billionth(shear, accepted):
    """``tolerance.ROTATION_ATOL`` (1e-9, written out to pin it) at, one float inside
    and one float outside its threshold, and ten times beyond: the identity with
    ``shear`` in row 0, column 1, whose R^T R - I has that entry exactly (1 x shear,
    plus 0 x 1 and 0 x 0; its diagonal is off by shear^2 only).  (With ``>=`` the
    second was refused; with the tolerance x10 the last two were taken, /10 the first
    refused.)"""
    rotation = np.eye(3)
    rotation[0, 1] = shear
    assert np.abs(rotation.T @ rotation - np.eye(3)).max() == shear
    mesh = TriangleMesh(*grid_mesh(1))
    if accepted:
        assert mesh.moved(rotation=rotation).rotation[0, 1] == shear
    else:
        with pytest.raises(ValueError, match="rotation must be a proper rotation matrix"):
            mesh.moved(rotation=rotation)


def test_the_tree_is_the_same_with_one_thread_or_many():
    vertices, faces = jittered_grid(24)  # 1,152 triangles: levels of up to 576 nodes, shared out among threads
    one = with_threads(1, lambda: build_sphere_tree(vertices, faces))
    many = with_threads(numba.config.NUMBA_NUM_THREADS, lambda: build_sphere_tree(vertices, faces))
    for name in TREE_ARRAYS:
        assert np.array_equal(getattr(one, name), getattr(many, name)), name
    assert one.extent == many.extent


@pytest.mark.parametrize("seed", range(4))
def test_every_split_is_the_median_along_the_widest_axis(seed):
    """The left child holds the count // 2 lowest triangles along the axis of widest
    centroid spread (the first such axis), equal centroid coordinates ranked by
    triangle index: coordinates on a coarse lattice make ties everywhere."""
    rng = np.random.default_rng(seed)
    vertices = np.round(rng.uniform(-2, 2, (10, 3)))
    faces = rng.integers(0, 10, (150, 3))  # zero-area faces and repeated triangles among them
    tree = build_sphere_tree(vertices, faces)
    centroids = (vertices[faces[:, 0]] + vertices[faces[:, 1]] + vertices[faces[:, 2]]) / 3
    for node in np.flatnonzero(tree.first_child >= 0):
        held = tree.face[tree.leaves_under(node)]
        axis = np.argmax(np.ptp(centroids[held], axis=0))
        ranked = held[np.lexsort((held, centroids[held, axis]))]
        left = tree.face[tree.leaves_under(tree.first_child[node])]
        assert np.array_equal(np.sort(left), np.sort(ranked[:len(held) // 2])), node


def test_node_spheres_are_tight():
    """A leaf's sphere is its triangle's smallest; an inner node's is centred on the box
    of its vertices, its farthest vertex exactly on the surface (as ``validate``
    computes distances)."""
    vertices, faces = jittered_grid(6)
    tree = build_sphere_tree(vertices, faces)
    for node in range(tree.node_count):
        corners = vertices[faces[tree.face[tree.leaves_under(node)]]]
        center = tree.centers[node]
        if tree.first_child[node] < 0:
            leaf_center, leaf_radius = smallest_triangle_spheres(corners)
            assert np.array_equal(center, leaf_center[0]) and tree.radii[node] == leaf_radius[0]
            continue
        points = corners.reshape(-1, 3)
        assert np.array_equal(center, 0.5 * (points.min(axis=0) + points.max(axis=0)))
        offset = points - center
        distance = np.sqrt(offset[:, 0] * offset[:, 0] + offset[:, 1] * offset[:, 1] + offset[:, 2] * offset[:, 2])
        assert distance.max() == tree.radii[node]


def _odd_meshes():
    triangle = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    points = np.array([[0, 0, 0], [1, 0, 0], [3, 0, 0], [1, 1, 1]], float)
    vertices, faces = jittered_grid(3)
    return {
        "one triangle": (triangle, [[0, 1, 2]]),
        "all triangles identical": (triangle, [[0, 1, 2]] * 37),
        "one triangle repeated both windings": (triangle, [[0, 1, 2], [2, 1, 0]] * 9),
        "zero-area faces": (points, [[0, 1, 2], [0, 0, 0], [1, 1, 3], [3, 3, 3], [0, 2, 1], [0, 1, 3]]),
        "all vertices at one point": (np.zeros((3, 3)), [[0, 1, 2], [0, 0, 1], [2, 2, 2]]),
        "huge coordinates (squares overflow)": (vertices * 1e300, faces),
        "tiny coordinates (squares underflow)": (vertices * 1e-300, faces),
        "subnormal coordinates": (vertices * 5e-324, faces),
        "far from the origin": (vertices + 1e15, faces),
        "float32": (vertices.astype(np.float32), faces),
        "int32 faces": (vertices, faces.astype(np.int32)),
    }


@pytest.mark.parametrize("name", list(_odd_meshes()))
def test_odd_and_degenerate_meshes_give_valid_trees(name):
    vertices, faces = _odd_meshes()[name]
    faces = np.asarray(faces)
    with np.errstate(over="ignore", invalid="ignore"):  # huge coordinates: squares overflow (as plain Python too)
        tree = build_sphere_tree(vertices, faces)
        tree.validate(vertices, faces)
    assert tree.height == math.ceil(math.log2(len(faces))) + 1  # n splits into n // 2 and n - n // 2


def test_faces_out_of_range_are_refused():
    vertices, faces = grid_mesh(1)
    with pytest.raises(ValueError, match="out of range"):
        build_sphere_tree(vertices, faces + 2)


@pytest.mark.parametrize("rounds", [0, 1, 3, 64])
def test_select_puts_the_kth_triangle_in_place(rounds):
    """Quickselect, with its heapsort once ``rounds`` partitions are spent: position
    kth holds the triangle of that rank (coordinate, NaN last, then index), the lower
    ones before it, each triangle's centroid moved along with it."""
    rng = np.random.default_rng(rounds)
    for _ in range(40):
        count = int(rng.integers(1, 80))
        centroids = np.round(rng.normal(size=(count, 3)), 1)  # ties
        centroids[rng.random(count) < 0.1, 2] = np.nan
        triangles = rng.permutation(count)
        kth, axis = int(rng.integers(0, count)), int(rng.integers(0, 3))
        ranked = triangles[np.lexsort((triangles, centroids[:, axis]))]
        by_triangle = np.empty_like(centroids)
        by_triangle[triangles] = centroids
        order, moved = triangles.copy(), centroids.copy()
        select(order, moved, axis, 0, count - 1, kth, rounds)
        assert order[kth] == ranked[kth]
        assert np.array_equal(np.sort(order[:kth]), np.sort(ranked[:kth]))
        assert np.array_equal(moved, by_triangle[order], equal_nan=True)
        if rounds == 0:  # the heapsort sorted every position
            assert np.array_equal(order, ranked)
