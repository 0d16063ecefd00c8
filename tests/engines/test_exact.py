"""engines.exact: touching decided in rational arithmetic."""

from fractions import Fraction

from sweeplab.engines.exact import cores_meet_at_start, segment_distance_squared, touches_at
from sweeplab.physics import Capsule, Point, Segment, Sphere, Triangle


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
    triangle = Triangle([0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0])
    assert touches_at(Sphere([0.0, 0, 1], 1.0), triangle, [0, 0, -1.0], 0.5) is None
    assert cores_meet_at_start(triangle, Sphere([0.0, 0, 1], 1.0)) is None


def test_cores_meet_at_start():
    assert cores_meet_at_start(Sphere([0.0, 0, 0], 1.0), Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.5))
    assert not cores_meet_at_start(Sphere([0.0, 0, 1e-300], 1.0), Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.5))
