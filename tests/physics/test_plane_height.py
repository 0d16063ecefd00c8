"""The height of a point over a plane, ``geometry.plane_height``, against exact
rational arithmetic; and what it decides: a core touching or crossing a plane at
t = 0 is a hit at t = 0 however close to the plane its ends are.

Points are drawn on purpose a few ulps from the plane (a random point projected onto
it, rounded, then nudged), where the plain sum ``x + y + z - offset`` cancels to
round-off and can read the wrong side."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sweeplab.physics import Capsule, Plane, Segment, sweep
from sweeplab.physics.geometry import plane_height, two_product, two_sum
from tests.physics.rational import rational
from tests.physics.strategies import coordinate, vector

finite = st.floats(-1e100, 1e100).filter(lambda x: x == 0 or abs(x) >= 1e-100)
planes = st.builds(Plane, vector.filter(lambda v: np.linalg.norm(v) > 1e-3), coordinate)


def exact_height(point, plane: Plane) -> Fraction:
    along = sum(n * p for n, p in zip(rational(plane.normal), rational(point), strict=True))
    return along - Fraction(float(plane.offset))


@st.composite
def near_plane_points(draw, plane: Plane) -> np.ndarray:
    """A random point moved onto ``plane`` (rounded), then ``ulps`` of its size along
    the normal (0 is allowed: rounding alone puts it within ~1e-16 of the plane)."""
    point = draw(vector)
    on_plane = point - (np.dot(plane.normal, point) - plane.offset) * plane.normal
    ulps = draw(st.sampled_from([0.0, 0.25, -0.25, 1.0, -1.0, 3.0]))
    return on_plane + ulps * np.finfo(float).eps * max(1.0, np.abs(on_plane).max()) * plane.normal


@given(finite, finite)
def test_two_product_and_two_sum_are_exact(a, b):
    product, product_error = two_product(a, b)
    total, sum_error = two_sum(a, b)
    if np.isfinite(product) and (product == 0 or abs(product) > 1e-290):  # Dekker's split: no under/overflow
        assert Fraction(product) + Fraction(product_error) == Fraction(a) * Fraction(b)
    if np.isfinite(total):
        assert Fraction(total) + Fraction(sum_error) == Fraction(a) + Fraction(b)


@given(st.data(), planes)
def test_plane_height_is_within_a_rounding_of_the_exact_height(data, plane):
    point = data.draw(near_plane_points(plane))
    exact = exact_height(point, plane)
    terms = sum(abs(n * p) for n, p in zip(rational(plane.normal), rational(point), strict=True)) \
        + abs(Fraction(float(plane.offset)))
    height = plane_height(tuple(point), tuple(plane.normal), float(plane.offset))
    error = abs(Fraction(float(height)) - exact)
    assert error <= Fraction(2.0 ** -52) * abs(exact) + Fraction(2.0 ** -100) * terms


@given(st.data(), planes, vector)
def test_a_segment_touching_or_crossing_a_plane_at_the_start_is_a_hit_at_zero(data, plane, direction):
    """Exactly: ends on opposite sides or on the plane means a hit at t = 0; both ends
    strictly on one side means no overlap at t = 0 (any hit comes later)."""
    start, end = data.draw(near_plane_points(plane)), data.draw(near_plane_points(plane))
    heights = exact_height(start, plane), exact_height(end, plane)
    found = sweep(Segment(start, end), plane, direction)
    assert (found.hit and found.t == 0) == (min(heights) <= 0 <= max(heights))


@given(st.data(), planes, st.floats(0.01, 3), vector)
def test_a_capsule_sinking_below_an_ulp_into_a_plane_is_a_hit_at_zero(data, plane, radius, direction):
    """Ends lifted by ``radius`` off near-plane points: a capsule resting on the plane
    within rounding; wherever its exact depth r - min(h) is >= 0 it touches at t = 0."""
    start, end = data.draw(near_plane_points(plane)), data.draw(near_plane_points(plane))
    start, end = start + radius * plane.normal, end + radius * plane.normal
    found = sweep(Capsule(start, end, radius), plane, direction)
    heights = exact_height(start, plane), exact_height(end, plane)
    if Fraction(radius) - min(heights) >= 0:
        assert found.hit and found.t == 0
