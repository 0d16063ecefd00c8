"""Exact rational arithmetic on float inputs, for regression tests and properties
whose verdict must not depend on round-off: every float is a fraction, and sums,
products and quotients of fractions are exact.  Distances stay squared (a square
root is irrational); compare them with squared radii, also exact."""

from __future__ import annotations

from fractions import Fraction

from sweeplab.engines.exact import segment_distance_squared as exactly


def rational(vector) -> tuple[Fraction, ...]:
    """The exact value of each float of ``vector``."""
    return tuple(Fraction(float(x)) for x in vector)


def segment_distance_squared(p0, p1, q0, q1) -> Fraction:
    """Squared distance between segments p0-p1 and q0-q1 (floats, taken exactly):
    ``sweeplab.engines.exact.segment_distance_squared`` (Ericson, Real-Time Collision
    Detection 5.1.9, whose parallel branch is exact there: the denominator is exactly
    zero only for exactly parallel segments)."""
    p0, p1, q0, q1 = (rational(v) for v in (p0, p1, q0, q1))
    return exactly(p0, p1, q0, q1)
