"""Closest points of two segments (``physics.closest``): where their lines are nearest,
and the direction of the separation."""

from __future__ import annotations

import math

import pytest

from sweeplab.physics.closest import lines_meet_within, rejection, segment_separation
from sweeplab.physics.geometry import cross_accurate, sub


def _meet_within(start, end, other_start, other_end) -> bool:
    along, other_along = sub(end, start), sub(other_end, other_start)
    return lines_meet_within(along, other_along, sub(start, other_start), cross_accurate(along, other_along))


# The segment (0, 0, 0)-(1, 0, 0) and (x, 1, -1)-(x, 1, 1) across it: their lines are
# nearest at s = x on the first, w = 1/2 on the second (every product exact).
ENDS = [(0.0, True), (2.0**-52, True), (-(2.0**-52), False), (1.0, True), (1.0 - 2.0**-53, True),
        (1.0 + 2.0**-52, False)]


@pytest.mark.parametrize("x, expected", ENDS)
def test_lines_meet_within_at_just_inside_and_just_outside_either_end(x, expected):
    first, second = ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)), ((x, 1.0, -1.0), (x, 1.0, 1.0))
    assert _meet_within(*first, *second) is expected  # s = x
    assert _meet_within(*second, *first) is expected  # the other way round: w = x


def test_parallel_lines_are_nearest_everywhere_not_within():
    assert _meet_within((0.0, 0, 0), (1.0, 0, 0), (0.0, 1, 0), (2.0, 1, 0)) is False


def test_regression_an_end_interior_by_rounding_keeps_its_own_direction():
    """A capsule core along a triangle edge, both 1e6 from the origin (the example
    ``test_regression_overlap_along_an_edge_far_from_the_origin`` runs whole): parallel
    up to the inputs' rounding (8e-12 rad), 8.74e-8 apart, their lines nearest far
    beyond the core's end a (s = -1685).  The sign test calls both closest points
    interior (a's foot is inside the core's span by 8e-12 of round-off), so the
    direction was the lines' common normal, (0, 0.780, 0.626), a rounding artefact; it
    must be a's own offset from the edge, square to the edge, (-0.841, 0.490, -0.231)."""
    start = (-6.023980435595923 + 1e6, -6.512817268737888 + 1e6, -(2.0**-23) + 1e6)
    end = (-3.0119902177979614 + 1e6, -3.256408573259847 + 1e6, -4.05858488754228 + 1e6)
    corner, following = (-6.023980435595923 + 1e6, -6.512817390956082 + 1e6, 1e6), (1e6, 1e6, -8.117169536665982 + 1e6)
    separation, _, interior, interior_other = segment_separation(start, end, corner, following)
    assert interior and interior_other and not _meet_within(start, end, corner, following)
    expected = rejection(sub(start, corner), sub(following, corner))  # exact differences: a's offset, to round-off
    length = math.dist(expected, (0.0, 0.0, 0.0))
    assert math.dist(separation, expected) <= 1e-12 * length
