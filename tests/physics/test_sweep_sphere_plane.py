"""Sphere against a two-sided plane (z = 2): the center against a slab."""

import numpy as np

from sweeplab.physics import Plane, Sphere, sweep
from tests.physics.expect import assert_hit, assert_miss

GRAZE = 2.0 ** -40
PLANE = Plane([0.0, 0, 1], 2.0)


def test_head_on_from_above():
    result = sweep(Sphere([0.0, 0, 10], 1.0), PLANE, [0.0, 0, -10])
    assert_hit(result, t=0.7, normal=[0, 0, 1], point=[0, 0, 2], feature=("face", 0))


def test_from_below_the_plane_is_two_sided():
    result = sweep(Sphere([0.0, 0, -5], 1.0), PLANE, [0.0, 0, 10])
    assert_hit(result, t=0.6, normal=[0, 0, -1], point=[0, 0, 2])


def test_oblique():
    result = sweep(Sphere([0.0, 0, 10], 1.0), PLANE, [10.0, 0, -10])
    assert_hit(result, t=0.7, normal=[0, 0, 1], point=[7, 0, 2])


def test_parallel_motion_just_outside_misses():
    assert_miss(sweep(Sphere([0.0, 0, 3 + 4 * GRAZE], 1.0), PLANE, [10.0, 0, 0]))


def test_parallel_motion_touching_is_a_hit_at_zero_unless_ignored():
    touching = Sphere([0.0, 0, 3.0], 1.0)
    assert_hit(sweep(touching, PLANE, [10.0, 0, 0]), t=0.0, normal=[0, 0, 1], point=[0, 0, 2])
    assert_miss(sweep(touching, PLANE, [10.0, 0, 0], ignore_separating=True))


def test_non_unit_normal_is_normalised():
    plane = Plane([0.0, 0, 2], 2.0)
    np.testing.assert_array_equal(plane.normal, [0, 0, 1])
    assert_hit(sweep(Sphere([0.0, 0, 10], 1.0), plane, [0.0, 0, -10]), t=0.7, normal=[0, 0, 1])


def test_initial_overlap_and_center_on_the_plane():
    assert_hit(sweep(Sphere([0.0, 0, 1.5], 1.0), PLANE, [1.0, 0, 0]), t=0.0, normal=[0, 0, -1],
               point=[0, 0, 2], depth=0.5)
    assert_hit(sweep(Sphere([0.0, 0, 2.0], 1.0), PLANE, [0.0, 0, -1]), t=0.0, normal=[0, 0, -1], depth=1.0)
    assert_hit(sweep(Sphere([0.0, 0, 2.0], 1.0), PLANE, [0.0, 0, 0]), t=0.0, normal=[0, 0, 1], depth=1.0)


def test_zero_radius_ray():
    assert_hit(sweep(Sphere([1.0, 1, 7], 0.0), PLANE, [0.0, 0, -10]), t=0.5, normal=[0, 0, 1], point=[1, 1, 2])


def test_zero_direction_apart_misses():
    assert_miss(sweep(Sphere([0.0, 0, 10], 1.0), PLANE, [0.0, 0, 0]))


def test_float32_stays_float32():
    spheres = Sphere(np.array([[0, 0, 10]], np.float32), np.float32(1))
    result = sweep(spheres, Plane(np.array([0, 0, 1], np.float32), np.float32(2)), np.array([0, 0, -10], np.float32))
    assert result.t.dtype == np.float32 and result.t[0] == np.float32(0.7)
