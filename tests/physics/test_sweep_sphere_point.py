"""Sphere against point: hand-worked cases (the root of the decomposition)."""

from decimal import Decimal, getcontext

import numpy as np
import pytest

from sweeplab.physics import Point, Sphere, sweep
from tests.physics.expect import assert_close, assert_hit, assert_miss

getcontext().prec = 60
GRAZE = 2.0 ** -40  # ~9.1e-13, exactly representable
ORIGIN = Point([0.0, 0.0, 0.0])


def test_head_on():
    result = sweep(Sphere([-5.0, 0, 0], 1.0), ORIGIN, [10.0, 0, 0])
    assert_hit(result, t=0.4, normal=[-1, 0, 0], point=[0, 0, 0], feature=("vertex", 0))


def test_glancing():
    # Offset 0.6: the point enters where the half-chord is 0.8, at x = -0.8.
    result = sweep(Sphere([-5.0, 0.6, 0], 1.0), ORIGIN, [10.0, 0, 0])
    assert_hit(result, t=0.42, normal=[-0.8, 0.6, 0], point=[0, 0, 0], feature=("vertex", 0))


def test_exactly_tangent_is_a_hit():
    result = sweep(Sphere([-5.0, 1.0, 0], 1.0), ORIGIN, [10.0, 0, 0])
    assert_hit(result, t=0.5, normal=[0, 1, 0], point=[0, 0, 0])


def test_miss_by_graze_margin():
    assert_miss(sweep(Sphere([-5.0, 1.0 + GRAZE, 0], 1.0), ORIGIN, [10.0, 0, 0]))


def test_hit_by_graze_margin():
    y = Decimal(1) - Decimal(GRAZE)
    half_chord = (1 - y * y).sqrt()
    result = sweep(Sphere([-5.0, 1.0 - GRAZE, 0], 1.0), ORIGIN, [10.0, 0, 0])
    assert_hit(result, t=float(Decimal("0.5") - half_chord / 10), normal=[-float(half_chord), float(y), 0],
               point=[0, 0, 0])


def test_parallel_motion_past_the_point_misses():
    assert_miss(sweep(Sphere([-5.0, 2.0, 0], 1.0), ORIGIN, [10.0, 0, 0]))


def test_moving_away_misses():
    assert_miss(sweep(Sphere([-5.0, 0, 0], 1.0), ORIGIN, [-10.0, 0, 0]))


def test_stops_short_misses():
    assert_miss(sweep(Sphere([-5.0, 0, 0], 1.0), ORIGIN, [3.999, 0, 0]))


def test_reaches_exactly_at_t_one():
    assert_hit(sweep(Sphere([-5.0, 0, 0], 1.0), ORIGIN, [4.0, 0, 0]), t=1.0, normal=[-1, 0, 0])


def test_zero_direction_is_an_overlap_test():
    assert_miss(sweep(Sphere([-5.0, 0, 0], 1.0), ORIGIN, [0.0, 0, 0]))
    assert_hit(sweep(Sphere([-1.0, 0, 0], 1.0), ORIGIN, [0.0, 0, 0]), t=0.0, normal=[-1, 0, 0])
    assert_hit(sweep(Sphere([-0.5, 0, 0], 1.0), ORIGIN, [0.0, 0, 0]), t=0.0, normal=[-1, 0, 0], depth=0.5)


def test_zero_radius_is_a_ray_and_normal_faces_the_motion():
    result = sweep(Sphere([-5.0, 0, 0], 0.0), ORIGIN, [10.0, 0, 0])
    assert_hit(result, t=0.5, normal=[-1, 0, 0], point=[0, 0, 0])
    assert_miss(sweep(Sphere([-5.0, 2.0 ** -500, 0], 0.0), ORIGIN, [10.0, 0, 0]))


def test_initial_overlap_reports_depth_and_separating_direction():
    result = sweep(Sphere([0.0, 0.25, 0], 1.0), ORIGIN, [3.0, 0, 0])
    assert_hit(result, t=0.0, normal=[0, 1, 0], point=[0, 0, 0], depth=0.75, feature=("vertex", 0))


def test_center_on_the_point_separates_along_the_motion():
    assert_hit(sweep(Sphere([0.0, 0, 0], 1.0), ORIGIN, [0, 2.0, 0]), t=0.0, normal=[0, 1, 0], depth=1.0)
    assert_hit(sweep(Sphere([0.0, 0, 0], 1.0), ORIGIN, [0, 0, 0.0]), t=0.0, normal=[0, 0, 1], depth=1.0)


def test_touching_at_start_is_a_hit_without_penetration():
    assert_hit(sweep(Sphere([-1.0, 0, 0], 1.0), ORIGIN, [10.0, 0, 0]), t=0.0, normal=[-1, 0, 0], point=[0, 0, 0])


@pytest.mark.parametrize("direction, reported", [
    ([1.0, 0, 0], True),    # deeper
    ([-1.0, 0, 0], False),  # away
    ([0, 1.0, 0], False),   # tangent: never deeper
    ([0, 0, 0.0], False),   # still
])
def test_ignore_separating_drops_contacts_that_do_not_deepen(direction, reported):
    touching = Sphere([-1.0, 0, 0], 1.0)
    overlapping = Sphere([-0.5, 0, 0], 1.0)
    for sphere in (touching, overlapping):
        assert sweep(sphere, ORIGIN, direction).hit is True
        assert sweep(sphere, ORIGIN, direction, ignore_separating=True).hit is reported


def test_batched_matches_scalar():
    centers = np.array([[-5.0, 0, 0], [-5.0, 0.6, 0], [-5.0, 2.0, 0], [0.0, 0.25, 0]])
    batch = sweep(Sphere(centers, 1.0), ORIGIN, [10.0, 0, 0])
    assert batch.hit.tolist() == [True, True, False, True]
    np.testing.assert_array_equal(batch.t[[0, 1, 3]], [0.4, 0.42, 0.0])
    assert np.isnan(batch.t[2]) and np.all(np.isnan(batch.point[2])) and batch.face_index.tolist() == [-1] * 4
    assert batch.feature.kind.tolist() == ["vertex", "vertex", "", "vertex"]
    assert np.isnan(batch.penetration_depth[:3]).all() and batch.penetration_depth[3] == 0.75


def test_entry_time_keeps_every_digit_where_the_textbook_root_cancels():
    """A sphere of radius 1e6 starting 1 away from a point, moving 2.1 per unit time:
    the entry time is the small root of a quadratic whose -b and sqrt(b^2 - 4ac) agree
    in their first ten digits.  The textbook formula (-b - sqrt(...)) / 2a loses them
    (6e-11 off here); c / q, as ``physics.solve`` writes it, keeps them (c = 2000001
    is exact).  Expected: the root in 60-digit arithmetic."""
    center, radius, motion = [1000001.0, 0, 0], 1000000.0, [-2.1, 0.001, 0]
    d, m = [Decimal(x) for x in motion], [Decimal(x) for x in center]
    a, half_b = sum(x * x for x in d), sum(x * y for x, y in zip(m, d, strict=True))
    c = sum(x * x for x in m) - Decimal(radius) ** 2
    exact = float((-half_b - (half_b * half_b - a * c).sqrt()) / a)
    result = sweep(Sphere(center, radius), Point([0.0, 0, 0]), motion)
    assert_close(result.t, exact, what="t")
