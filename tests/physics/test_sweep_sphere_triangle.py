"""Sphere against a two-sided triangle: face slab, edge cylinders, vertex balls.

The triangle is A=(0,0,0), B=(4,0,0), C=(0,4,0) in the plane z = 0; edge 0 is AB.
"""

import math
from decimal import Decimal, getcontext

import pytest

from sweeplab.physics import Sphere, Triangle, sweep
from tests.physics.expect import assert_hit, assert_miss

getcontext().prec = 60
GRAZE = 2.0 ** -40
TRIANGLE = Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0])


def test_face_head_on():
    result = sweep(Sphere([1.0, 1, 5], 1.0), TRIANGLE, [0.0, 0, -10])
    assert_hit(result, t=0.4, normal=[0, 0, 1], point=[1, 1, 0], feature=("face", 0))


def test_back_face_is_hit_too():
    result = sweep(Sphere([1.0, 1, -5], 1.0), TRIANGLE, [0.0, 0, 10])
    assert_hit(result, t=0.4, normal=[0, 0, -1], point=[1, 1, 0], feature=("face", 0))


def test_sphere_in_the_plane_hits_an_edge():
    result = sweep(Sphere([1.0, -5, 0], 1.0), TRIANGLE, [0.0, 10, 0])
    assert_hit(result, t=0.4, normal=[0, -1, 0], point=[1, 0, 0], feature=("edge", 0))


def test_vertex_hit_along_the_diagonal():
    result = sweep(Sphere([-5.0, -5, 0], 1.0), TRIANGLE, [10.0, 10, 0])
    s = math.sqrt(0.5)
    assert_hit(result, t=(5 - s) / 10, normal=[-s, -s, 0], point=[0, 0, 0], feature=("vertex", 0))


def test_exact_graze_over_an_edge():
    result = sweep(Sphere([2.0, -5, 1.0], 1.0), TRIANGLE, [0.0, 10, 0])
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[2, 0, 0], feature=("edge", 0))


def test_miss_the_edge_by_graze_margin():
    assert_miss(sweep(Sphere([2.0, -5, 1.0 + GRAZE], 1.0), TRIANGLE, [0.0, 10, 0]))


def test_hit_the_edge_by_graze_margin():
    z = Decimal(1) - Decimal(GRAZE)
    half_chord = (1 - z * z).sqrt()
    result = sweep(Sphere([2.0, -5, 1.0 - GRAZE], 1.0), TRIANGLE, [0.0, 10, 0])
    assert_hit(result, t=float((5 - half_chord) / 10), normal=[0, -float(half_chord), float(z)], point=[2, 0, 0],
               feature=("edge", 0))


def test_sliding_along_an_edge_line_touches_its_vertex_first():
    result = sweep(Sphere([-5.0, -1, 0], 1.0), TRIANGLE, [10.0, 0, 0])
    assert_hit(result, t=0.5, normal=[0, -1, 0], point=[0, 0, 0], feature=("vertex", 0))


@pytest.mark.parametrize("x, feature", [(-GRAZE, ("vertex", 0)), (0.0, ("vertex", 0)), (GRAZE, ("edge", 0)),
                                          (4 - GRAZE, ("edge", 0)), (4.0, ("vertex", 1)), (4 + GRAZE, ("vertex", 1))])
def test_edge_ends_go_to_their_vertices(x, feature):
    """An edge's cylinder counts only where the contact projects strictly inside the
    edge (``0 < along_at_hit < 1`` in ``ball_core``): a unit sphere at (x, -2, 0)
    moving by (0, 4, 0) reaches edge 0 (AB, along y = 0) at t = 0.25 for x just
    inside it, and at x = 0 or 4 exactly the end vertex A or B: the vertex, not the
    edge, at the same time.  (With ``>= 0`` x = 0 answered edge 0.)"""
    result = sweep(Sphere([x, -2, 0], 1.0), TRIANGLE, [0.0, 4, 0])
    end = min(max(x, 0.0), 4.0)
    off = x - end  # the contact's offset beyond the edge's end, along x
    normal = [off, -math.sqrt(1 - off * off), 0]
    assert_hit(result, t=(2 - math.sqrt(1 - off * off)) / 4, normal=normal, point=[end, 0, 0], feature=feature)


def test_parallel_above_the_face():
    assert_miss(sweep(Sphere([-5.0, 1, 1.0 + GRAZE], 1.0), TRIANGLE, [10.0, 0, 0]))
    overlapping = sweep(Sphere([1.0, 1, 1.0 - GRAZE], 1.0), TRIANGLE, [10.0, 0, 0])
    assert_hit(overlapping, t=0.0, normal=[0, 0, 1], point=[1, 1, 0], depth=GRAZE, feature=("face", 0))


def test_zero_radius_ray_hits_the_face_and_the_edge_exactly():
    assert_hit(sweep(Sphere([1.0, 1, 5], 0.0), TRIANGLE, [0.0, 0, -10]), t=0.5, normal=[0, 0, 1], point=[1, 1, 0])
    assert_hit(sweep(Sphere([2.0, 0, 5], 0.0), TRIANGLE, [0.0, 0, -10]), t=0.5, normal=[0, 0, 1], point=[2, 0, 0])
    assert_miss(sweep(Sphere([2.0, -GRAZE, 5], 0.0), TRIANGLE, [0.0, 0, -10]))


def test_zero_radius_ray_in_the_plane_hits_the_edge_with_its_perpendicular():
    result = sweep(Sphere([1.0, -5, 0], 0.0), TRIANGLE, [0.0, 10, 0])
    assert_hit(result, t=0.5, normal=[0, -1, 0], point=[1, 0, 0], feature=("edge", 0))


@pytest.mark.parametrize("corner_c", [[2.0, 0, 0], [4.0, 0, 0], [0.0, 0, 0]])
def test_zero_area_triangle_is_its_edges(corner_c):
    sliver = Triangle([0.0, 0, 0], [4.0, 0, 0], corner_c)
    result = sweep(Sphere([2.0, 0, 5], 1.0), sliver, [0.0, 0, -10])
    assert_hit(result, t=0.4, normal=[0, 0, 1], point=[2, 0, 0], feature=("edge", 0))
    assert_miss(sweep(Sphere([2.0, 1.0 + GRAZE, 5], 1.0), sliver, [0.0, 0, -10]))


def test_point_triangle_is_its_vertex():
    result = sweep(Sphere([-5.0, 0, 0], 1.0), Triangle([0.0, 0, 0], [0.0, 0, 0], [0.0, 0, 0]), [10.0, 0, 0])
    assert_hit(result, t=0.4, normal=[-1, 0, 0], point=[0, 0, 0], feature=("vertex", 0))


def test_nearly_sliver_triangle_still_has_a_face():
    sliver = Triangle([0.0, 0, 0], [4.0, 0, 0], [2.0, 1e-9, 0])
    result = sweep(Sphere([2.0, 0.5e-9, 5], 1.0), sliver, [0.0, 0, -10])
    assert_hit(result, t=0.4, normal=[0, 0, 1], point=[2, 0.5e-9, 0], feature=("face", 0))


def test_initial_overlap_and_center_in_the_face():
    assert_hit(sweep(Sphere([1.0, 1, 0.5], 1.0), TRIANGLE, [1.0, 0, 0]), t=0.0, normal=[0, 0, 1], point=[1, 1, 0],
               depth=0.5, feature=("face", 0))
    assert_hit(sweep(Sphere([1.0, 1, 0], 1.0), TRIANGLE, [0.0, 0, -1]), t=0.0, normal=[0, 0, -1], depth=1.0)


def test_initial_overlap_at_a_vertex():
    result = sweep(Sphere([-0.3, -0.4, 0], 1.0), TRIANGLE, [1.0, 0, 0])
    assert_hit(result, t=0.0, normal=[-0.6, -0.8, 0], point=[0, 0, 0], depth=0.5, feature=("vertex", 0))


@pytest.mark.parametrize("x, feature", [(-GRAZE, ("vertex", 0)), (0.0, ("vertex", 0)), (GRAZE, ("edge", 0)),
                                          (4 - GRAZE, ("edge", 0)), (4.0, ("vertex", 1)), (4 + GRAZE, ("vertex", 1))])
def test_initial_overlap_beside_an_edge_end_is_the_vertex(x, feature):
    """At t = 0 the center is an edge's only where it projects strictly between the
    edge's ends (``between`` in ``ball_core``): a unit sphere still at (x, -0.5, 0)
    overlaps edge 0 (AB) by 0.5 for x just inside it, and at x = 0 or 4 exactly the
    end vertex A or B at the same distance: the vertex.  (With ``>= 0`` or ``<= 0``
    the ends answered edge 0.)"""
    result = sweep(Sphere([x, -0.5, 0], 1.0), TRIANGLE, [0.0, 0, 0])
    end = min(max(x, 0.0), 4.0)
    off = x - end
    distance = math.hypot(off, 0.5)
    assert_hit(result, t=0.0, normal=[off / distance, -0.5 / distance, 0], point=[end, 0, 0], depth=1 - distance,
               feature=feature)


@pytest.mark.parametrize("lift, t", [(-GRAZE, 1 - GRAZE), (0.0, 1.0), (GRAZE, None)])
def test_landing_on_the_face_at_the_end_of_the_motion(lift, t):
    """The face slab counts where it is entered at t <= 1: a unit sphere 2 + lift
    above the face moving by (0, 0, -1) lands on it at t = 1 - lift, at the end of
    the motion exactly for lift 0, not at all for lift 2^-40.  (With ``< 1`` in
    ``ball_core`` or in ``rounded.first_time_in`` lift 0 was a miss.)"""
    result = sweep(Sphere([1.0, 1, 2 + lift], 1.0), TRIANGLE, [0.0, 0, -1])
    if t is None:
        assert_miss(result)
    else:
        assert_hit(result, t=t, normal=[0, 0, 1], point=[1, 1, 0], feature=("face", 0))


@pytest.mark.parametrize("direction", [[0.0, 0, 1], [1.0, 0, 0]])
@pytest.mark.parametrize("lift", [-GRAZE, 0.0, GRAZE])
def test_resting_on_the_face_and_moving_off_or_along_it_is_ignored(lift, direction):
    """The t = 0 face test ``abs(height) <= total_radius`` (``ball_core``) at, just
    inside and just outside its threshold: a unit sphere 1 + lift above the face,
    moving up or along it with ``ignore_separating``: never a hit.  (With ``<`` the
    exact rest, lift 0, was not touching at t = 0: the face's slab, entered at 0,
    answered a hit at t = 0 both ways.)"""
    assert_miss(sweep(Sphere([1.0, 1, 1 + lift], 1.0), TRIANGLE, direction, ignore_separating=True))


@pytest.mark.parametrize("y, feature, normal", [(-GRAZE, ("edge", 0), [0, -2 * GRAZE, 1]),
                                                (0.0, ("face", 0), [0, 0, 1]), (GRAZE, ("face", 0), [0, 0, 1])])
def test_overlap_above_an_edge_goes_to_the_face(y, feature, normal):
    """At t = 0 the face and an edge are equally near when the center lies above the
    edge: a unit sphere still at (1, y, 0.5) overlaps edge 0 and, for y >= 0, the face
    by 0.5; the face, first in order, keeps the tie (strict ``<`` against the best
    start).  Just beyond the edge (y = -2^-40) it is the edge's.  (With ``<=`` y = 0
    answered edge 0.)"""
    result = sweep(Sphere([1.0, y, 0.5], 1.0), TRIANGLE, [0.0, 0, 0])
    assert_hit(result, t=0.0, normal=normal, point=[1, max(y, 0.0), 0], depth=0.5, feature=feature)


def test_moving_away_from_overlap_with_ignore_separating():
    overlapping = Sphere([1.0, 1, 0.5], 1.0)
    assert sweep(overlapping, TRIANGLE, [0.0, 0, 1], ignore_separating=True).hit is False
    assert sweep(overlapping, TRIANGLE, [0.0, 0, -1], ignore_separating=True).hit is True
    assert sweep(overlapping, TRIANGLE, [0.0, 0, 1]).hit is True


def test_sphere_landing_on_an_edge_reports_the_face():
    """The face includes its boundary: a sphere dropped over the midpoint of edge 0
    touches the face and the edge at the same t = 0.5; the tie goes to the face."""
    result = sweep(Sphere([0.5, 0, 2], 0.5), Triangle([0.0, 0, 0], [1, 0, 0], [0, 1, 0]), [0, 0, -3])
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[0.5, 0, 0], feature=("face", 0))
