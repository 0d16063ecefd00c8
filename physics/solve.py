"""Small root finders.

``solve_quadratic`` is the robust quadratic of the seed's ``SolveQuadratic``: it
degrades to the linear (a = 0) and constant (a = b = 0) cases and
computes the smaller-magnitude root as ``c / q`` so that no root is lost to
cancellation.  ``first_nonpositive_time`` is the same formula reduced to what a
sweep needs: the first time a convex quadratic reaches zero.  Both are one lane,
compiled.
"""

from __future__ import annotations

import math


from sweeplab.physics.kernels import kernel
from sweeplab.physics.geometry import like, maximum, minimum, sqrt

IDENTICALLY_ZERO = -1
"""``root_count`` value meaning a = b = c = 0: every t is a root."""


@kernel
def solve_quadratic(a, b, c, discriminant):
    """Real roots of ``a t^2 + b t + c = 0``: (root_count, low, high).

    ``root_count`` is 0, 1 (the linear case), 2 (``low <= high``; a double root gives
    ``low == high``) or ``IDENTICALLY_ZERO``; ``low``/``high`` are NaN where they do
    not exist, and both hold the root in the linear case.  ``discriminant`` is
    ``b^2 - 4ac``, computed by the caller (from geometry where that is more accurate,
    e.g. ``4 a (r^2 - |m_perp|^2)`` for a ray against a sphere): its sign alone decides
    between two roots and none.  The smaller-magnitude root is ``c / q`` with ``q``
    of the sign of ``-b``, so ``b + sign(b) sqrt(...)`` never cancels."""
    nan = like(a, math.nan)
    if a != 0:
        if not discriminant >= 0:
            return 0, nan, nan
        q = like(a, -0.5) * (b + math.copysign(sqrt(discriminant), b))
        first = q / a
        second = c / q if q != 0 else first  # q = 0 only when b = c = 0
        return 2, minimum(first, second), maximum(first, second)
    if b != 0:
        return 1, -c / b, -c / b
    return (IDENTICALLY_ZERO if c == 0 else 0), nan, nan


@kernel
def first_nonpositive_time(a, half_b, c, quarter_discriminant):
    """The entry time of every sweep kernel: the earliest t >= 0 with
    ``a t^2 + 2 half_b t + c <= 0`` (a >= 0), +inf if none.  ``c <= 0``: already
    inside, 0.  Else the quadratic must fall at 0 (``half_b < 0``) with real roots,
    and the entry is the smaller root without cancellation,
    ``c / (sqrt(half_b^2 - a c) - half_b)`` (the roots' product is c / a); with
    a = 0 it is the linear root -c / (2 half_b).  ``quarter_discriminant`` is
    ``half_b^2 - a c``, computed by the caller (from geometry where that is more
    accurate: ``a (r^2 - |m_perp|^2)`` for a ray against a ball)."""
    if c <= 0:
        return like(c, 0.0)
    if half_b < 0 and quarter_discriminant >= 0:
        return c / (sqrt(maximum(quarter_discriminant, like(c, 0.0))) - half_b)
    return like(c, math.inf)
