"""Sphere-against-mesh contacts and classification, against brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.physics import Sphere, TriangleMesh, tolerance
from sweeplab.physics.contacts import Classification, classify, contacts
from sweeplab.physics.core import EDGE
from sweeplab.physics.traversal import TraversalTrace
from tests.physics.brute_force import closest_on_triangle
from tests.physics.strategies import meshes, vector
from tests.physics.test_sweep_mesh import floor

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("height, expected", [
    (0.5 + 2.0**-40, Classification.CLEAR),
    (0.5, Classification.COLLIDING),  # exactly touching
    (0.5 - 2.0**-40, Classification.PENETRATING),
])
def test_classify_at_the_touching_height(height, expected):
    assert classify(Sphere([1.3, 0.2, height], 0.5), floor()) is expected


def test_contact_tolerance_widens_the_touching_band():
    sphere = Sphere([1.3, 0.2, 0.5 + 1e-6], 0.5)
    assert classify(sphere, floor(), contact_tolerance=1e-5) is Classification.COLLIDING
    sinking = Sphere([1.3, 0.2, 0.5 - 1e-6], 0.5)
    assert classify(sinking, floor(), contact_tolerance=1e-5) is Classification.COLLIDING
    assert classify(sinking, floor()) is Classification.PENETRATING
    with pytest.raises(ValueError, match="contact_tolerance"):
        classify(sphere, floor(), contact_tolerance=-1)


def test_classify_stops_at_the_first_penetration():
    mesh = floor(16)
    deep = Sphere([8.2, 8.3, 0.0], 3.0)  # overlaps ~ 100 triangles
    trace = TraversalTrace()
    assert classify(deep, mesh, trace=trace) is Classification.PENETRATING
    tested = trace.counts()["leaf hit"] + trace.counts()["leaf missed"]
    assert tested < len(contacts(deep, mesh).face)


def test_batched_classification():
    spheres = Sphere([[1.3, 0.2, 0.6], [1.3, 0.2, 0.5], [1.3, 0.2, 0.1]], 0.5)
    assert classify(spheres, floor()).tolist() == [0, 1, 2]


def test_contacts_of_a_sphere_sitting_on_a_vertex():
    """A ball centred over the grid vertex (1, 1): the six triangles around it touch,
    all with the face normal (the vertex and the edges there are internal)."""
    found = contacts(Sphere([1.0, 1.0, 0.25], 0.5), floor())
    assert sorted(found.face.tolist()) == [0, 1, 3, 4, 6, 7]
    assert np.allclose(found.normal, [0, 0, 1]) and np.allclose(found.depth, 0.25)
    assert np.allclose(found.point, [1, 1, 0])


SLIVER = np.array([[0.0, 1.125, 0.0], [0.0, -2.0, 2.860055766769644e-08], [0.0, 0.0, 0.0]])
"""A triangle of area ~3e-8 (hypothesis, local seed 2002)."""
SLIVER_ROTATION = np.array([[-1.0, 0.0, 0.0], [0.0, -0.28000000000000025, 0.96], [0.0, 0.96, 0.28]])


def test_regression_contacts_of_a_sliver():
    """Found by hypothesis: on this sliver the tests' own brute-force closest point
    (then Ericson's Voronoi-region method) was off by 1e-8 to 1e-2; sweeplab was
    right.  Distances here are exact (rational arithmetic on the world corners)."""
    on_vertex = TriangleMesh(SLIVER, [[0, 1, 2]], rotation=SLIVER_ROTATION)  # vertex 2 is the world origin
    found = contacts(Sphere([0.0, 0.0, 0.0], 1.0), on_vertex, raw_edge_normals=True)
    assert found.face.tolist() == [0] and found.depth[0] == 1.0 and np.all(found.point[0] == 0)
    assert contacts(Sphere([0.0, 0.0, 0.0], 0.0), on_vertex, raw_edge_normals=True).face.tolist() == [0]
    vertices = np.array([[0.0, 0.0, 0.0], [0.0, 1.5, 0.0], [0.0, -1.0, 2.860055766769644e-08]])
    rotation = np.array([[-0.9999999999999998, 0.0, 0.0], [0.0, -0.5999999999999999, 0.7999999999999999],
                         [0.0, 0.7999999999999999, 0.6000000000000001]])
    along_edge = TriangleMesh(vertices, [[0, 1, 2]], translation=[0.0, 0.0, 1.0], rotation=rotation)
    found = contacts(Sphere([0.0, 0.0, 0.0], 1.0), along_edge, raw_edge_normals=True)
    exact_distance = 0.6000000228804458  # to edge 2, from vertex 2 to vertex 0
    assert found.face.tolist() == [0] and (found.feature_code[0], found.feature_index[0]) == (EDGE, 2)
    assert abs(found.depth[0] - (1.0 - exact_distance)) <= tolerance.EXACT_RTOL
    corners = along_edge.to_world(vertices)
    assert math.dist(found.point[0], closest_on_triangle(tuple(found.point[0]), *map(tuple, corners))) \
        <= tolerance.EXACT_RTOL


@SETTINGS
@given(meshes(), vector, st.floats(0.0, 2.5))
def test_contacts_are_every_triangle_within_the_radius(mesh, center, sphere_radius):
    found = contacts(Sphere(center, sphere_radius), mesh, raw_edge_normals=True)
    corners = mesh.to_world(mesh.vertices)[mesh.faces]
    p = tuple(float(c) for c in center)
    distances = np.array([math.dist(p, closest_on_triangle(p, *map(tuple, tri))) for tri in corners])
    scale = 1.0 + float(np.abs(corners).max()) + float(np.abs(center).max())
    bound = tolerance.LENGTH_RTOL * scale
    clearly_in = set(np.flatnonzero(distances < sphere_radius - bound))
    clearly_out = set(np.flatnonzero(distances > sphere_radius + bound))
    reported = set(found.face.tolist())
    assert clearly_in <= reported and not (reported & clearly_out)
    for face, depth, point in zip(found.face, found.depth, found.point, strict=True):
        assert abs(depth - (sphere_radius - distances[face])) <= bound
        assert math.dist(point, closest_on_triangle(tuple(point), *map(tuple, corners[face]))) <= bound
    assert np.all(found.depth[:-1] >= found.depth[1:])  # deepest first
    expected = (Classification.PENETRATING if clearly_in else
                Classification.CLEAR if len(clearly_out) == len(corners) else None)
    if expected is not None:
        assert classify(Sphere(center, sphere_radius), mesh) is expected


def test_speculative_contacts_within_the_tolerance_report_the_gap():
    hovering = Sphere([1.3, 0.2, 0.5 + 1e-6], 0.5)
    assert len(contacts(hovering, floor()).face) == 0
    found = contacts(hovering, floor(), contact_tolerance=1e-5)
    assert found.face.tolist() == [2] and abs(found.depth[0] + 1e-6) <= 1e-15
    with pytest.raises(ValueError, match="contact_tolerance"):
        contacts(hovering, floor(), contact_tolerance=-1e-3)
