"""Batches: one loop over independent lanes, compiled serial, and parallel only for
batches that gain from it.

A batch kernel of ``physics`` is a loop ``for i in prange(count)`` whose lane i
reads its own inputs and writes only row i of the outputs, so the lanes can run in
any order on any thread and every answer is the same bit for bit.  ``lane_loop``
makes that one source two ``physics.kernels.entry`` kernels:

- ``serial``: ``prange`` runs as ``range`` (no thread pool is started);
- ``parallel``: ``prange`` splits the lanes over numba's threads
  (``NUMBA_NUM_THREADS``, or ``numba.set_num_threads``).

Calling the loop as ``loop(count, *arguments)`` picks the parallel variant only from
``min_lanes`` lanes on (starting the pool costs tens of microseconds, more than a
few thousand cheap lanes take), so it is compiled only by a process that makes such
batches (``sweeplab warmup`` compiles both).  The lane count is the call's work for
the tier choice (``physics.kernels``): a small batch may run as Python, a large one
is compiled first; under the ``defer`` or ``interpret`` policy a large batch runs on
the serial variant's machine code where only it has some.  The variants are cached
under their own names (numba keys a cache entry by the function's name, not by its
``parallel`` flag, so one name would let a serial process load the parallel machine
code, or the reverse).  ``parallel_above`` makes the same pair of any kernel with
``prange`` loops whose work is not a lane count (a tree built level by level).  With
``NUMBA_DISABLE_JIT=1`` both are the plain Python function.
"""

from __future__ import annotations

import contextlib
import time
import types
from collections.abc import Iterator

import numba

from sweeplab.physics import kernels

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


class LoopTimer:
    """Wall seconds spent inside lane loops (both variants, ``run_serially`` too) while
    ``timed_loops`` is active: what a benchmark subtracts from a query's time to get
    the serial work around its parallel loop."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0


_timer: LoopTimer | None = None


@contextlib.contextmanager
def timed_loops() -> Iterator[LoopTimer]:
    """``with timed_loops() as timer:`` -- ``timer.seconds`` is the time the block
    spent inside lane loops (``bench/timing.py``'s serial share).  Not nested."""
    global _timer
    _timer = LoopTimer()
    try:
        yield _timer
    finally:
        _timer = None


class LaneLoop:
    """A kernel compiled twice (``serial`` and ``parallel``); call it as
    ``loop(work, *arguments)`` to run the variant that pays for ``work`` (a lane
    count; from ``min_work`` on, parallel)."""

    def __init__(self, function: types.FunctionType, min_work: int, seconds_per_work: float | None = None):
        self.serial = kernels.entry(function, seconds_per_work=seconds_per_work)
        self.parallel = kernels.entry(renamed(function, "_parallel"), seconds_per_work=seconds_per_work,
                                      parallel=True)
        self.min_work = min_work
        self.__doc__, self.__name__ = function.__doc__, function.__name__

    def __call__(self, amount: int, *arguments):
        parallel = amount >= self.min_work and numba.get_num_threads() > 1
        if parallel and kernels.policy() in ("defer", "interpret") \
                and not kernels.has_machine_code(self.parallel, arguments) \
                and kernels.has_machine_code(self.serial, arguments):
            parallel = False  # not compiling now: the serial machine code it has beats Python
        return self._run(self.parallel if parallel else self.serial, amount, arguments)

    def run_serially(self, amount: int, *arguments):
        """The serial variant whatever ``amount``: for loops whose lanes share an output
        (a counter of every hit)."""
        return self._run(self.serial, amount, arguments)

    @staticmethod
    def _run(variant, amount: int, arguments: tuple):
        timer = _timer
        with kernels.work(amount):
            if timer is None:
                return variant(*arguments)
            start = time.perf_counter()
            try:
                return variant(*arguments)
            finally:
                timer.seconds += time.perf_counter() - start
                timer.calls += 1


def lane_loop(loop=None, *, min_lanes: int = PARALLEL_MIN_LANES):
    """Decorator: ``loop`` (a ``prange`` loop over lanes) as a ``LaneLoop``."""
    if loop is None:
        return lambda function: LaneLoop(function, min_lanes)
    return LaneLoop(loop, min_lanes)


def parallel_above(min_work: int, seconds_per_work: float | None = None):
    """Decorator: a kernel with ``prange`` loops as a ``LaneLoop`` with ``min_work``
    (and ``kernels.entry``'s ``seconds_per_work``)."""
    return lambda function: LaneLoop(function, min_work, seconds_per_work)
