"""Vector helpers in the kernels' *component-first* layout.

Inside the sweep kernels a batch of 3-vectors is an array of shape (3, ...): one
contiguous row per component, so every operation is a plain elementwise pass
(fast, and bit-identical per element whatever the batch shape — a scalar query
and the same query inside a batch round the same way).  The public API keeps
(..., 3); ``components`` converts.
"""

from __future__ import annotations

import numpy as np


def components(vectors: np.ndarray) -> np.ndarray:
    """(..., 3) -> (3, ...), contiguous."""
    vectors = np.asarray(vectors)
    return np.ascontiguousarray(vectors.transpose((vectors.ndim - 1, *range(vectors.ndim - 1))))


def store_rows(rows: np.ndarray, start: int, stop: int, vectors_: np.ndarray) -> None:
    """Write (3, n) ``vectors_`` into rows [start, stop) of an (N, 3) array, one
    component at a time (three strided passes are about 3x faster than assigning
    the transpose, which numpy copies element by element)."""
    for axis in range(3):
        rows[start:stop, axis] = vectors_[axis]


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot product of (3, ...) arrays, broadcasting the rest; always summed x, y, z."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def dot_last(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot product over the last axis of (..., 3) arrays, broadcast, summed x, y, z
    elementwise — unlike ``einsum`` or a matrix product, whose summing kernels may
    round by memory layout, it gives an element the same float in any batch."""
    return a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1] + a[..., 2] * b[..., 2]


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product of (3, ...) arrays (each component already has the broadcast shape)."""
    return np.stack((a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]))


def two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(a * b rounded, its rounding error), so that a * b == product + error exactly
    (Dekker's algorithm, with Veltkamp's splitting: no fused multiply-add needed).
    Computed in the arrays' dtype; exact while the products neither overflow nor
    underflow."""
    dtype = np.result_type(a, b)
    split = np.asarray(2.0 ** ((np.finfo(dtype).nmant + 2) // 2) + 1, dtype)  # 2^27 + 1 for float64
    product = a * b
    a_scaled, b_scaled = split * a, split * b
    a_high, b_high = a_scaled - (a_scaled - a), b_scaled - (b_scaled - b)
    a_low, b_low = a - a_high, b - b_high
    error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    return product, error


def difference_of_products(a, b, c, d) -> np.ndarray:
    """a * b - c * d to within about one rounding of the result, however much the two
    products cancel (their rounding errors are carried: ``two_product``)."""
    ab, ab_error = two_product(a, b)
    cd, cd_error = two_product(c, d)
    return (ab - cd) + (ab_error - cd_error)


def cross_accurate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The cross product of (3, ...) arrays with each component accurate to about one
    rounding of its own size (``difference_of_products``).

    Where ``a`` and ``b`` are nearly parallel, ``cross`` cancels: its components carry
    errors of ~eps |a| |b| against a true size of |a| |b| sin(angle), so for directions
    parallel up to rounding it is pure round-off, pointing anywhere (and not square to
    ``a`` or ``b``).  This one is the exact cross product of the given (rounded)
    vectors up to one rounding: square to both, and exactly zero only for exactly
    parallel ones.  Use it wherever a direction or a length is taken from the cross
    product of two directions that may be nearly parallel."""
    return np.stack((difference_of_products(a[1], b[2], a[2], b[1]), difference_of_products(a[2], b[0], a[0], b[2]),
                     difference_of_products(a[0], b[1], a[1], b[0])))


def normalize_or(vectors_: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Unit vectors along (3, ...) ``vectors_``; ``fallback`` where a vector is zero.

    Lanes whose squared length underflows (or overflows) are scaled by their
    largest component first, so tiny and huge vectors still normalise; every lane
    gets the same arithmetic whatever its neighbours.  Run under
    ``np.errstate(all="ignore")``.
    """
    squared = dot(vectors_, vectors_)
    unit = vectors_ / np.sqrt(squared)
    unrepresentable = ~((squared > 0) & (squared < np.inf))
    if np.any(unrepresentable):
        largest = np.maximum(np.maximum(np.abs(vectors_[0]), np.abs(vectors_[1])), np.abs(vectors_[2]))
        scaled = vectors_ / largest
        unit = np.where(unrepresentable, np.where(largest > 0, scaled / np.sqrt(dot(scaled, scaled)), fallback), unit)
    return unit


def any_perpendicular(axis: np.ndarray) -> np.ndarray:
    """A unit vector perpendicular to each (3, ...) ``axis`` (+z where it is zero):
    the axis crossed with the world axis it is least aligned with."""
    magnitude = np.abs(axis)
    least = np.where(magnitude[0] <= np.minimum(magnitude[1], magnitude[2]), 0,
                     np.where(magnitude[1] <= magnitude[2], 1, 2))
    world = np.stack([least == 0, least == 1, least == 2]).astype(axis.dtype)
    up = np.zeros_like(world)
    up[2] = 1
    return normalize_or(cross(axis, world), up)
