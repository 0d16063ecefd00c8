"""A moving point against one *rounded feature*: the seed's root kernels.

Sweeping a sphere of radius r against a feature is sweeping its center point
against the feature inflated by r (inflate/deflate).  The inflated features of a
convex polygon core are: a ball around each vertex, an infinite cylinder around
each edge (kept only where the contact projects inside the edge), and a slab
around the face (kept only where the contact projects inside the face).  The
first contact with the whole rounded polygon is the earliest of these.  Vectors
are 3-tuples (``physics.geometry``), one lane at a time, compiled.

Each function returns the first t in [0, 1] at which the moving point
``offset + t * direction`` is within ``radius`` of the feature, and ``+inf`` where
there is none.  Touching counts; no tolerance is used: a graze is a hit
exactly when float64 says the discriminant is >= 0.
"""

from __future__ import annotations

import math


from sweeplab.physics.kernels import kernel
from sweeplab.physics.geometry import (add, dot, largest_magnitude, length_at_most, like, maximum, minimum,
                                       power_of_two_below, scale, smallest_normal, sub, times_power_of_two)
from sweeplab.physics.solve import first_nonpositive_time


@kernel
def first_time_in(low, high):
    """Earliest t of the interval [low, high] that lies in [0, 1]; +inf if none."""
    start = maximum(low, like(low, 0.0))
    return start if (start <= high and start <= 1) else like(low, math.inf)


@kernel
def ball_entry_time(offset, direction, radius):
    """First t in [0, 1] with ``|offset + t direction| <= radius`` (3-vector tuples).

    The quadratic ``|d|^2 t^2 + 2 (m.d) t + |m|^2 - r^2`` takes its discriminant from
    the perpendicular distance of the line, ``|d|^2 (r^2 - |m_perp|^2)``: no
    ``b^2 - 4ac`` cancellation at a graze; and its entry root is the smaller-magnitude
    one, c / q, with no cancellation either (``solve.first_nonpositive_time``).  These
    are the two reformulations of Haines, Günther and Akenine-Möller, "Precision
    Improvements for Ray/Sphere Intersection", Ray Tracing Gems (2019), chapter 7.  An
    infinite cylinder is this ball in the plane square to its axis: pass the offset
    and direction without their axial parts.

    An offset whose square underflows (|m| < ~1e-154, beside coordinates of ~1) reads
    as inside (t = 0) when r^2 underflows too: such a lane is solved again scaled, m
    and r by 2^k, d by 2^-j (powers of two bringing each to unit size), whose root t'
    gives t = t' 2^(-k-j) exactly — not a false t = 0."""
    offset_squared = dot(offset, offset)
    time = _entry_time(offset, offset_squared, direction, radius)
    if time == 0 and offset_squared < smallest_normal(offset_squared) and largest_magnitude(offset) > 0:
        time = _tiny_offset_entry_time(offset, direction, radius)  # "inside" may be underflow
    return time if time <= 1 else like(time, math.inf)


@kernel
def _tiny_offset_entry_time(offset, direction, radius):
    """``_entry_time`` of an offset whose square underflows, solved scaled (exactly)."""
    largest, speed = largest_magnitude(offset), largest_magnitude(direction)
    if not speed > 0:
        return like(largest, 0.0) if length_at_most(offset, radius) else like(largest, math.inf)
    k, j = -power_of_two_below(maximum(largest, radius)), power_of_two_below(speed)
    scaled_offset = times_power_of_two(offset, k)
    time = _entry_time(scaled_offset, dot(scaled_offset, scaled_offset), times_power_of_two(direction, -j),
                       like(radius, math.ldexp(radius, k)))
    return like(time, math.ldexp(time, -k - j))


@kernel
def _entry_time(offset, offset_squared, direction, radius):
    """``ball_entry_time``'s root at any t >= 0 (+inf if none), as the quadratic gives it
    (``offset_squared``: |offset|^2)."""
    speed_squared = dot(direction, direction)
    half_b = dot(offset, direction)
    perpendicular = sub(offset, scale(half_b / speed_squared if speed_squared > 0 else like(half_b, 0.0), direction))
    radius_squared = radius * radius
    return first_nonpositive_time(speed_squared, half_b, offset_squared - radius_squared,
                                  speed_squared * (radius_squared - dot(perpendicular, perpendicular)))


@kernel
def slab_entry_time(height, rate, radius):
    """First t in [0, 1] with ``|height + t rate| <= radius``: a point approaching a
    plane at signed ``height`` with speed ``rate`` along its normal (a still one is
    always inside or never).  The two planes at +-radius are entered at
    t = (+-radius - height) / rate; the slab holds the point between them (Ericson,
    Real-Time Collision Detection (2005), 5.5.3, a moving sphere against a plane, for
    a two-sided plane)."""
    if rate != 0:
        first, second = (-radius - height) / rate, (radius - height) / rate
        return first_time_in(minimum(first, second), maximum(first, second))
    inside = abs(height) <= radius
    return first_time_in(like(height, -math.inf) if inside else like(height, math.inf),
                         like(height, math.inf) if inside else like(height, -math.inf))


@kernel
def segment_ball_entry_time(offset, axis, direction, radius):
    """First t in [0, 1] at which the moving segment ``offset + s axis + t direction``
    (s in [0, 1]) comes within ``radius`` of the origin; +inf if never.

    A capsule reaching a ball: the earlier of its two end balls and its side, the
    infinite cylinder kept where the closest point at contact lies inside the
    segment (elsewhere an end ball is reached first)."""
    ends = minimum(ball_entry_time(offset, direction, radius),
                   ball_entry_time((offset[0] + axis[0], offset[1] + axis[1], offset[2] + axis[2]), direction, radius))
    axis_squared = dot(axis, axis)
    if not axis_squared > 0:
        return ends
    inverse = like(axis_squared, 1.0) / axis_squared
    closest, rate = -dot(offset, axis) * inverse, -dot(direction, axis) * inverse  # s of the point nearest the origin
    side = ball_entry_time(add(offset, scale(closest, axis)), add(direction, scale(rate, axis)), radius)
    along_at_hit = closest + (side if side <= 1 else like(side, 0.0)) * rate
    if not (along_at_hit >= 0 and along_at_hit <= 1):
        side = like(side, math.inf)
    return minimum(ends, side)
