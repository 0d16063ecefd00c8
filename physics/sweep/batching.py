"""Run a kernel over a broadcast batch in cache-sized chunks.

Kernels see every input with its batch flattened to one axis of length n (the
chunk) or 1 (an unbatched input, broadcast by numpy): vectors (3, n), per-element
scalars (n,), target features (3, n, count) / (n, count).  Working in chunks of
``CHUNK_SIZE`` keeps the dozens of temporaries of a kernel in the CPU cache, and
costs nothing in precision: every operation is elementwise.
"""

from __future__ import annotations

import math

import numpy as np

CHUNK_SIZE = 8192
"""Elements per kernel pass (a speed setting, not a tolerance): large enough that
numpy's per-call overhead is small, small enough that temporaries stay in cache."""


def flatten(array: np.ndarray, batch_axis: int, own_batch: tuple, batch_shape: tuple) -> np.ndarray:
    """Replace ``array``'s batch dimensions (at ``batch_axis``) by one axis of length
    prod(batch_shape), or of length 1 if the array has no batch dimensions."""
    before, after = array.shape[:batch_axis], array.shape[batch_axis + len(own_batch):]
    if own_batch == ():
        return array.reshape(before + (1,) + after)
    if own_batch != batch_shape:
        padded = array.reshape(before + (1,) * (len(batch_shape) - len(own_batch)) + own_batch + after)
        array = np.broadcast_to(padded, before + batch_shape + after)
    return array.reshape(before + (math.prod(batch_shape),) + after)


def chunk(array, batch_axis: int, start: int, stop: int):
    """The chunk [start, stop) of a flattened array (unbatched arrays pass whole)."""
    if array is None or array.shape[batch_axis] == 1:
        return array
    return array[(slice(None),) * batch_axis + (slice(start, stop),)]


def chunk_ranges(count: int):
    """(start, stop) of each chunk of a batch of ``count`` elements."""
    return [(start, min(start + CHUNK_SIZE, count)) for start in range(0, count, CHUNK_SIZE)]
