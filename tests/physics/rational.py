"""Exact rational arithmetic on float inputs, for regression tests and properties
whose verdict must not depend on round-off: every float is a fraction, and sums,
products and quotients of fractions are exact.  Distances stay squared (a square
root is irrational); compare them with squared radii, also exact."""

from __future__ import annotations

from fractions import Fraction


def rational(vector) -> tuple[Fraction, ...]:
    """The exact value of each float of ``vector``."""
    return tuple(Fraction(float(x)) for x in vector)


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def _clamp(x: Fraction) -> Fraction:
    return min(Fraction(1), max(Fraction(0), x))


def segment_distance_squared(p0, p1, q0, q1) -> Fraction:
    """Squared distance between segments p0-p1 and q0-q1 (floats, taken exactly):
    Ericson, Real-Time Collision Detection 5.1.9, whose parallel branch is exact
    here (the denominator is exactly zero only for exactly parallel segments)."""
    p0, p1, q0, q1 = (rational(v) for v in (p0, p1, q0, q1))
    d1, d2, r = _sub(p1, p0), _sub(q1, q0), _sub(p0, q0)
    a, e, f = _dot(d1, d1), _dot(d2, d2), _dot(d2, r)
    if a == 0 and e == 0:
        s, t = Fraction(0), Fraction(0)
    elif a == 0:
        s, t = Fraction(0), _clamp(f / e)
    else:
        c = _dot(d1, r)
        if e == 0:
            s, t = _clamp(-c / a), Fraction(0)
        else:
            b = _dot(d1, d2)
            denominator = a * e - b * b
            s = _clamp((b * f - c * e) / denominator) if denominator != 0 else Fraction(0)
            t = (b * s + f) / e
            if t < 0:
                s, t = _clamp(-c / a), Fraction(0)
            elif t > 1:
                s, t = _clamp((b - c) / a), Fraction(1)
    gap = tuple(p + s * d - q - t * g for p, d, q, g in zip(p0, d1, q0, d2, strict=True))
    return _dot(gap, gap)
