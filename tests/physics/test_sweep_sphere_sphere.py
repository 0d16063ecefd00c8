"""Sphere against sphere: a point against a sphere of the summed radius."""

from decimal import Decimal, getcontext

from sweeplab.physics import Sphere, sweep
from tests.physics.expect import assert_hit, assert_miss

getcontext().prec = 60
GRAZE = 2.0 ** -40
TARGET = Sphere([0.0, 0, 0], 2.0)


def test_head_on_point_is_on_the_target_surface():
    result = sweep(Sphere([-5.0, 0, 0], 1.0), TARGET, [10.0, 0, 0])
    assert_hit(result, t=0.2, normal=[-1, 0, 0], point=[-2, 0, 0], feature=("face", 0))


def test_exactly_tangent():
    assert_hit(sweep(Sphere([-5.0, 3.0, 0], 1.0), TARGET, [10.0, 0, 0]), t=0.5, normal=[0, 1, 0], point=[0, 2, 0])


def test_miss_by_graze_margin():
    assert_miss(sweep(Sphere([-5.0, 3.0 + GRAZE, 0], 1.0), TARGET, [10.0, 0, 0]))


def test_hit_by_graze_margin():
    y = Decimal(3) - Decimal(GRAZE)
    half_chord = (9 - y * y).sqrt()
    result = sweep(Sphere([-5.0, 3.0 - GRAZE, 0], 1.0), TARGET, [10.0, 0, 0])
    normal = [-float(half_chord / 3), float(y / 3), 0]
    assert_hit(result, t=float(Decimal("0.5") - half_chord / 10), normal=normal,
               point=[2 * normal[0], 2 * normal[1], 0])


def test_two_zero_radius_spheres_are_points():
    result = sweep(Sphere([-5.0, 0, 0], 0.0), Sphere([0.0, 0, 0], 0.0), [10.0, 0, 0])
    assert_hit(result, t=0.5, normal=[-1, 0, 0], point=[0, 0, 0])


def test_overlap_depth_is_the_summed_radius_minus_distance():
    result = sweep(Sphere([1.0, 0, 0], 1.0), Sphere([0.0, 0, 0], 1.0), [0.0, 5.0, 0])
    assert_hit(result, t=0.0, normal=[1, 0, 0], point=[1, 0, 0], depth=1.0)


def test_concentric_overlap_separates_along_the_motion():
    result = sweep(Sphere([0.0, 0, 0], 1.0), TARGET, [0.0, 0, 0.5])
    assert_hit(result, t=0.0, normal=[0, 0, 1], point=[0, 0, 2], depth=3.0)


def test_moving_away_from_overlap_with_ignore_separating():
    overlapping = Sphere([1.0, 0, 0], 1.0)
    assert sweep(overlapping, TARGET, [1.0, 0, 0], ignore_separating=True).hit is False
    assert sweep(overlapping, TARGET, [-1.0, 0, 0], ignore_separating=True).hit is True


def test_far_from_the_origin():
    offset = 1e6
    result = sweep(Sphere([offset - 5.0, offset, offset], 1.0), Sphere([offset, offset, offset], 2.0), [10.0, 0, 0])
    assert_hit(result, t=0.2, normal=[-1, 0, 0], point=[offset - 2, offset, offset], scale=offset)


def test_regression_centers_closer_than_rounding_keep_their_direction_both_ways():
    """Found by hypothesis (local seed 4002): centers 2.6e-99 apart, far below the
    rounding of their coordinates, took the escape rule (+z) in both orders, so the
    swapped subject did not flip the normal.  Two points' difference is exact in
    direction however short: only a projection's residue (an edge, a face) is
    round-off, so the normal is the true separation, flipped by the swap."""
    point, center = [0.0, 2.6261980610790738e-99, 1.0], [0.0, 0.0, 1.0]
    result = sweep(Sphere(point, 0.0), Sphere(center, 1.0), [0.0, 0, 0])
    assert_hit(result, t=0.0, normal=[0, 1, 0], point=[0, 1, 1], depth=1.0)
    swapped = sweep(Sphere(center, 1.0), Sphere(point, 0.0), [0.0, 0, 0])
    assert_hit(swapped, t=0.0, normal=[0, -1, 0], point=point, depth=1.0)
