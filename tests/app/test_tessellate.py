"""Drawn geometry: convex solids wind outward (the renderer culls their back faces)."""

import numpy as np
import pytest

from sweeplab.scene import tessellate
from sweeplab.scene.shape_kinds import KINDS, POLYHEDRA, build_shape, drawn_mesh


def _outward_areas(mesh: tessellate.Mesh, inside_point) -> np.ndarray:
    """Per triangle, twice its area signed by whether its winding faces away from ``inside_point``."""
    corners = mesh.triangles
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    areas = np.linalg.norm(normals, axis=1)
    outward = np.einsum("ij,ij->i", normals, corners.mean(axis=1) - inside_point)
    return np.where(outward > 0, areas, -areas)


@pytest.mark.parametrize("a, b, radius", [([0, 0, 0], [0, 0, 0], 1.0), ([1, -2, 3], [1.5, 2, 3.5], 0.25),
                                          ([0, 0, 0], [0, 0, 5], 2.0)])
def test_capsule_triangles_wind_outward_and_have_area(a, b, radius):
    mesh = tessellate.capsule(a, b, radius)
    a, b = np.asarray(a, float), np.asarray(b, float)
    axis = b - a
    length_squared = axis @ axis
    centroids = mesh.triangles.mean(axis=1)
    along = np.clip((centroids - a) @ axis / length_squared, 0, 1) if length_squared else np.zeros(len(centroids))
    nearest_on_core = a + along[:, None] * axis
    corners = mesh.triangles
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    outward = np.einsum("ij,ij->i", normals, centroids - nearest_on_core)
    assert mesh.convex
    assert np.all(outward > 0)
    assert np.all(np.linalg.norm(normals, axis=1) > 1e-6 * radius * radius)
    distances = np.linalg.norm(corners.reshape(-1, 3) - (a + np.clip(
        (corners.reshape(-1, 3) - a) @ axis / (length_squared or 1), 0, 1)[:, None] * axis), axis=1)
    np.testing.assert_allclose(distances, radius, rtol=1e-12)


def test_solid_polyhedra_are_convex_and_wind_outward_flat_ones_are_two_sided():
    for vertices in POLYHEDRA.values():
        mesh = drawn_mesh("polyhedron", {**KINDS["polyhedron"].defaults, "vertices": vertices})
        assert mesh.convex
        assert np.all(_outward_areas(mesh, np.mean(vertices, axis=0)) > 0)
    square = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]
    flat = drawn_mesh("polyhedron", {**KINDS["polyhedron"].defaults, "vertices": square})
    assert not flat.convex


def test_translated_mesh_keeps_convex_and_moves_its_bounds():
    mesh = tessellate.capsule([0, 0, 0], [1, 0, 0], 0.5)
    moved = mesh.translated([10.0, -2.0, 0.5])
    assert moved.convex
    low, high = moved.bounds()
    np.testing.assert_allclose(low, mesh.bounds()[0] + [10.0, -2.0, 0.5])
    np.testing.assert_allclose(high, mesh.bounds()[1] + [10.0, -2.0, 0.5])
    every = moved.triangles.reshape(-1, 3)
    np.testing.assert_allclose(low, every.min(axis=0), atol=1e-12)
    np.testing.assert_allclose(high, every.max(axis=0), atol=1e-12)


def test_shapes_are_built_once_per_distinct_parameters_and_dtype():
    params = {"center": [0.1, 0.2, 0.3], "radius": 0.5}
    assert build_shape("sphere", params) is build_shape("sphere", dict(params))
    assert build_shape("sphere", params, np.float32) is not build_shape("sphere", params)
    assert build_shape("sphere", params, np.float32).center.dtype == np.float32
    nudged = {"center": [0.1, 0.2, np.nextafter(0.3, 1)], "radius": 0.5}
    assert build_shape("sphere", nudged).center[2] == np.nextafter(0.3, 1)
    assert build_shape("sphere", {"center": np.array([0.1, 0.2, 0.3]), "radius": np.float64(0.5)}) \
        is build_shape("sphere", params)


def test_invalid_parameters_are_not_cached():
    with pytest.raises(ValueError, match="radius"):
        build_shape("sphere", {"center": [0, 0, 0], "radius": -1.0})
    with pytest.raises(ValueError, match="radius"):
        build_shape("sphere", {"center": [0, 0, 0], "radius": -1.0})
