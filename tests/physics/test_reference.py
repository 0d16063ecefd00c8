"""physics.reference (bisection on the exact distance) against the analytic sweeps
and against the tests' own brute force, which finds closest points differently."""

import numpy as np
import pytest
from hypothesis import given, settings

from sweeplab.physics import Capsule, Plane, Point, Segment, Sphere, Triangle, sweep, tolerance
from sweeplab.physics.reference import (TRACE_CAPACITY, ReferenceTrace, closest_approach, first_touch, minimum_time,
                                        reference_sweep, segment_closest_points)
from tests.physics.brute_force import core_of, reference_sweep as brute_force_sweep
from tests.physics.strategies import TARGET_KINDS, configurations


def test_hand_worked_case_and_trace():
    trace = ReferenceTrace()
    result = reference_sweep(Sphere([1.0, 1, 5], 1.0), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [0, 0, -10.0],
                             trace)
    assert result.hit and abs(result.t - 0.4) <= tolerance.TIME_ATOL
    np.testing.assert_allclose(result.normal, [0, 0, 1])
    assert (result.feature.kind, result.feature.index) == ("face", 0)
    assert len(trace.samples) > 100


def test_trace_holds_every_evaluation_in_order():
    """The sphere falls onto the face: gap(t) = |5 - 10 t| - 1 near it.  The trace
    starts at t = 0, then the ternary search narrows onto the minimum at t = 0.5 and
    the bisection onto the first touch, the smallest sampled t with gap <= 0."""
    moving, target = Sphere([1.0, 1, 5], 1.0), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0])
    trace = ReferenceTrace()
    result = reference_sweep(moving, target, [0, 0, -10.0], trace)
    untraced = reference_sweep(moving, target, [0, 0, -10.0])  # tracing changes nothing
    assert untraced.t == result.t and np.array_equal(untraced.point, result.point)
    times, gaps = np.array(trace.samples).T
    assert len(times) <= TRACE_CAPACITY and trace.samples[0] == (0.0, 4.0)
    assert np.all((times >= 0) & (times <= 1))
    np.testing.assert_allclose(gaps, np.abs(5 - 10 * times) - 1, atol=1e-12)
    assert result.t == times[gaps <= 0].min()
    assert np.abs(times - 0.5).min() < 1e-12 and abs(times[-1] - 0.4) < 1e-12


def test_searches_take_a_python_gap():
    assert abs(first_touch(lambda t: abs(t - 0.5) - 0.25) - 0.25) <= 1e-15
    assert abs(minimum_time(lambda t: abs(t - 0.5) - 0.25) - 0.5) <= 1e-12
    assert first_touch(lambda t: abs(t - 0.5) + 0.25) is None
    assert first_touch(lambda t: t - 0.5) == 0.0 and minimum_time(lambda t: 1 - t) == 1.0


def test_closest_approach_by_hand():
    """The moving centre passes the target's at distance 0.5 at t = 1/2 (gap 0.5 - 2);
    a sphere coming to rest 1 above a triangle's face; either order of the pair; a pair
    without a ball is refused as by reference_sweep."""
    t, gap = closest_approach(Sphere([0.5, 0, 4], 1.0), Sphere([0.0, 0, 0], 1.0), [0, 0, -8.0])
    assert gap == -1.5 and abs(t - 0.5) <= 1e-8  # the gap is flat at its minimum: t to ~sqrt(round-off)
    triangle = Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0])
    assert closest_approach(Sphere([1.0, 1, 5], 0.5), triangle, [0, 0, -4.0]) == (1.0, 0.5)
    assert closest_approach(triangle, Sphere([1.0, 1, 5], 0.5), [0, 0, 4.0]) == (1.0, 0.5)
    with pytest.raises(TypeError, match="no reference"):
        closest_approach(triangle, triangle, [0, 0, 1.0])


def test_segment_closest_points_keep_end_points_exact():
    p0, p1 = (0.1, 0.2, 0.3), (0.7, 0.9, 1.3)
    assert np.add(p0, np.subtract(p1, p0)).tolist() != list(p1)  # p0 + 1 (p1 - p0) rounds off p1
    moving_point, target_point = segment_closest_points(p0, p1, (5.0, 1.0, -3.0), (5.0, 1.0, 7.0))
    assert moving_point == p1 and np.allclose(target_point, (5.0, 1, 1.3), rtol=0, atol=1e-15)
    # parallel segments: Ericson's parallel branch takes s = 0, then clamps
    moving_point, target_point = segment_closest_points((0.0, 0.0, 1.0), (2.0, 0.0, 1.0), (1.0, 0.0, 0.0),
                                                        (3.0, 0.0, 0.0))
    assert moving_point == (1.0, 0, 1) and target_point == (1.0, 0, 0)


@pytest.mark.parametrize("moving, target, direction", [
    (Capsule([1.0, 1, 3], [2.0, 1, 3], 0.5), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [0, 0, -10.0]),
    (Capsule([-5.0, 0, 0], [-5.0, 0, 2], 0.5), Capsule([0.0, -1, 1], [0.0, 1, 1], 0.5), [10.0, 0, 0]),
    (Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), Capsule([1.0, 1, 3], [2.0, 1, 3], 0.5), [0, 0, 10.0]),
    (Capsule([0.0, 0, 3], [1.0, 0, 5], 0.5), Plane([0.0, 0, 1], 0.0), [0, 0, -10.0]),
    (Segment([-5.0, -1, 0], [-5.0, 1, 0]), Segment([0.0, 0, -1], [0.0, 0, 1]), [10.0, 0, 0]),
])
def test_capsules_agree_with_the_analytic_sweep(moving, target, direction):
    reference, analytic = reference_sweep(moving, target, direction), sweep(moving, target, direction)
    assert reference.hit and abs(reference.t - analytic.t) <= tolerance.REFERENCE_TIME_ATOL
    np.testing.assert_allclose(reference.normal, analytic.normal, atol=tolerance.NORMAL_ATOL)
    assert (reference.feature.kind, reference.feature.index) == (analytic.feature.kind, analytic.feature.index)


def test_swapped_pair_matches_sweep():
    moving, target = Segment([0.5, -2, 0], [0.5, 2, 0]), Sphere([0.0, 0, 0], 1.0)
    expected = sweep(moving, target, [0, 0, 1.0])
    actual = reference_sweep(moving, target, [0, 0, 1.0])
    assert actual.initially_overlapping and actual.penetration_depth == pytest.approx(expected.penetration_depth)
    np.testing.assert_allclose(actual.point, expected.point)
    np.testing.assert_allclose(actual.normal, expected.normal)


def test_miss_and_bad_input():
    assert reference_sweep(Point([0.0, 0, 5]), Plane([1.0, 0, 0], 2.0), [0, 0, 1.0]).hit is False
    with pytest.raises(TypeError, match="moving Triangle against a Plane"):
        reference_sweep(Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]), Plane([0, 0, 1], 0), [1, 0, 0])
    with pytest.raises(ValueError, match="one configuration"):
        reference_sweep(Sphere(np.zeros((2, 3)), 1.0), Point([0, 0, 0]), [1, 0, 0])


@pytest.mark.parametrize("kind", TARGET_KINDS)
def test_agrees_with_analytic_sweep_and_brute_force(kind):
    @settings(max_examples=40, deadline=None)
    @given(configurations(kind))
    def check(config):
        reference = reference_sweep(config.sphere, config.target, config.direction)
        brute = brute_force_sweep(config.sphere.center, float(config.sphere.radius), config.direction,
                                  core_of(config.target))
        if abs(brute.closest_gap) <= tolerance.LENGTH_RTOL * config.scale:
            return  # a graze within round-off
        analytic = sweep(config.sphere, config.target, config.direction)
        assert reference.hit == analytic.hit == (brute.t is not None)
        if reference.hit and not reference.initially_overlapping and brute.closest_gap < -tolerance.REFERENCE_TIME_ATOL:
            assert abs(reference.t - brute.t) <= tolerance.TIME_ATOL
            assert abs(reference.t - analytic.t) <= tolerance.REFERENCE_TIME_ATOL

    check()


def test_zero_radius_segment_through_a_face_touches_from_its_first_contact():
    """Found by a bulk comparison with the analytic sweep: a moving segment (radius 0)
    that passes through a triangle's face is at distance exactly 0 while it pierces
    it.  The reference measured the pierce point against its projection onto the face
    (~1e-16 of round-off), so its bisection saw the contact only at isolated instants
    and answered t = 0.444 for a first contact at 0.4355 (an edge; the gap just
    before it is 0.0046)."""
    segment = Capsule([3.605024309155275, 2.1885923943199863, 2.0327561628797515],
                      [4.572845928477268, 0.4094430905442823, 0.4652872654577722], 0.0)
    triangle = Triangle([1.6997591284972917, -0.9902932197867806, 2.662743330873344],
                        [2.1997999872335146, 0.40424457676697, 0.27391643548933065],
                        [3.2485764216847697, -0.9653070731228373, 2.927506762332378])
    direction = [-3.944649913745316, -2.6217324879223423, -1.6579424916958643]
    analytic, reference = sweep(segment, triangle, direction), reference_sweep(segment, triangle, direction)
    assert analytic.feature.kind == "edge" and abs(analytic.t - 0.4354710735810356) <= tolerance.EXACT_RTOL
    assert abs(reference.t - analytic.t) <= tolerance.REFERENCE_TIME_ATOL
