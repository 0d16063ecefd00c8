"""The bounding-ball early-out (``physics.sweep.bounds``): it only ever skips pairs
that miss, so answers stay the exact tests' own.  Checked against exact rational
arithmetic, and on the configurations where a shape's bounding ball touches exactly
when the shape does (collinear segments and capsules end to end, a sphere tangent
to a triangle at its vertex): there the slack must let the exact test run."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sweeplab.physics import Capsule, ConvexPolyhedron, Segment, Sphere, Triangle, sweep
from sweeplab.physics.core import bounding_ball
from sweeplab.physics.sweep.bounds import may_touch
from sweeplab.physics.tolerance import BOUNDS_SLACK_ULPS, SQUARING_LIMIT
from sweeplab.physics.sweep.rounded import ball_entry_time
from tests.physics.expect import assert_hit
from tests.physics.rational import rational
from tests.physics.strategies import coordinate, vector

radius = st.floats(0, 3)


def exact_min_distance_squared(center, direction, other_center) -> Fraction:
    """min over t in [0, 1] of |center + t d - other|^2, exactly."""
    offset = [c - o for c, o in zip(rational(center), rational(other_center), strict=True)]
    d = rational(direction)
    speed = sum(x * x for x in d)
    along = sum(m * x for m, x in zip(offset, d, strict=True))
    t = Fraction(0) if speed == 0 else min(Fraction(1), max(Fraction(0), -along / speed))
    return sum((m + t * x) ** 2 for m, x in zip(offset, d, strict=True))


@given(vector, radius, vector, vector, radius)
def test_a_skipped_pair_is_apart_by_more_than_its_radii(center, r, direction, other, other_r):
    if not may_touch(tuple(center), r, tuple(direction), tuple(other), other_r):
        assert exact_min_distance_squared(center, direction, other) > (Fraction(r) + Fraction(other_r)) ** 2


@given(vector, radius, vector, radius, st.floats(0, 1))
def test_balls_that_touch_exactly_are_never_skipped(center, r, direction, other_r, when):
    """The other ball placed where the moving one touches it at ``when`` (rounded)."""
    unit = np.array([0.0, 0, 1]) if not np.any(direction) else direction / np.linalg.norm(direction)
    other = center + when * direction + (r + other_r) * unit
    assert may_touch(tuple(center), r, tuple(direction), tuple(other), other_r)


def test_it_cannot_tell_beyond_squaring_range_or_with_nan():
    far = (1e200, 0.0, 0.0)
    assert may_touch(far, 1.0, (0.0, 0.0, 0.0), (-1e200, 0.0, 0.0), 1.0)
    assert may_touch((np.nan, 0.0, 0.0), 1.0, (0.0, 0.0, 0.0), (5.0, 0.0, 0.0), 1.0)


@given(st.lists(st.tuples(coordinate, coordinate, coordinate), min_size=1, max_size=8))
def test_the_bounding_ball_holds_every_point(points):
    points = np.array(points)
    center, reach = bounding_ball(points)
    for point in points:
        assert np.linalg.norm(point - np.array(center)) <= reach * (1 + 1e-15) + 4e-16 * np.abs(points).max()


def test_collinear_capsules_end_to_end_touch_at_the_end_of_the_motion():
    """Both capsules' bounding balls touch exactly when the capsules do."""
    moving, target = Capsule([-10.0, 0, 0], [-4.0, 0, 0], 1.0), Capsule([2.0, 0, 0], [6.0, 0, 0], 1.0)
    assert_hit(sweep(moving, target, [4.0, 0, 0]), t=1.0, normal=[-1, 0, 0], point=[1.0, 0, 0])


def test_collinear_segments_touching_end_to_end_at_the_start():
    found = sweep(Segment([-2.0, 0, 0], [0.0, 0, 0]), Segment([0.0, 0, 0], [3.0, 0, 0]), [0.0, 1, 0])
    assert found.hit and found.t == 0


def test_a_sphere_reaching_a_triangle_vertex_far_from_the_origin():
    """The sphere comes in along the line from the triangle's centroid through a vertex:
    it touches the triangle's bounding ball and the vertex at the same time."""
    offset = np.array([1e6, -2e6, 3e6])
    triangle = Triangle(offset + [0.0, 0, 0], offset + [2.0, 0, 0], offset + [1.0, np.sqrt(3.0), 0])
    center, reach = bounding_ball(triangle.vertices)
    tip = np.array(triangle.vertices[0])
    away = (tip - np.array(center)) / np.linalg.norm(tip - np.array(center))
    sphere = Sphere(tip + 3 * away + [0.0, 0, 0], 0.5)
    found = sweep(sphere, triangle, -2.6 * away)
    assert found.hit and abs(found.t - 2.5 / 2.6) < 1e-9 and found.feature.kind == "vertex"


def test_boxes_face_to_face_at_the_end_of_the_motion():
    found = sweep(ConvexPolyhedron.box([1.0, 1, 1], [-5.0, 0, 0]), ConvexPolyhedron.box([1.0, 1, 1]), [3.0, 0, 0])
    assert_hit(found, t=1.0, normal=[-1, 0, 0], point=[-1.0, 0, 0], face_index=0)


def test_widened_balls_meeting_exactly_at_the_end_of_the_motion_may_touch():
    """``may_touch``'s entry test ``<= 1`` at its threshold.  Balls of radius 0.5, one at
    the origin moving by (1, 0, 0), the other at (x, 0, 0): the reach 1 is widened by
    ``BOUNDS_SLACK_ULPS`` ulps of the scale (x + 2), 9.09e-13, and x = 2.0000000000009095
    is where the widened balls meet at t = 1.0 exactly (computed): kept; one float
    farther they never meet in [0, 1]: skipped; one float nearer: kept."""
    at = 2.0000000000009095
    scale = at + 2
    widening = BOUNDS_SLACK_ULPS * np.finfo(float).eps * scale
    assert at - 2 == pytest.approx(widening, rel=1e-3)
    assert ball_entry_time((-at, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0 + widening) == 1.0
    for x, kept in ((np.nextafter(at, 0), True), (at, True), (np.nextafter(at, 3), False)):
        assert may_touch((0.0, 0.0, 0.0), 0.5, (1.0, 0.0, 0.0), (float(x), 0.0, 0.0), 0.5) == kept, x


@pytest.mark.parametrize("x, kept", [
    (np.nextafter(SQUARING_LIMIT, 0), False),  # one float inside: tested, and far apart
    (SQUARING_LIMIT, True),                    # at it: never skipped
    (np.nextafter(SQUARING_LIMIT, math.inf), True),
])
def test_no_skip_at_the_squaring_limit(x, kept):
    """``may_touch``'s ``scale < SQUARING_LIMIT`` at its threshold: two still points
    (radius 0) at 0 and x, whose scale is x.  Below the limit the test runs and skips
    them (x apart, reach 1024 ulps of x); at or beyond it, where squares may overflow,
    it keeps them for the exact test.  (With ``<=`` the one at the limit was skipped.)"""
    assert may_touch((0.0, 0.0, 0.0), 0.0, (0.0, 0.0, 0.0), (float(x), 0.0, 0.0), 0.0) == kept


@pytest.mark.parametrize("a, b, radius, center, direction", [
    ([-1.2014199464752502, 0.24634681630057376, 0.3893824943072124],
     [1.4337737091980465, -0.13333384125756043, 1.3195651246437952], 0.5715069078042142,
     [2.292513799419694, -0.2691319572915951, 0.5640888015233033],
     [-0.6494562678128856, 0.11771455412675041, 1.8879485797937658]),
    ([-1.4687814917428472, 0.06733974705613877, -0.4199482800096521],
     [1.1600612719231997, -0.14003079929809115, 0.9232361965926912], 0.6094934889214662,
     [1.8780897282345475, 0.781673420735668, 1.003103459828411],
     [-0.35322221212212196, -1.9288255013530629, 0.39353049969940035]),
])
def test_sphere_grazing_a_segment_end_along_its_bounding_ball(a, b, radius, center, direction):
    """A sphere whose center passes the segment's end b at the sphere's radius, square
    to the segment: it grazes b exactly where it grazes the segment's bounding ball
    (center (a + b) / 2, radius |b - a| / 2), at t = 0.5.  Exactly (rationals) the
    closest approach is within the radius: a hit.  The bounding-ball test rounds
    the other way here: without its ``BOUNDS_SLACK_ULPS`` widening it skipped the pair (a
    miss; 28 of 300 such end grazes flipped)."""
    assert exact_min_distance_squared(center, direction, b) <= Fraction(radius) ** 2
    found = sweep(Sphere(center, radius), Segment(a, b), direction)
    assert found.hit and abs(found.t - 0.5) < 1e-8 and (found.feature.kind, found.feature.index) == ("vertex", 1)
