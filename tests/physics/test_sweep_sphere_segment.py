"""Sphere against segment: an infinite cylinder cut to the segment, and two end balls."""

from decimal import Decimal, getcontext

import numpy as np
import pytest

from sweeplab.physics import Capsule, Segment, Sphere, sweep, tolerance
from tests.physics.expect import assert_hit, assert_miss

getcontext().prec = 60
GRAZE = 2.0 ** -40
SEGMENT = Segment([0.0, -1, 0], [0.0, 1, 0])


def test_side_head_on():
    result = sweep(Sphere([5.0, 0, 0], 1.0), SEGMENT, [-10.0, 0, 0])
    assert_hit(result, t=0.4, normal=[1, 0, 0], point=[0, 0, 0], feature=("edge", 0))


def test_end_on_along_the_axis_hits_the_end_vertex():
    result = sweep(Sphere([0.0, 5, 0], 1.0), SEGMENT, [0.0, -10, 0])
    assert_hit(result, t=0.3, normal=[0, 1, 0], point=[0, 1, 0], feature=("vertex", 1))


def test_glancing_the_end_cap():
    result = sweep(Sphere([5.0, 1.6, 0], 1.0), SEGMENT, [-10.0, 0, 0])
    assert_hit(result, t=0.42, normal=[0.8, 0.6, 0], point=[0, 1, 0], feature=("vertex", 1))


def test_exactly_tangent_to_the_side():
    result = sweep(Sphere([5.0, 0, 1.0], 1.0), SEGMENT, [-10.0, 0, 0])
    assert_hit(result, t=0.5, normal=[0, 0, 1], point=[0, 0, 0], feature=("edge", 0))


def test_miss_by_graze_margin():
    assert_miss(sweep(Sphere([5.0, 0, 1.0 + GRAZE], 1.0), SEGMENT, [-10.0, 0, 0]))


def test_hit_by_graze_margin():
    z = Decimal(1) - Decimal(GRAZE)
    half_chord = (1 - z * z).sqrt()
    result = sweep(Sphere([5.0, 0.5, 1.0 - GRAZE], 1.0), SEGMENT, [-10.0, 0, 0])
    assert_hit(result, t=float(Decimal("0.5") - half_chord / 10), normal=[float(half_chord), 0, float(z)],
               point=[0, 0.5, 0], feature=("edge", 0))


def test_parallel_at_exactly_the_radius_touches_at_the_end():
    result = sweep(Sphere([0.0, 5, 1.0], 1.0), SEGMENT, [0.0, -10, 0])
    assert_hit(result, t=0.4, normal=[0, 0, 1], point=[0, 1, 0], feature=("vertex", 1))


def test_parallel_just_outside_the_radius_misses():
    assert_miss(sweep(Sphere([0.0, 5, 1.0 + GRAZE], 1.0), SEGMENT, [0.0, -10, 0]))


def test_zero_length_segment_is_a_point():
    result = sweep(Sphere([-5.0, 0, 0], 1.0), Segment([0.0, 0, 0], [0.0, 0, 0]), [10.0, 0, 0])
    assert_hit(result, t=0.4, normal=[-1, 0, 0], point=[0, 0, 0], feature=("vertex", 0))


def test_zero_radius_ray_through_the_segment():
    result = sweep(Sphere([5.0, 0.5, 0], 0.0), SEGMENT, [-10.0, 0, 0])
    assert_hit(result, t=0.5, normal=[1, 0, 0], point=[0, 0.5, 0], feature=("edge", 0))


def test_initial_overlap():
    result = sweep(Sphere([0.5, 0.2, 0], 1.0), SEGMENT, [3.0, 0, 0])
    assert_hit(result, t=0.0, normal=[1, 0, 0], point=[0, 0.2, 0], depth=0.5, feature=("edge", 0))


def test_center_on_the_segment_separates_across_it():
    result = sweep(Sphere([0.0, 0.5, 0], 1.0), SEGMENT, [0.0, 0, 3.0])
    assert_hit(result, t=0.0, normal=[0, 0, 1], point=[0, 0.5, 0], depth=1.0)
    along_axis = sweep(Sphere([0.0, 0.5, 0], 1.0), SEGMENT, [0.0, 3.0, 0])
    assert along_axis.penetration_depth == 1.0 and along_axis.normal @ [0, 1, 0] == 0
    assert np.linalg.norm(along_axis.normal) == 1.0


def test_regression_center_on_the_segment_up_to_rounding_separates_across_it():
    """Found by the capsule property test (as a zero-radius capsule through a still
    sphere): the center lies exactly on the segment, but its along-edge parameter
    0.921875 * 2.421875 / 2.421875**2 rounds, leaving an along-the-segment residue
    of ~1e-16, which was taken as the separating direction (normal (0, 1, 0), along
    the segment: moving by the depth along it left the shapes overlapping)."""
    segment = Segment([-1.0, -1.921875, 0.0], [-1.0, 0.5, 0.0])
    result = sweep(Sphere([-1.0, -1.0, 0.0], 1.0), segment, [0.0, 0.0, 1.0])
    assert_hit(result, t=0.0, normal=[0, 0, 1], point=[-1, -1, 0], depth=1.0, feature=("edge", 0))
    still = sweep(Sphere([-1.0, -1.0, 0.0], 1.0), segment, [0.0, 0.0, 0.0])
    assert still.normal @ [0, 1, 0] == 0 and abs(np.linalg.norm(still.normal) - 1) <= tolerance.EXACT_RTOL


def test_moving_away_from_overlap_with_ignore_separating():
    overlapping = Sphere([0.5, 0.2, 0], 1.0)
    assert sweep(overlapping, SEGMENT, [1.0, 0, 0], ignore_separating=True).hit is False
    assert sweep(overlapping, SEGMENT, [-1.0, 0, 0], ignore_separating=True).hit is True


def test_still_sphere_centred_on_a_segment_leaves_by_the_escape_rule():
    """A center exactly on the segment has no separating direction of its own; with no
    motion off the segment, it leaves across the segment's axis crossed with the world
    axis it is least aligned with: y x x = -z (``physics.geometry.any_perpendicular``),
    by the full radius.  Moving along the segment changes nothing."""
    segment = Segment([0.0, -1, 0], [0, 1, 0])
    for motion in ([0.0, 0, 0], [0.0, 3, 0]):
        result = sweep(Sphere([0.0, 0, 0], 0.5), segment, motion)
        assert_hit(result, t=0, normal=[0, 0, -1], point=[0, 0, 0], depth=0.5, feature=("edge", 0))


@pytest.mark.parametrize("moving", [Sphere([0.0, 0, 0], 1.0), Capsule([0.0, 0, 0], [0.0, 0, 0], 1.0)],
                         ids=["sphere", "zero-length capsule"])
def test_regression_center_inside_a_segment_by_less_than_its_rounding(moving):
    """The segment runs from y = 1 down to y = -5.1e-37: the center (0, 0, 0) lies on
    it, inside.  Its direction rounds to exactly (0, -1, 0), which puts the center's
    projection at the end (w = 1), and the difference from that end, exact but 5e-37
    long, pointed +y, along the segment: moved so, the ball still sat on it
    (hypothesis, the overlap property of every pair).  A point inside a segment's span
    by the exact sign of its offsets is the edge's, whose escape rule leaves across it:
    the axis crossed with the world axis it is least aligned with, (0, -1, 0) x x = +z."""
    segment = Segment([0.0, 1.0, 0.0], [0.0, -5.114260319951797e-37, 0.0])
    result = sweep(moving, segment, [0.0, 0, 0])
    assert_hit(result, t=0, normal=[0, 0, 1], point=[0, 0, 0], depth=1.0, feature=("edge", 0))
