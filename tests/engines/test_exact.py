"""engines.exact: touching decided in rational arithmetic."""

import math
from fractions import Fraction

import numpy as np

from sweeplab.engines.exact import (_core, _distance_squared, cores_meet_at_start, point_triangle_distance_squared,
                                    segment_distance_squared, segment_triangle_distance_squared, touches_at)
from sweeplab.physics import Capsule, ConvexPolyhedron, Point, Polygon, Segment, Sphere, Triangle
from sweeplab.physics.reference import closest_approach


def f(*values):
    return tuple(Fraction(v) for v in values)


def test_segment_distance_squared_by_hand():
    x_axis = f(-1, 0, 0), f(1, 0, 0)
    assert segment_distance_squared(f(0, -1, 2), f(0, 1, 2), *x_axis) == 4  # crossing 2 above
    assert segment_distance_squared(f(0, -1, 0), f(0, 1, 0), *x_axis) == 0  # crossing
    assert segment_distance_squared(f(3, 0, 1), f(5, 0, 1), *x_axis) == 5  # parallel, apart: ends (3,0,1)-(1,0,0)
    assert segment_distance_squared(f(0, 0, 1), f(3, 0, 1), *x_axis) == 1  # parallel, overlapping
    assert segment_distance_squared(f(2, 2, 0), f(2, 2, 0), *x_axis) == 5  # a point: to the end (1, 0, 0)
    assert segment_distance_squared(*x_axis, f(0, 3, 4), f(0, 3, 4)) == 25  # against a point
    assert segment_distance_squared(f(1, 1, 1), f(1, 1, 1), f(1, 1, 2), f(1, 1, 2)) == 1  # two points


def test_touching_is_exact_where_float64_rounds():
    """0.16055 - 1 x 0.16055 is 0 exactly, but 1.6055 - 10 x 0.16055, 0.0 in float64,
    is not 0 in exact arithmetic: the radius-0 segments cross at the first t and
    miss by a hair at the second."""
    target = Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.0)
    assert 1.6055 + 0.16055 * -10.0 == 0.0
    assert touches_at(Capsule([0.0, -1, 0.16055], [0.0, 1, 0.16055], 0.0), target, [0.5, 0.25, -1.0], 0.16055)
    assert not touches_at(Capsule([0.0, -1, 1.6055], [0.0, 1, 1.6055], 0.0), target, [0.5, 0.25, -10.0], 0.16055)


def test_radii_count_and_their_boundary_is_a_touch():
    moving, direction = Sphere([3.0, 0, 0], 1.0), [-1.0, 0, 0]
    assert touches_at(moving, Sphere([0.0, 0, 0], 1.0), direction, 1.0)  # centres 2 apart: touching
    assert not touches_at(moving, Sphere([0.0, 0, 0], 0.99), direction, 1.0)
    assert touches_at(Point([3.0, 0, 0]), Segment([0.0, 0, 0], [0.0, 1, 0]), direction, 3.0)


def test_other_cores_are_not_decided_here():
    square = Polygon([[0.0, 0, 0], [1.0, 0, 0], [1.0, 1, 0], [0.0, 1, 0]])
    assert touches_at(Sphere([0.0, 0, 1], 1.0), square, [0, 0, -1.0], 0.5) is None
    assert cores_meet_at_start(ConvexPolyhedron.box([1.0, 1, 1]), Sphere([0.0, 0, 1], 1.0)) is None


def test_cores_meet_at_start():
    assert cores_meet_at_start(Sphere([0.0, 0, 0], 1.0), Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.5))
    assert not cores_meet_at_start(Sphere([0.0, 0, 1e-300], 1.0), Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.5))


def test_segment_triangle_distance_squared_by_hand():
    triangle = f(0, 0, 0), f(4, 0, 0), f(0, 4, 0)
    assert point_triangle_distance_squared(f(1, 1, 3), *triangle) == 9  # above the face
    assert point_triangle_distance_squared(f(-1, -2, 0), *triangle) == 5  # beyond corner a
    assert point_triangle_distance_squared(f(2, -1, 1), *triangle) == 2  # beyond edge ab
    assert point_triangle_distance_squared(f(3, 3, 0), *triangle) == 2  # beyond edge bc: to (2, 2, 0)
    assert segment_triangle_distance_squared(f(1, 1, -1), f(1, 1, 1), *triangle) == 0  # through the face
    assert segment_triangle_distance_squared(f(1, 1, 1), f(1, 1, -1), *triangle) == 0  # downwards
    assert segment_triangle_distance_squared(f(5, 5, -1), f(5, 5, 1), *triangle) == 18  # past bc, to (2, 2, 0)
    assert segment_triangle_distance_squared(f(1, 1, 2), f(2, 1, 2), *triangle) == 4  # parallel above
    assert segment_triangle_distance_squared(f(-1, 2, 3), f(-1, 2, -3), *triangle) == 1  # beside edge ca
    assert segment_triangle_distance_squared(f(1, 1, 0), f(1, 1, 5), *triangle) == 0  # an end on the face
    flat = f(0, 0, 0), f(1, 0, 0), f(2, 0, 0)
    assert point_triangle_distance_squared(f(1, 3, 4), *flat) == 25  # no area: its edges


def test_exact_triangle_distance_agrees_with_float64():
    """Seeded spheres and capsules against triangles: the exact distance against the
    reference's float64 one (``closest_approach`` of a sweep that does not move)."""
    rng = np.random.default_rng(5)
    for i in range(30):
        corners = rng.uniform(-2, 2, (3, 3))
        start = rng.uniform(-2, 2, 3)
        moving = Sphere(start, 0.0) if i % 2 else Capsule(start, start + rng.uniform(-2, 2, 3), 0.0)
        target = Triangle(*corners)
        exact = math.sqrt(_distance_squared(_core(moving)[0], _core(target)[0]))
        assert abs(exact - closest_approach(moving, target, [0.0, 0, 0])[1]) <= 1e-12, i


def test_touching_a_triangle_is_decided_exactly():
    triangle = Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0])
    falling = Sphere([1.0, 1, 5], 1.0)
    assert touches_at(falling, triangle, [0, 0, -10.0], 0.4)  # centre 1 above: touching
    assert not touches_at(falling, triangle, [0, 0, -10.0], math.nextafter(0.4, 0.0))
    assert touches_at(triangle, falling, [0, 0, 10.0], 0.4)  # the triangle moving instead
    assert cores_meet_at_start(Capsule([1.0, 1, -1], [1.0, 1, 1], 0.1), triangle)
    assert not cores_meet_at_start(Capsule([1.0, 1, 1e-300], [1.0, 1, 1], 0.1), triangle)
    assert touches_at(triangle, Triangle([0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]), [0, 0, 1.0], 0.0) is None
