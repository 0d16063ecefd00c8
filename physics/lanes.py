"""Batches: one loop over independent lanes, compiled serial and parallel.

A batch kernel of ``physics`` is a loop ``for i in prange(count)`` whose lane i
reads its own inputs and writes only row i of the outputs, so the lanes can run in
any order on any thread and every answer is the same bit for bit.  ``lane_loop``
compiles that one source twice:

- ``serial``: ``prange`` runs as ``range`` (no thread pool is started);
- ``parallel``: ``prange`` splits the lanes over numba's threads
  (``NUMBA_NUM_THREADS``, or ``numba.set_num_threads``).

Calling the loop with the lane count picks the parallel variant only from
``min_lanes`` lanes on: starting the pool costs tens of microseconds, more than a
few thousand cheap lanes take.  The two variants are cached under their own names
(numba keys a cache entry by the function's name, not by its ``parallel`` flag, so
one name would let a serial process load the parallel machine code, or the
reverse).  With ``NUMBA_DISABLE_JIT=1`` both are the plain Python loop.
"""

from __future__ import annotations

import types

import numba
from numba import njit

from sweeplab.physics.geometry import COMPILE

PARALLEL_MIN_LANES = 4096
"""Lanes from which a loop of cheap lanes (one pair test each, 0.05-2 us) runs in
parallel.  Measured here (two threads, sphere-triangle, 0.45 us a lane): 256
lanes 126 us serial, 165 us parallel; 1,024 lanes 457 us and 259 us."""


def renamed(function: types.FunctionType, suffix: str) -> types.FunctionType:
    """A copy of ``function`` (same code, globals and defaults) whose name and
    qualified name end in ``suffix``: what numba's disk cache keys its files by."""
    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__ + suffix,
                              function.__defaults__, function.__closure__)
    copy.__qualname__ = function.__qualname__ + suffix
    copy.__doc__, copy.__module__ = function.__doc__, function.__module__
    return copy


class LaneLoop:
    """A batch loop compiled twice (``serial`` and ``parallel``); call it as
    ``loop(count, *arguments)`` to run the variant that pays for ``count`` lanes."""

    def __init__(self, loop: types.FunctionType, min_lanes: int):
        self.serial = njit(**COMPILE)(loop)
        self.parallel = njit(parallel=True, **COMPILE)(renamed(loop, "_parallel"))
        self.min_lanes = min_lanes
        self.__doc__, self.__name__ = loop.__doc__, loop.__name__

    def __call__(self, count: int, *arguments):
        parallel = count >= self.min_lanes and numba.get_num_threads() > 1
        return (self.parallel if parallel else self.serial)(*arguments)


def lane_loop(loop=None, *, min_lanes: int = PARALLEL_MIN_LANES):
    """Decorator: ``loop`` (a ``prange`` loop over lanes) as a ``LaneLoop``."""
    if loop is None:
        return lambda function: LaneLoop(function, min_lanes)
    return LaneLoop(loop, min_lanes)
