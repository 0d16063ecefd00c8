"""Every finite query answers as its power-of-two twin does (issue #19).

Scaling a whole configuration (both shapes and the direction) by 2^k is exact as
long as no coordinate leaves the normal floats, and leaves the geometry unchanged:
so ``t``, ``hit``, the normal and the feature must be identical, and the point and
depth scaled by exactly 2^k.  Before queries were answered at unit size, sphere
sweeps at 1e77 reported an overlap at t = 0, at 1e-82 a time of 0.42 for 0.3, and a
direction of 1e300 missed.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle, TriangleMesh,
                              sweep)
from tests.physics.strategies import near_shapes, near_vector
from tests.physics.test_every_pair import PAIRS

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
exponents = st.integers(-1000, 1000) | st.sampled_from([-1000, -300, -272, -150, -64, 64, 150, 256, 1000])
directions = st.just(np.zeros(3)) | near_vector.map(lambda v: 2 * v)


def _normal_floats(array) -> bool:
    """Whether ``array`` holds no subnormal float: a product with one has lost bits, at
    one scale but not at another (a normal's component of 5e-324 times a height of 0.5
    underflows to 0), so twins are exact only without them."""
    return bool(np.all((array == 0) | (np.abs(array) >= np.finfo(np.float64).tiny)))


def _multiplies_exactly(unit_sized) -> bool:
    """Whether the components of a unit normal or rotation are 0 or at least 2^-900:
    a component of 3e-308 times a coordinate of 0.25 is subnormal already."""
    return bool(np.all((unit_sized == 0) | (np.abs(unit_sized) >= 2.0 ** -900)))


def _exactly_scaled(array, exponent: int, require=assume) -> np.ndarray:
    """``array`` times 2^exponent, ``require``-ing (hypothesis: assuming) that no value
    loses bits."""
    array = np.asarray(array)
    scaled = np.ldexp(array, exponent)
    require(np.all(np.isfinite(scaled)) and np.array_equal(np.ldexp(scaled, -exponent), array)
            and _normal_floats(array) and _normal_floats(scaled))
    return scaled


def _must(condition) -> None:
    assert condition


def scaled(shape, exponent: int, require=assume):
    """``shape`` with every length multiplied by 2^exponent (a plane's normal kept)."""
    def s(array):
        return _exactly_scaled(array, exponent, require)
    if isinstance(shape, Point):
        return Point(s(shape.p))
    if isinstance(shape, Sphere):
        return Sphere(s(shape.center), s(shape.radius))
    if isinstance(shape, Capsule):
        return Capsule(s(shape.a), s(shape.b), s(shape.radius))
    if isinstance(shape, Segment):
        return Segment(s(shape.a), s(shape.b))
    if isinstance(shape, Plane):
        require(_multiplies_exactly(shape.normal))
        return Plane(shape.normal, s(shape.offset))
    if isinstance(shape, Triangle):
        return Triangle(s(shape.a), s(shape.b), s(shape.c))
    if isinstance(shape, Polygon):
        return Polygon(s(shape.vertices))
    if isinstance(shape, ConvexPolyhedron):
        return ConvexPolyhedron(s(shape.vertices))
    assert isinstance(shape, TriangleMesh)
    require(_multiplies_exactly(shape.rotation))
    return TriangleMesh(s(shape.vertices), shape.faces, translation=s(shape.translation), rotation=shape.rotation)


def assert_twins(unit, twin, exponent: int):
    """``twin`` is ``unit``'s answer for the configuration scaled by 2^exponent."""
    assert twin.hit == unit.hit, (unit, twin)
    if not unit.hit:
        return
    assert (twin.t, twin.feature, twin.face_index, twin.initially_overlapping) == \
        (unit.t, unit.feature, unit.face_index, unit.initially_overlapping), (unit, twin)
    np.testing.assert_array_equal(twin.normal, unit.normal)
    np.testing.assert_array_equal(twin.point, np.ldexp(unit.point, exponent))
    if unit.penetration_depth is not None:
        assert twin.penetration_depth == float(np.ldexp(unit.penetration_depth, exponent))


@pytest.mark.parametrize("moving_kind, target_kind", PAIRS)
def test_every_pair_answers_as_its_scaled_twin(moving_kind, target_kind):
    @SETTINGS
    @given(near_shapes(moving_kind), near_shapes(target_kind), directions, exponents)
    def check(moving, target, direction, exponent):
        twin = sweep(scaled(moving, exponent), scaled(target, exponent), _exactly_scaled(direction, exponent))
        # (rebuilt, as the twin: a plane normalises its normal again, which may move it by an ulp)
        assert_twins(sweep(scaled(moving, 0), scaled(target, 0), direction), twin, exponent)

    check()


# The issue's table: (moving, target, direction) at unit size, and the exponent it was reported at.
ISSUE_CASES = {
    "spheres at 5e77": (Sphere([0, 0, 5.0], 1.0), Sphere([0, 0, 0.0], 1.0), [0, 0, -10.0], 256),
    "point and triangle at 1e77": (Point([0, 0, 5.0]), Triangle([-1, -1, 0.0], [1, -1, 0], [0, 1, 0]),
                                   [0, 0, -10.0], 256),
    "capsules at 1e154": (Capsule([0, -1, 5.0], [0, 1, 5], 1.0), Capsule([-1, 0, 0.0], [1, 0, 0], 1.0),
                          [0, 0, -10.0], 512),
    "spheres at 1e-82": (Sphere([0, 0, 5.0], 1.0), Sphere([0, 0, 0.0], 1.0), [0, 0, -10.0], -272),
}


@pytest.mark.parametrize("name", ISSUE_CASES)
def test_the_issue_cases_far_from_unit_size(name):
    moving, target, direction, exponent = ISSUE_CASES[name]
    unit = sweep(moving, target, direction)
    assert unit.hit and not unit.initially_overlapping
    assert_twins(unit, sweep(scaled(moving, exponent, _must), scaled(target, exponent, _must),
                             _exactly_scaled(direction, exponent, _must)), exponent)


def test_the_issue_cases_in_their_own_floats():
    """The table's configurations as the issue wrote them (not exact twins: 5e77 is
    not a power of two times 5), answered to rounding."""
    result = sweep(Sphere([0, 0, 5e77], 1e77), Sphere([0, 0, 0], 1e77), [0, 0, -1e78])
    assert result.hit and not result.initially_overlapping and result.t == pytest.approx(0.3, rel=1e-15)
    result = sweep(Point([0, 0, 5e77]), Triangle([-1e77, -1e77, 0], [1e77, -1e77, 0], [0, 1e77, 0]), [0, 0, -1e78])
    assert result.hit and result.t == pytest.approx(0.5, rel=1e-15)
    result = sweep(Capsule([0, -1e154, 5e154], [0, 1e154, 5e154], 1e154), Capsule([-1e154, 0, 0], [1e154, 0, 0], 1e154),
                   [0, 0, -1e155])
    assert result.hit and result.t == pytest.approx(0.3, rel=1e-15)
    np.testing.assert_allclose(result.normal, [0, 0, 1])
    np.testing.assert_allclose(result.point, [0, 0, 1e154], rtol=1e-15)
    result = sweep(Sphere([0, 0, 5e-82], 1e-82), Sphere([0, 0, 0], 1e-82), [0, 0, -1e-81])
    assert result.hit and result.t == pytest.approx(0.3, rel=1e-15)


@pytest.mark.parametrize("target", [Sphere([0, 0, 0.0], 1.0), Capsule([-1, 0, 0.0], [1, 0, 0], 1.0),
                                    Triangle([-1, -1, 1.0], [1, -1, 1], [0, 1, 1]),
                                    ConvexPolyhedron.box([1.0, 1, 1]), Plane([0, 0, 1.0], 1.0),
                                    TriangleMesh([[-1, -1, 1.0], [1, -1, 1], [0, 1, 1]], [[0, 1, 2]])])
@pytest.mark.parametrize("length", [1e300, 1e200, 1e100, 1e20])
def test_a_direction_far_longer_than_the_shapes(target, length):
    """A unit sphere at height 5 moving down 1e300 onto a target whose top is at
    height 1: it touches after 3, at t = 3e-300 (the issue: a miss)."""
    result = sweep(Sphere([0, 0, 5.0], 1.0), target, [0, 0, -length])
    assert result.hit and not result.initially_overlapping
    assert result.t == pytest.approx(3 / length, rel=1e-14)
    np.testing.assert_array_equal(result.normal, [0, 0, 1])
    np.testing.assert_allclose(result.point, [0, 0, 1], atol=1e-14)


UNIT_TRIANGLE = Triangle([-1, -1, 0.0], [1, -1, 0], [0, 1, 0])


@pytest.mark.parametrize("height", [1e-300, 1e-200, 1e-170, 2e-160, 1e-17])
def test_a_point_just_above_a_face_is_not_on_it(height):
    """A point 1e-300 above a unit triangle, moving down 2, hits it at t = height / 2
    with normal +z (the issue: t = 0 and normal -z for any height below ~1e-162,
    where the squared height underflowed to 0 and read as touching)."""
    result = sweep(Point([0, 0, height]), UNIT_TRIANGLE, [0, 0, -2.0])
    assert result.hit and not result.initially_overlapping
    assert result.t == height / 2
    np.testing.assert_array_equal(result.normal, [0, 0, 1])


@pytest.mark.parametrize("moving", [Point([0, 1e-170, 0.0]), Sphere([0, 3e-170, 0.0], 1e-170)])
def test_a_ball_just_beside_an_edge_or_vertex_is_not_on_it(moving):
    """A point (or a ball of radius 1e-170) 1e-170 clear of a segment through the
    origin: not touching at t = 0, reaching it moving -y, with normal +y; and a miss
    moving +y."""
    for target in (Segment([-1, 0, 0.0], [1, 0, 0]), Point([0, 0, 0.0])):
        result = sweep(moving, target, [0, -2, 0.0])
        assert result.hit and not result.initially_overlapping, result
        np.testing.assert_array_equal(result.normal, [0, 1, 0])
        assert not sweep(moving, target, [0, 2, 0.0]).hit


def test_a_batch_answers_each_lane_at_its_own_size():
    """Lanes at 2^-600, 1 and 2^600 in one batch: each answers as the unit lane
    does, scaled (one exponent for the batch would have sunk the small lane)."""
    exponents = np.array([-600, 0, 600])
    centers = np.ldexp(np.array([0, 0, 5.0]), exponents[:, None])
    capsules = Capsule(np.ldexp(np.array([-1, 0, 0.0]), exponents[:, None]),
                       np.ldexp(np.array([1, 0, 0.0]), exponents[:, None]), np.ldexp(1.0, exponents))
    batch = sweep(Sphere(centers, np.ldexp(1.0, exponents)), capsules,
                  np.ldexp(np.array([0, 0, -10.0]), exponents[:, None]))
    unit = sweep(Sphere([0, 0, 5.0], 1.0), Capsule([-1, 0, 0.0], [1, 0, 0], 1.0), [0, 0, -10.0])
    assert batch.hit.all() and np.all(batch.t == unit.t) and unit.t == pytest.approx(0.3)
    np.testing.assert_array_equal(batch.normal, np.broadcast_to(unit.normal, (3, 3)))
    np.testing.assert_array_equal(batch.point, np.ldexp(unit.point, exponents[:, None]))


@pytest.mark.parametrize("exponent", [-40, -9, 9, 40])
def test_float32_queries_beyond_their_band_answer_as_their_unit_twin(exponent):
    """float32 squares overflow at ~2^64 and capsule cores multiply four coordinates:
    float32 capsules at 2^40 answer as at unit size (the band is 2^+-8 in float32)."""
    def capsules(k):
        a, b = np.ldexp(np.float32([0, -1, 5]), k), np.ldexp(np.float32([0, 1, 5]), k)
        c, d = np.ldexp(np.float32([-1, 0, 0]), k), np.ldexp(np.float32([1, 0, 0]), k)
        one = np.ldexp(np.float32(1), k)
        return Capsule(a, b, one), Capsule(c, d, one), np.ldexp(np.float32([0, 0, -10]), k)
    unit, twin = sweep(*capsules(0)), sweep(*capsules(exponent))
    assert unit.t == pytest.approx(0.3, rel=1e-6) and twin.point.dtype == np.float32
    assert_twins(unit, twin, exponent)


@pytest.mark.parametrize("exponent", [-700, 700])
def test_a_mesh_far_from_unit_size_is_swept_at_unit_size(exponent):
    """A mesh at 2^700 (its tree's squared radii overflow) answers as at unit size;
    its scaled copy is built once and reused."""
    vertices = np.array([[-1, -1, 1.0], [1, -1, 1], [0, 1, 1]])
    unit_mesh, mesh = TriangleMesh(vertices, [[0, 1, 2]]), TriangleMesh(np.ldexp(vertices, exponent), [[0, 1, 2]])
    sphere = Sphere([0, 0, 5.0], 1.0)
    unit = sweep(sphere, unit_mesh, [0, 0, -10.0])
    for _ in range(2):
        assert_twins(unit, sweep(scaled(sphere, exponent, _must), mesh, np.ldexp([0, 0, -10.0], exponent)), exponent)
    assert sum(isinstance(key, tuple) and key[0] == "unit size" for key in mesh._derived) == 1
