"""Sphere against a two-sided convex polygon (square and pentagon)."""

import math

import numpy as np
import pytest

from sweeplab.physics import Point, Polygon, Sphere, sweep, tolerance
from tests.physics.expect import assert_hit, assert_miss

GRAZE = 2.0 ** -40
SQUARE = Polygon([[0.0, 0, 0], [2.0, 0, 0], [2.0, 2, 0], [0.0, 2, 0]])


def test_face_hit_reports_face_index_zero():
    result = sweep(Sphere([1.0, 1, 5], 1.0), SQUARE, [0.0, 0, -10])
    assert_hit(result, t=0.4, normal=[0, 0, 1], point=[1, 1, 0], feature=("face", 0), face_index=0)


def test_edge_hit():
    result = sweep(Sphere([1.0, -5, 0], 1.0), SQUARE, [0.0, 10, 0])
    assert_hit(result, t=0.4, normal=[0, -1, 0], point=[1, 0, 0], feature=("edge", 0), face_index=0)


def test_last_edge_closes_the_loop():
    result = sweep(Sphere([-5.0, 1, 0], 1.0), SQUARE, [10.0, 0, 0])
    assert_hit(result, t=0.4, normal=[-1, 0, 0], point=[0, 1, 0], feature=("edge", 3), face_index=0)


def test_vertex_hit():
    result = sweep(Sphere([7.0, 7, 0], 1.0), SQUARE, [-10.0, -10, 0])
    s = math.sqrt(0.5)
    assert_hit(result, t=(5 * math.sqrt(2) - 1) / (10 * math.sqrt(2)), normal=[s, s, 0], point=[2, 2, 0],
               feature=("vertex", 2), face_index=0)


def test_graze_along_the_face_plane_edge():
    assert_hit(sweep(Sphere([1.0, -5, 1.0], 1.0), SQUARE, [0.0, 10, 0]), t=0.5, normal=[0, 0, 1], point=[1, 0, 0],
               face_index=0)
    assert_miss(sweep(Sphere([1.0, -5, 1.0 + GRAZE], 1.0), SQUARE, [0.0, 10, 0]))


def test_pentagon_face_hit_and_collinear_vertices():
    angles = 2 * np.pi * np.arange(5) / 5
    pentagon = Polygon(np.stack([np.cos(angles), np.sin(angles), np.zeros(5)], axis=1))
    assert_hit(sweep(Sphere([0.0, 0, 3], 0.5), pentagon, [0.0, 0, -5]), t=0.5, normal=[0, 0, 1], point=[0, 0, 0],
               face_index=0)
    collinear = Polygon([[0.0, 0, 0], [1.0, 0, 0], [2.0, 0, 0], [2.0, 2, 0], [0.0, 2, 0]])
    assert_hit(sweep(Sphere([0.5, -5, 0], 1.0), collinear, [0.0, 10, 0]), t=0.4, normal=[0, -1, 0],
               point=[0.5, 0, 0], feature=("edge", 0), face_index=0)


def test_tilted_polygon_far_from_origin():
    offset = np.array([1e6, -1e6, 1e6])
    tilted = Polygon(SQUARE.vertices @ np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]]).T + offset)
    result = sweep(Sphere(offset + [1.0, -5, -1], 1.0), tilted, [0.0, 10, 0])
    assert_hit(result, t=0.4, normal=[0, -1, 0], point=offset + [1, 0, -1], face_index=0, scale=1e6)


def test_zero_area_polygon_is_its_edges():
    flat = Polygon([[0.0, 0, 0], [2.0, 0, 0], [2.0, 0, 0], [0.0, 0, 0]])
    assert_hit(sweep(Sphere([1.0, 0, 5], 1.0), flat, [0.0, 0, -10]), t=0.4, normal=[0, 0, 1], point=[1, 0, 0],
               feature=("edge", 0), face_index=0)


def test_initial_overlap():
    result = sweep(Sphere([1.0, 1, -0.25], 1.0), SQUARE, [0.0, 0, 1])
    assert_hit(result, t=0.0, normal=[0, 0, -1], point=[1, 1, 0], depth=0.75, feature=("face", 0), face_index=0)
    assert sweep(Sphere([1.0, 1, -0.25], 1.0), SQUARE, [0.0, 0, -1], ignore_separating=True).hit is False


def test_polygon_of_coinciding_vertices_has_no_face():
    """Regression (hypothesis, CI run of session 2): three vertices equal up to
    round-off had a Newell normal of pure noise, every edge too short to bound the
    face, so the whole plane through them counted as the face and a point at the
    origin 1 away "touched" it.  Such a polygon is its edges only."""
    noise = Polygon([[0.6000000000000001, 0.7999999999999999, 0.0], [0.5999999999999984, 0.8000000000000012, 0.0],
                     [0.5999999999999992, 0.8000000000000006, 0.0]])
    assert_miss(sweep(Sphere([0.0, 0.0, 0.0], 0.0), noise, [0.0, 0.0, 0.0]))
    result = sweep(Sphere([0.6, 0.8, 2.0], 0.5), noise, [0.0, 0.0, -3.0])
    assert result.hit and result.feature.kind in ("edge", "vertex")


def chamfered_square(leg: float) -> Polygon:
    """The unit square with its corner (1, 1) cut off by an edge of legs ``leg``."""
    return Polygon([[0.0, 0, 0], [1.0, 0, 0], [1.0, 1 - leg, 0], [1 - leg, 1, 0], [0.0, 1, 0]])


@pytest.mark.parametrize("length_in_slacks, hits", [(0.5, True), (2.0, False)])
def test_a_chamfer_edge_bounds_the_face_only_beyond_the_slack(length_in_slacks, hits):
    """An edge no longer than the polygon's slack (``tolerance.POLYGON_RTOL`` of its
    extent, plus the coordinates' rounding: 1.7e-9 here) does not bound the face in
    the inside test (``ball_core``).  A point ray comes down beside the chamfer, a
    quarter of a leg in from the cut corner on either side: 1/(4 sqrt 2) of the
    chamfer's length outside it.  A chamfer twice the slack long bounds the face: a
    miss (the ray passes beside the edge).  Half the slack long it is a near-duplicate
    vertex: the ray hits the face at t = 0.5.  (With the slack x10 the longer chamfer
    was ignored too: a face hit; /10 the shorter one bounded the face: a miss.)"""
    probe = chamfered_square(1e-9).vertices  # the slack barely depends on the leg
    extent = 2 * np.linalg.norm(probe - probe.mean(axis=0), axis=1).max()
    slack = tolerance.POLYGON_RTOL * extent + tolerance.COORDINATE_ROUNDING_ULPS * np.finfo(float).eps
    leg = length_in_slacks * slack / math.sqrt(2)
    corner = 1 - leg / 4
    result = sweep(Point([corner, corner, 1.0]), chamfered_square(leg), [0.0, 0, -2])
    if hits:
        assert_hit(result, t=0.5, normal=[0, 0, 1], point=[corner, corner, 0], feature=("face", 0), face_index=0)
    else:
        assert_miss(result)
