"""Target cores as the compiled kernels see them: face normal, inside test, widest
feature, rounding."""

import math

import numpy as np

from sweeplab.physics.core import (EDGE, FACE, VERTEX, bounding_ball, core_rounding, edge_count, face_normal,
                                   inside_face, is_within_rounding, newell_normal, newell_vector,
                                   widest_feature)

TRIANGLE = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def _normal(vertices):
    return face_normal(vertices, 2 * bounding_ball(vertices)[1], core_rounding(vertices))


def test_face_normal_follows_the_winding_and_vanishes_without_area():
    assert _normal(TRIANGLE) == (0.0, 0.0, 1.0)
    assert _normal(TRIANGLE[::-1].copy()) == (0.0, 0.0, -1.0)
    assert _normal(np.array([[0.0, 0, 0], [1.0, 0, 0], [3.0, 0, 0]])) == (0.0, 0.0, 0.0)  # a sliver
    nearly_a_point = np.array([[1.0, 1, 1], [1.0, 1, 1 + 2.0**-52], [1.0 + 2.0**-52, 1, 1]])
    assert _normal(nearly_a_point) == (0.0, 0.0, 0.0)  # its area is round-off


def test_bounding_ball_and_rounding():
    segment = np.array([[-1.0, 0, 0], [1.0, 0, 0]])
    assert bounding_ball(segment) == ((0.0, 0.0, 0.0), 1.0)  # an extent of 2
    assert core_rounding(segment) == 64 * 2.0**-52


def test_inside_face_counts_the_boundary():
    normal, slack = (0.0, 0.0, 1.0), 1e-9
    assert inside_face(TRIANGLE, normal, (0.5, 0.25, 7.0), slack, 0.0)
    assert inside_face(TRIANGLE, normal, (1.0, 0.0, 0.0), slack, 0.0)  # on edge 0
    assert not inside_face(TRIANGLE, normal, (1.0, 0.6, 0.0), slack, 0.0)
    assert not inside_face(TRIANGLE, (0.0, 0.0, 0.0), (0.5, 0.25, 0.0), slack, 0.0)  # no face


def test_widest_feature_face_longest_edge_or_vertex():
    assert widest_feature(TRIANGLE, (0.0, 0.0, 1.0)) == (FACE, (0.0, 0.0, 1.0))
    sliver = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [3.0, 0.0, 0.0]])
    assert widest_feature(sliver, (0.0, 0.0, 0.0)) == (EDGE, (-3.0, 0.0, 0.0))  # edge 2 -> 0
    assert widest_feature(np.full((3, 3), 5.0), (0.0, 0.0, 0.0)) == (VERTEX, (0.0, 0.0, 0.0))
    assert widest_feature(np.array([[0.0, 0, 0], [0.0, 2, 0]]), (0.0, 0.0, 0.0)) == (EDGE, (0.0, 2.0, 0.0))
    assert [edge_count(np.zeros((count, 3))) for count in (1, 2, 3, 5)] == [0, 1, 3, 5]


def test_within_rounding_scales_with_the_coordinates():
    assert is_within_rounding((1e-14, 0.0, 0.0), 1.0)
    assert not is_within_rounding((1e-13, 0.0, 0.0), 1.0)
    assert is_within_rounding((1e-8, 0.0, 0.0), 1e6)


def test_within_rounding_at_its_threshold():
    """``is_within_rounding``'s ``<=`` at, one float inside and one float outside the
    rounding of unit coordinates: ``COORDINATE_ROUNDING_ULPS`` (64) ulps of 1, 2^-46,
    written out to pin the count.  (With ``<`` the first was outside.)"""
    rounding = 64 * 2.0**-52
    assert is_within_rounding((rounding, 0.0, 0.0), 1.0)
    assert is_within_rounding((math.nextafter(rounding, 0), 0.0, 0.0), 1.0)
    assert not is_within_rounding((math.nextafter(rounding, 1), 0.0, 0.0), 1.0)


def test_a_face_normal_no_longer_than_the_rounding_of_the_extent_vanishes():
    """``face_normal``'s ``length > rounding * extent`` at its threshold: the triangle's
    Newell normal is (0, 0, 2); with an extent of 1 and a rounding of 2 it is exactly
    that rounding (no face), one float below it a face, one float above none.  (With
    ``>=`` the first had a face.)"""
    assert face_normal(TRIANGLE, 1.0, 2.0) == (0.0, 0.0, 0.0)
    assert face_normal(TRIANGLE, 1.0, math.nextafter(2.0, 0)) == (0.0, 0.0, 1.0)
    assert face_normal(TRIANGLE, 1.0, math.nextafter(2.0, 3)) == (0.0, 0.0, 0.0)


def test_an_edge_no_longer_than_the_slack_does_not_bound_the_face():
    """``inside_face``'s ``length > slack`` at its threshold: edge 2 of the triangle,
    from (0, 1, 0) to the origin, is 1 long; the point (-0.1, 0.5, 0) lies beyond it
    only.  With a slack of 1 (at) or one float more the edge does not bound the face:
    inside; one float less it does: outside.  (With ``>=`` the first was outside.)"""
    beyond_edge_2 = (-0.1, 0.5, 0.0)
    assert inside_face(TRIANGLE, (0.0, 0.0, 1.0), beyond_edge_2, 1.0, 0.0)
    assert inside_face(TRIANGLE, (0.0, 0.0, 1.0), beyond_edge_2, math.nextafter(1.0, 2), 0.0)
    assert not inside_face(TRIANGLE, (0.0, 0.0, 1.0), beyond_edge_2, math.nextafter(1.0, 0), 0.0)


def test_inside_face_margin_at_its_threshold():
    """``inside_face``'s ``>= -margin |edge|`` at its threshold: (1, -0.25, 0) lies 0.25
    outside edge 0 (the 2 long edge along x); with a margin of 0.25 (at) or one float
    more it counts as inside, one float less it does not.  (With ``>`` the first was
    outside.)"""
    below_edge_0 = (1.0, -0.25, 0.0)
    assert inside_face(TRIANGLE, (0.0, 0.0, 1.0), below_edge_0, 0.0, 0.25)
    assert inside_face(TRIANGLE, (0.0, 0.0, 1.0), below_edge_0, 0.0, math.nextafter(0.25, 1))
    assert not inside_face(TRIANGLE, (0.0, 0.0, 1.0), below_edge_0, 0.0, math.nextafter(0.25, 0))


def test_newell_vector_is_twice_the_area_along_the_winding_normal():
    assert newell_vector(TRIANGLE) == (0.0, 0.0, 2.0)
    far_square = np.array([[1e6, 1e6, 5.0], [1e6 + 2, 1e6, 5.0], [1e6 + 2, 1e6 + 2, 5.0], [1e6, 1e6 + 2, 5.0]])
    assert newell_vector(far_square) == (0.0, 0.0, 8.0)  # offsets from vertex 0: exact far from the origin
    assert newell_vector(far_square[::-1].copy()) == (0.0, 0.0, -8.0)


def test_newell_normal_of_offsets_from_vertex_0_is_newell_vector_bit_for_bit():
    """The NumPy Newell sum (arrays of polygons) and the kernels' are one sum."""
    rng = np.random.default_rng(1)
    for count in (3, 4, 7):
        polygons = rng.normal(size=(50, count, 3)) * 10.0 ** rng.uniform(-3, 3, (50, 1, 1))
        batch = newell_normal(polygons - polygons[:, :1])
        for polygon, expected in zip(polygons, batch, strict=True):
            assert newell_vector(polygon) == tuple(expected.tolist())


def test_length_at_and_beyond_the_smallest_normal_square():
    """``geometry.length``: below 2^-511 a component's square is no longer a normal
    float, and |a| is taken at unit size (plain sqrt(a . a) gave 0 for 1e-170, the
    1e-171 normal of issue #31); at 2^-511 the square is the smallest normal."""
    from sweeplab.physics.geometry import length

    at = 2.0 ** -511
    assert length((at, 0.0, 0.0)) == at
    assert length((at / 2, 0.0, 0.0)) == at / 2
    assert length((3e-170, 4e-170, 0.0)) == math.hypot(3e-170, 4e-170)
    assert length((3e200, 4e200, 0.0)) == math.hypot(3e200, 4e200)  # the square overflows
    assert length((0.0, 0.0, 0.0)) == 0.0
