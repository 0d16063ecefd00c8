"""Batches: one loop over independent lanes, run on one thread or several.

A batch kernel of ``physics`` is a loop ``for i in range(first, last)`` whose lane i
reads its own inputs and writes only row i of the outputs, so any range of lanes can
run on any thread, in any order, and every answer is the same bit for bit.
``lane_loop`` makes it a ``physics.kernels.entry`` compiled once, releasing the
GIL; calling the loop as ``loop(count, *arguments)`` runs lanes [0, count):

- on the calling thread below ``min_lanes`` lanes, or where the loop runs as Python
  (the interpreted tier: threads would only take turns);
- from ``min_lanes`` lanes on, split into ranges run on a pool of
  ``numba.get_num_threads()`` threads (``NUMBA_NUM_THREADS``, ``numba.set_num_threads``),
  all calling the one compiled loop.  (numba's own ``parallel=True`` would compile a
  second copy of every loop, with every kernel it calls: a quarter of all compile
  time, for batches most processes never make.)

The lane count is the call's work for the tier choice (``physics.kernels``): a small
batch may run as Python, a large one is compiled first.

``parallel_above`` is for kernels whose parallel loops are not independent lanes (a
tree built level by level): a serial and a ``parallel=True`` variant, the second
compiled only for work large enough to gain from it.  With ``NUMBA_DISABLE_JIT=1``
every variant is the plain Python function.
"""

from __future__ import annotations

import concurrent.futures
import threading
import types

import numba

from sweeplab.physics import kernels

PARALLEL_MIN_LANES = 4096
"""Lanes from which a loop of cheap lanes (one pair test each, 0.05-2 us) runs on
several threads.  Measured here (two threads, sphere-triangle, 0.45 us a lane):
256 lanes 126 us serial, 165 us parallel; 1,024 lanes 457 us and 259 us."""

RANGES_PER_THREAD = 4
"""A parallel batch is cut into this many lane ranges per thread, so a thread that
drew costly lanes (long mesh walks) is helped by the others."""


def renamed(function: types.FunctionType, suffix: str) -> types.FunctionType:
    """A copy of ``function`` (same code, globals and defaults) whose name and
    qualified name end in ``suffix``: what numba's disk cache keys its files by."""
    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__ + suffix,
                              function.__defaults__, function.__closure__)
    copy.__qualname__ = function.__qualname__ + suffix
    copy.__doc__, copy.__module__ = function.__doc__, function.__module__
    return copy


_pool_lock = threading.Lock()
_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_size = 0


def _thread_pool(size: int) -> concurrent.futures.ThreadPoolExecutor:
    """The shared pool, (re)made with ``size`` threads."""
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size != size:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = concurrent.futures.ThreadPoolExecutor(size, thread_name_prefix="sweeplab lanes")
            _pool_size = size
        return _pool


def lane_ranges(count: int, threads: int) -> list[tuple[int, int]]:
    """[0, count) cut into up to ``RANGES_PER_THREAD * threads`` consecutive ranges of
    nearly equal length."""
    pieces = max(1, min(count, RANGES_PER_THREAD * threads))
    bounds = [count * k // pieces for k in range(pieces + 1)]
    return [(bounds[k], bounds[k + 1]) for k in range(pieces) if bounds[k] < bounds[k + 1]]


class LaneLoop:
    """A batch loop ``loop(first, last, *arguments)`` over lanes [first, last),
    compiled once (``kernel``); call it as ``loop(count, *arguments)``."""

    def __init__(self, loop: types.FunctionType, min_lanes: int):
        self.kernel = kernels.entry(loop, nogil=True)
        self.min_lanes = min_lanes
        self.__doc__, self.__name__ = loop.__doc__, loop.__name__

    def __call__(self, count: int, *arguments):
        """Lanes [0, count), on several threads where that pays (module docstring)."""
        threads = numba.get_num_threads()
        if count < self.min_lanes or threads < 2:
            return self.run_serially(count, *arguments)
        ranges = lane_ranges(count, threads)
        first, last = ranges[0]
        self.run_serially(count, *arguments, lanes=(first, last))  # compiles or loads it, or runs it as Python
        if not kernels.has_machine_code(self.kernel, (first, last) + arguments):
            self.run_serially(count, *arguments, lanes=(last, count))  # interpreted: threads would take turns
            return None
        pool = _thread_pool(threads)
        for done in [pool.submit(self.kernel, start, stop, *arguments) for start, stop in ranges[1:]]:
            done.result()
        return None

    def run_serially(self, count: int, *arguments, lanes: tuple[int, int] | None = None):
        """Lanes [0, count) (or ``lanes``) on the calling thread: for loops whose lanes
        share an output (a counter of every hit)."""
        first, last = (0, count) if lanes is None else lanes
        with kernels.work(last - first):
            return self.kernel(first, last, *arguments)


def lane_loop(loop=None, *, min_lanes: int = PARALLEL_MIN_LANES):
    """Decorator: ``loop`` (a loop over lanes [first, last)) as a ``LaneLoop``."""
    if loop is None:
        return lambda function: LaneLoop(function, min_lanes)
    return LaneLoop(loop, min_lanes)


class SerialOrParallel:
    """A kernel with ``prange`` loops, compiled serial (``prange`` is ``range``) and, for
    calls of at least ``min_work``, with ``parallel=True`` (under its own cache name:
    numba keys cache files by the function's name, not its flags).  Call it as
    ``kernel(work, *arguments)``."""

    def __init__(self, function: types.FunctionType, min_work: int, seconds_per_work: float | None):
        self.serial = kernels.entry(function, seconds_per_work=seconds_per_work)
        self.parallel = kernels.entry(renamed(function, "_parallel"), seconds_per_work=seconds_per_work, parallel=True)
        self.min_work = min_work
        self.__doc__, self.__name__ = function.__doc__, function.__name__

    def __call__(self, amount: int, *arguments):
        parallel = amount >= self.min_work and numba.get_num_threads() > 1
        with kernels.work(amount):
            return (self.parallel if parallel else self.serial)(*arguments)


def parallel_above(min_work: int, seconds_per_work: float | None = None):
    """Decorator: the kernel as a ``SerialOrParallel`` with ``min_work`` (and
    ``kernels.entry``'s ``seconds_per_work``)."""
    return lambda function: SerialOrParallel(function, min_work, seconds_per_work)
