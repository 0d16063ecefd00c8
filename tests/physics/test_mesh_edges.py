"""The edge analysis of a triangle mesh: neighbours across edges, the internal-edge
rule, face normals."""

from __future__ import annotations

from collections import defaultdict

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from sweeplab.physics import tolerance
from sweeplab.physics.mesh_edges import mesh_edges
from tests.physics.strategies import meshes
from tests.physics.test_bvh import grid_mesh, jittered_grid, with_threads


def neighbours_by_definition(faces: np.ndarray) -> np.ndarray:
    """The face across each edge: the one other holder of its two vertex indices, -1
    when the edge has one holder or more than two."""
    holders = defaultdict(list)
    for face, corners in enumerate(faces):
        for edge in range(3):
            holders[tuple(sorted((corners[edge], corners[(edge + 1) % 3])))].append((face, edge))
    neighbor = np.full(faces.shape, -1)
    for held in holders.values():
        if len(held) == 2:
            (face, edge), (other, other_edge) = held
            neighbor[face, edge], neighbor[other, other_edge] = other, face
    return neighbor


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meshes(max_faces=40))
def test_neighbours_match_the_definition(mesh):
    edges = mesh_edges(mesh.vertices, mesh.faces)
    assert np.array_equal(edges.neighbor, neighbours_by_definition(mesh.faces))
    assert np.array_equal(edges.internal_vertex, edges.internal & np.roll(edges.internal, 1, axis=1))
    assert not np.any(edges.internal & (edges.neighbor < 0))


def test_a_non_manifold_edge_has_no_neighbour():
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1]], float)
    edges = mesh_edges(vertices, np.array([[0, 1, 2], [1, 0, 3], [0, 1, 4]]))  # three faces on edge (0, 1)
    assert np.all(edges.neighbor == -1) and not np.any(edges.internal)
    two = mesh_edges(vertices, np.array([[0, 1, 2], [1, 0, 3]]))
    assert two.neighbor[:, 0].tolist() == [1, 0] and two.internal[:, 0].tolist() == [True, True]


def hinge(angle: float, flip: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Two triangles sharing the edge from (0, 0, 0) to (0, 1, 0), the second turned
    up by ``angle`` about it (``flip``: wound the other way)."""
    vertices = np.array([[0, 0, 0], [0, 1, 0], [-1, 0.5, 0], [np.cos(angle), 0.5, np.sin(angle)]])
    return vertices, np.array([[0, 1, 2], [1, 0, 3] if not flip else [0, 1, 3]])


@pytest.mark.parametrize("flip", [False, True])
def test_internal_edges_up_to_the_angle_tolerance(flip):
    limit = tolerance.INTERNAL_EDGE_ANGLE
    for angle, internal in ((0.0, True), (0.9 * limit, True), (-0.9 * limit, True), (1.1 * limit, False),
                            (0.5, False), (np.pi, False)):  # pi: folded onto the first face
        edges = mesh_edges(*hinge(angle, flip))
        assert edges.internal[:, 0].tolist() == [internal, internal], angle
        assert not np.any(edges.internal[:, 1:])  # the outer edges


AT_THE_LIMIT = 0.00010000000033333334
"""tan(1e-4): the second hinge face's normal (-s, 0, 1) / sqrt(s^2 + 1) is then
sin(INTERNAL_EDGE_ANGLE) = sin(1e-4) off the first face's (0, 0, 1), as computed."""


@pytest.mark.parametrize("rise, internal", [(np.nextafter(AT_THE_LIMIT, 0), True), (AT_THE_LIMIT, True),
                                            (np.nextafter(AT_THE_LIMIT, 1), False)])
def test_internal_edge_at_the_angle_tolerance(rise, internal):
    """The rule ``|n x n'| <= sin(INTERNAL_EDGE_ANGLE)`` (``is_internal``) at, one float
    inside and one float outside its threshold: a hinge whose second face rises by
    ``rise`` over a run of 1 (its normal (-rise, 0, 1) computed exactly, then
    divided by its length).  (With ``<`` the middle one was not internal.)"""
    assert abs(AT_THE_LIMIT / np.sqrt(AT_THE_LIMIT * AT_THE_LIMIT + 1.0)) == np.sin(tolerance.INTERNAL_EDGE_ANGLE)
    vertices = np.array([[0, 0, 0], [0, 1, 0], [-1, 0.5, 0], [1, 0.5, rise]])
    edges = mesh_edges(vertices, np.array([[0, 1, 2], [1, 0, 3]]))
    assert edges.internal[:, 0].tolist() == [internal, internal]


@pytest.mark.parametrize("angle, internal", [(5e-5, True), (2e-4, False)])
def test_internal_edge_angle_is_a_ten_thousandth_of_a_radian(angle, internal):
    """The documented value of ``tolerance.INTERNAL_EDGE_ANGLE`` (1e-4 rad) pinned by
    inputs: a hinge bent by 5e-5 rad (float32 floors are flat to ~1e-7) is flat
    there, one bent by 2e-4 rad (0.011 degrees) a crease.  (With 1e-5 the first was
    a crease; with 1e-3 the second was flat.)"""
    edges = mesh_edges(*hinge(angle))
    assert edges.internal[:, 0].tolist() == [internal, internal]


def test_zero_area_faces_have_a_zero_normal_and_no_internal_edge():
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [2, 0, 0], [5, 5, 5], [6, 5, 5]], float)
    # face 1 lies on a line, face 2 repeats a vertex: its edges 1 and 2 are the same two vertices
    edges = mesh_edges(vertices, np.array([[0, 1, 2], [1, 0, 3], [4, 4, 5]]))
    assert edges.face_normal.tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 0]]
    assert edges.neighbor.tolist() == [[1, -1, -1], [0, -1, -1], [-1, 2, 2]]
    assert not np.any(edges.internal)


def test_float32_normals_are_computed_in_float32():
    vertices, faces = jittered_grid(3)
    vertices = vertices.astype(np.float32)
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    u, v = b - a, c - a
    normal = np.stack([u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1], u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2],
                       u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]], axis=1)
    length = np.sqrt(normal[:, 0] * normal[:, 0] + normal[:, 1] * normal[:, 1] + normal[:, 2] * normal[:, 2])
    edges = mesh_edges(vertices, faces)
    assert edges.face_normal.dtype == np.float64
    assert np.array_equal(edges.face_normal, normal.astype(np.float64) / length.astype(np.float64)[:, None])


def test_the_analysis_is_the_same_with_one_thread_or_many():
    vertices, faces = jittered_grid(24)
    vertices[:, 2] = np.round(vertices[:, 2], 1) * 0  # flat: many internal edges
    one = with_threads(1, lambda: mesh_edges(vertices, faces))
    many = with_threads(numba.config.NUMBA_NUM_THREADS, lambda: mesh_edges(vertices, faces))
    assert np.any(one.internal)
    for a, b in zip(one, many, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def test_an_empty_mesh_and_bad_indices():
    empty = mesh_edges(np.zeros((0, 3)), np.zeros((0, 3), int))
    assert [field.shape for field in empty] == [(0, 3)] * 4
    vertices, faces = grid_mesh(1)
    with pytest.raises(ValueError, match="out of range"):
        mesh_edges(vertices, faces - 1)
