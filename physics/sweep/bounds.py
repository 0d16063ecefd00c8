"""Bounding balls: a cheap test that a pair cannot touch, run before its exact one.

Most lanes of a batch (and most candidate pairs a scene asks about) are nowhere
near contact, yet an exact test pays for every feature of both shapes.  Each shape
is wrapped in a ball (``core.bounding_ball``: the centroid of its core's points and
the farthest of them, plus its radius); where the moving ball never comes within the
still one's reach over t in [0, 1] (``ball_entry_time``), the pair is a miss and the
exact test is skipped.

The test only ever skips a pair that misses: the reach is widened by far more than
the rounding of any kernel at the pair's scale (``tolerance.BOUNDS_SLACK_ULPS`` ulps
of the largest coordinate, radius or motion), so a contact the exact test would find
within rounding still runs it; where squared lengths could overflow (a scale beyond
``tolerance.SQUARING_LIMIT``) it never skips.  Answers are therefore the exact
tests' own, bit for bit; only the time to reach them changes.
"""

from __future__ import annotations

from sweeplab.physics.kernels import kernel
from sweeplab.physics import tolerance
from sweeplab.physics.geometry import epsilon, largest_magnitude, like, maximum, sub
from sweeplab.physics.sweep.rounded import ball_entry_time


@kernel
def may_touch(center, radius, direction, other_center, other_radius):
    """False only where a ball (``center``, ``radius``) moving along ``direction`` stays
    farther than ``other_radius`` from ``other_center`` for every t in [0, 1], by more
    than ``tolerance.BOUNDS_SLACK_ULPS`` ulps of the pair's scale; True wherever it
    cannot tell."""
    scale = (maximum(largest_magnitude(center), largest_magnitude(other_center)) + largest_magnitude(direction)
             + radius + other_radius)
    if not scale < tolerance.SQUARING_LIMIT:  # (also NaN)
        return True
    reach = radius + other_radius + like(scale, tolerance.BOUNDS_SLACK_ULPS) * epsilon(scale) * scale
    return ball_entry_time(sub(center, other_center), direction, reach) <= 1
