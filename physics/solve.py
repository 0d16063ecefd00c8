"""Small root finders.

``solve_quadratic`` is the robust quadratic of the seed's ``SolveQuadratic``
(arrays): it degrades to the linear (a = 0) and constant (a = b = 0) cases and
computes the smaller-magnitude root as ``c / q`` so that no root is lost to
cancellation.  ``first_nonpositive_time`` (one lane, compiled) is the same formula
reduced to what a sweep needs: the first time a convex quadratic reaches zero.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from physics.geometry import COMPILE, like, maximum

IDENTICALLY_ZERO = -1
"""``root_count`` value meaning a = b = c = 0: every t is a root."""


def solve_quadratic(a, b, c, discriminant=None):
    """Real roots of ``a t^2 + b t + c = 0``, elementwise.

    Returns ``(root_count, low, high)``: ``root_count`` is 0, 1 (the linear case),
    2 (``low <= high``; a double root gives ``low == high``) or ``IDENTICALLY_ZERO``.
    ``low``/``high`` are NaN where they do not exist; in the linear case both hold
    the single root.

    ``discriminant`` (``b^2 - 4ac``) may be passed when the caller can compute it
    more accurately from geometry than the textbook formula (e.g. as
    ``4 a (r^2 - |m_perp|^2)`` for a ray against a sphere); its sign alone then
    decides between two roots and none.
    """
    with np.errstate(all="ignore"):
        return _solve_quadratic(*np.broadcast_arrays(np.asarray(a), np.asarray(b), np.asarray(c)), discriminant)


def _solve_quadratic(a, b, c, discriminant):
    if discriminant is None:
        discriminant = b * b - 4.0 * a * c
    quadratic = a != 0
    two_roots = quadratic & (discriminant >= 0)
    # q has the sign of -b, so b + sign(b) * sqrt never cancels; q = 0 only when b = c = 0.
    q = -0.5 * (b + np.copysign(np.sqrt(np.where(two_roots, discriminant, 0)), b))
    first = q / a
    second = np.where(q != 0, c / q, first)
    nan = np.asarray(np.nan, dtype=first.dtype)
    low = np.where(two_roots, np.minimum(first, second), nan)
    high = np.where(two_roots, np.maximum(first, second), nan)
    linear = ~quadratic & (b != 0)
    linear_root = -c / b
    low = np.where(linear, linear_root, low)
    high = np.where(linear, linear_root, high)
    root_count = two_roots * np.int8(2) + linear * np.int8(1)
    root_count = np.where(~quadratic & (b == 0) & (c == 0), np.int8(IDENTICALLY_ZERO), root_count)
    return root_count, low, high


@njit(**COMPILE)
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
        return c / (math.sqrt(maximum(quarter_discriminant, like(c, 0.0))) - half_b)
    return like(c, math.inf)
