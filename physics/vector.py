"""Tiny vectorized helpers over the last axis (coordinates) of numpy arrays."""

from __future__ import annotations

import numpy as np


def dot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Dot product over the last axis, broadcasting the others."""
    return np.einsum("...k,...k->...", x, y)


def normalize_or(vectors: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Unit vectors along ``vectors``; ``fallback`` (broadcast) where a vector is zero.

    Scales by the largest component first, so tiny vectors (whose squared length
    underflows) and huge ones (whose squared length overflows) still normalise.
    """
    largest = np.abs(vectors).max(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = vectors / largest
        unit = scaled / np.sqrt(dot(scaled, scaled))[..., None]
    return np.where(largest > 0, unit, fallback)


def reject(vectors: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The part of ``vectors`` perpendicular to ``axis`` (unchanged where axis is zero)."""
    axis_squared = dot(axis, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        along = np.where(axis_squared > 0, dot(vectors, axis) / axis_squared, 0)
    return vectors - along[..., None] * axis


def any_perpendicular(axis: np.ndarray) -> np.ndarray:
    """A unit vector perpendicular to each ``axis`` (+z where the axis is zero).

    Crosses the axis with the world axis it is least aligned with, so the result
    is well conditioned.
    """
    axis = np.asarray(axis)
    least = np.argmin(np.abs(axis), axis=-1)
    world = np.eye(3, dtype=axis.dtype)[least]
    return normalize_or(np.cross(axis, world), np.array([0.0, 0.0, 1.0], dtype=axis.dtype))
