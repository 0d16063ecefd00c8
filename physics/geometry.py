"""Scalar geometry for one lane of a compiled kernel: 3-vectors as tuples ``(x, y, z)``.

Every function here is plain Python on floats, a ``physics.kernels.kernel``:
compiled into the kernels that call it, or run as the Python it is (the interpreted
tier, and ``NUMBA_DISABLE_JIT=1``: step through a sweep in a debugger).  Arithmetic
stays in the dtype it is given: a float32 lane computes in float32 (the editor's
precision lens), so constants are made with ``like``.  The
evaluation order of every expression is part of the answer (``dot`` is
``x + y + z`` summed left to right): kernels are expected to give the same floats
for a lane whatever batch it is in, and the golden corpus holds them to it.
"""

from __future__ import annotations

import math

import numpy as np
from numba.extending import overload

from sweeplab.physics.kernels import kernel


def sqrt(x):
    """``math.sqrt`` as the compiled kernels have it: NaN below zero, the argument's
    float type kept.  Run as Python it is numpy's, whose scalars also divide by zero
    as the compiled kernels do (inf or NaN, where a Python float would raise)."""
    return np.sqrt(x)


@overload(sqrt)
def _sqrt(x):
    return lambda x: math.sqrt(x)


def like(template, value):
    """``value`` as a float of ``template``'s type (a float32 lane keeps float32)."""
    return type(template)(value)


@overload(like)
def _like(template, value):
    kind = template

    def implementation(template, value):
        return kind(value)

    return implementation


@kernel
def is_wide(template):
    """Whether ``template``'s float type has more than float32's 24 significant bits
    (2^24 + 1 is exact in it): the one dtype test of the kernels' constants."""
    return like(template, 16777217.0) != like(template, 16777216.0)


@kernel
def epsilon(template):
    """Machine epsilon of ``template``'s float type (2^-52, or 2^-23 for float32)."""
    return like(template, 2.220446049250313e-16) if is_wide(template) else like(template, 1.1920928955078125e-07)


@kernel
def smallest_normal(template):
    """The smallest normal float of ``template``'s type (2^-1022, or 2^-126 for
    float32): a square below it has lost digits to underflow, or all of them."""
    wide = is_wide(template)
    return like(template, 2.2250738585072014e-308) if wide else like(template, 1.1754943508222875e-38)


@kernel
def power_of_two_below(value):
    """The exponent k with 2^(k-1) <= value < 2^k (``math.frexp``'s), for value > 0:
    scaling by 2^-k is exact and brings ``value`` to [0.5, 1)."""
    return math.frexp(value)[1]


@kernel
def minimum(a, b):
    """``numpy.minimum`` of two scalars: NaN if either is, ``b`` on a tie."""
    return a if (a < b or a != a) else b


@kernel
def maximum(a, b):
    """``numpy.maximum`` of two scalars: NaN if either is, ``b`` on a tie."""
    return a if (a > b or a != a) else b


@kernel
def row(array, i):
    """Row ``i`` of an (N, 3) array as a 3-vector tuple."""
    return (array[i, 0], array[i, 1], array[i, 2])


@kernel
def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@kernel
def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@kernel
def scale(s, a):
    """s a"""
    return (s * a[0], s * a[1], s * a[2])


@kernel
def along(a, s, b):
    """a + s b"""
    return (a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2])


@kernel
def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@kernel
def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@kernel
def two_product(a, b):
    """(a b rounded, its rounding error): a b == product + error exactly (Dekker's
    algorithm with Veltkamp's splitting; no fused multiply-add needed), in the
    lane's dtype, while the product neither overflows nor underflows."""
    split = like(a, 134217729.0) if is_wide(a) else like(a, 4097.0)  # 2^27 + 1, 2^12 + 1
    product = a * b
    a_scaled, b_scaled = split * a, split * b
    a_high, b_high = a_scaled - (a_scaled - a), b_scaled - (b_scaled - b)
    a_low, b_low = a - a_high, b - b_high
    return product, ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low


@kernel
def two_sum(a, b):
    """(a + b rounded, its rounding error): a + b == total + error exactly (Knuth's
    branch-free TwoSum), while the sum does not overflow."""
    total = a + b
    b_virtual = total - a
    return total, (a - (total - b_virtual)) + (b - b_virtual)


@kernel
def plane_height(point, normal, offset):
    """dot(normal, point) - offset as accurate as if computed in twice the lane's
    precision, then rounded (Ogita, Rump and Oishi's Dot2: every product's and every
    sum's rounding error carried along).

    The plain sum cancels for a point on or next to the plane: its error is ~eps of
    the terms, not of the height, so a point touching the plane exactly, or a ball
    sinking 1e-17 into it, can read as a few 1e-17 clear of it.  This one gets the
    side right unless the exact height is below ~eps^2 of the terms."""
    height, error = two_product(normal[0], point[0])
    for k in (1, 2):
        product, product_error = two_product(normal[k], point[k])
        height, sum_error = two_sum(height, product)
        error += product_error + sum_error
    height, sum_error = two_sum(height, -offset)
    return height + (error + sum_error)


@kernel
def difference_of_products(a, b, c, d):
    """a b - c d within about one rounding of the result, however much the products
    cancel (their rounding errors are carried along)."""
    ab, ab_error = two_product(a, b)
    cd, cd_error = two_product(c, d)
    return (ab - cd) + (ab_error - cd_error)


@kernel
def cross_accurate(a, b):
    """a x b with each component within about one rounding of its own size.

    Where ``a`` and ``b`` are nearly parallel, ``cross`` cancels: its components carry
    errors of ~eps |a| |b| against a true size of |a| |b| sin(angle), so for directions
    parallel up to rounding it is pure round-off, pointing anywhere (and not square
    to either).  This one is the cross product of the given vectors up to a rounding:
    square to both, zero only for exactly parallel ones."""
    return (difference_of_products(a[1], b[2], a[2], b[1]), difference_of_products(a[2], b[0], a[0], b[2]),
            difference_of_products(a[0], b[1], a[1], b[0]))


@kernel
def largest_magnitude(a):
    return maximum(maximum(abs(a[0]), abs(a[1])), abs(a[2]))


@kernel
def largest_magnitude_of_segments(start, end, other_start, other_end):
    """The largest |coordinate| of two segments' four end points."""
    return maximum(maximum(maximum(largest_magnitude(start), largest_magnitude(end)), largest_magnitude(other_start)),
                   largest_magnitude(other_end))


@kernel
def length(a):
    """|a|, without its square underflowing or overflowing: where |a|^2 is not a
    normal float, |a| = m |a / m| with m the largest |component| (an axis of two
    edges 1e-171 long has a length, not 0)."""
    squared = dot(a, a)
    if squared >= smallest_normal(squared) and squared < math.inf:
        return sqrt(squared)
    largest = largest_magnitude(a)
    if not (largest > 0 and largest < math.inf):
        return largest
    scaled = (a[0] / largest, a[1] / largest, a[2] / largest)
    return largest * sqrt(dot(scaled, scaled))


@kernel
def normalize_or(a, fallback):
    """a / |a|; ``fallback`` where a is zero.  A vector whose squared length
    underflows (to a subnormal float, or 0) or overflows is scaled by its largest
    component first."""
    squared = dot(a, a)
    if squared >= smallest_normal(squared) and squared < math.inf:
        length = sqrt(squared)
        return (a[0] / length, a[1] / length, a[2] / length)
    largest = largest_magnitude(a)
    if not largest > 0:
        return fallback
    scaled = (a[0] / largest, a[1] / largest, a[2] / largest)
    length = sqrt(dot(scaled, scaled))
    return (scaled[0] / length, scaled[1] / length, scaled[2] / length)


@kernel
def length_at_most(a, bound):
    """|a| <= ``bound`` (>= 0), decided without the squares underflowing: where |a|^2
    is below the normal floats (|a| < ~1e-154), both are scaled by a power of two
    first (exact), so a gap of 1e-300 is not read as touching."""
    squared = dot(a, a)
    if squared >= smallest_normal(squared):
        return squared <= bound * bound
    return _scaled_length_at_most(a, bound)


@kernel
def _scaled_length_at_most(a, bound):
    """``length_at_most`` where |a|^2 underflows: both scaled to unit size first."""
    largest = maximum(largest_magnitude(a), bound)
    if not largest > 0:
        return True
    k = power_of_two_below(largest)
    scaled, scaled_bound = times_power_of_two(a, -k), like(largest, math.ldexp(bound, -k))
    return dot(scaled, scaled) <= scaled_bound * scaled_bound


@kernel
def times_power_of_two(a, exponent):
    """``a`` times 2^exponent (exact unless it leaves the normal floats)."""
    return (like(a[0], math.ldexp(a[0], exponent)), like(a[0], math.ldexp(a[1], exponent)),
            like(a[0], math.ldexp(a[2], exponent)))


@kernel
def any_perpendicular(axis):
    """A unit vector square to ``axis`` (+z where it is zero): the axis crossed with the
    world axis it is least aligned with."""
    one, zero = like(axis[0], 1.0), like(axis[0], 0.0)
    x, y, z = abs(axis[0]), abs(axis[1]), abs(axis[2])
    if x <= minimum(y, z):
        world = (one, zero, zero)
    elif y <= z:
        world = (zero, one, zero)
    else:
        world = (zero, zero, one)
    return normalize_or(cross(axis, world), (zero, zero, one))


@kernel
def plus_zero(a):
    """a with -0.0 components made +0.0 (``a + 0.0``)."""
    zero = like(a[0], 0.0)
    return (a[0] + zero, a[1] + zero, a[2] + zero)
