"""Small root finders, vectorized over numpy arrays.

``solve_quadratic`` is the robust quadratic of the seed's ``SolveQuadratic``:
it degrades to the linear (a = 0) and constant (a = b = 0) cases and computes the
smaller-magnitude root as ``c / q`` so that no root is lost to cancellation.
"""

from __future__ import annotations

import numpy as np

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
    a, b, c = np.broadcast_arrays(*(np.asarray(v) for v in (a, b, c)))
    dtype = np.result_type(a, b, c, np.float32)
    if discriminant is None:
        discriminant = b * b - 4.0 * a * c
    discriminant = np.broadcast_to(np.asarray(discriminant, dtype=dtype), a.shape)

    quadratic = a != 0
    linear = ~quadratic & (b != 0)
    two_roots = quadratic & (discriminant >= 0)
    root_count = np.zeros(a.shape, dtype=np.int8)
    root_count[two_roots] = 2
    root_count[linear] = 1
    root_count[~quadratic & (b == 0) & (c == 0)] = IDENTICALLY_ZERO

    with np.errstate(divide="ignore", invalid="ignore"):
        root_of_disc = np.sqrt(np.where(two_roots, discriminant, 0))
        # q has the sign of -b, so b + sign(b)*sqrt never cancels.
        q = -0.5 * (b + np.where(b >= 0, root_of_disc, -root_of_disc))
        first = q / a
        second = np.where(q != 0, c / q, first)  # b = c = 0: both roots are 0
        low = np.where(two_roots, np.minimum(first, second), np.nan)
        high = np.where(two_roots, np.maximum(first, second), np.nan)
        linear_root = -c / b
    low = np.where(linear, linear_root, low).astype(dtype, copy=False)
    high = np.where(linear, linear_root, high).astype(dtype, copy=False)
    return root_count, low, high


def quadratic_nonpositive_interval(a, b, c, discriminant=None):
    """The interval of t where ``a t^2 + b t + c <= 0``, for ``a >= 0``.

    With ``a >= 0`` the set is a single (possibly empty or unbounded) interval;
    returns ``(low, high)`` with ``low > high`` (``+inf, -inf``) where it is empty and
    infinite ends where it is unbounded.  This is the "contact interval" of every
    sweep kernel: the squared distance minus the squared radius is such a quadratic.
    """
    root_count, low, high = solve_quadratic(a, b, c, discriminant)
    a, b, c = np.broadcast_arrays(*(np.asarray(v) for v in (a, b, c)))
    inf = np.asarray(np.inf, dtype=low.dtype)
    is_linear = root_count == 1
    always = (root_count == IDENTICALLY_ZERO) | ((a == 0) & (b == 0) & (c < 0))
    never = (root_count == 0) & ~always
    interval_low = np.where(is_linear & (b < 0), low, np.where(is_linear, -inf, low))
    interval_high = np.where(is_linear & (b > 0), high, np.where(is_linear, inf, high))
    interval_low = np.where(always, -inf, np.where(never, inf, interval_low))
    interval_high = np.where(always, inf, np.where(never, -inf, interval_high))
    return interval_low, interval_high
