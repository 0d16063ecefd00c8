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
