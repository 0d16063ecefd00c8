"""Timing helpers shared by the bench scripts (run them as ``python bench/NAME.py``)."""

from __future__ import annotations

import os
import time


def best_rate(run, count: int, repeats: int = 3) -> float:
    """Items per second of the fastest of ``repeats`` runs (the least disturbed by a
    shared machine's load)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return count / min(times)


def thread_rates(run, count: int, repeats: int = 3, threads: list[int] | None = None) -> dict[int, float]:
    """``best_rate`` at each of ``threads`` numba threads (default: 1, 2 and all of
    them) -> {threads: rate}; ``run`` is called once first so that no figure includes
    compiling."""
    import numba

    run()
    available = numba.config.NUMBA_NUM_THREADS
    wanted = sorted({used for used in (threads or [1, 2, available]) if used <= available})
    rates = {}
    try:
        for used in wanted:
            numba.set_num_threads(used)
            rates[used] = best_rate(run, count, repeats)
    finally:
        numba.set_num_threads(available)
    return rates


def serial_share(run, repeats: int = 3) -> float:
    """The fraction of one thread's time of ``run`` spent outside lane loops
    (``physics.lanes.timed_loops``): validation, allocation and result assembly that
    no number of threads speeds up.  Amdahl: with a serial share s, 16 threads give at
    most 1 / (s + (1 - s) / 16).  The least of ``repeats`` runs' shares."""
    import numba

    from sweeplab.physics.lanes import timed_loops

    available = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(1)
    shares = []
    try:
        run()
        for _ in range(repeats):
            with timed_loops() as timer:
                start = time.perf_counter()
                run()
                total = time.perf_counter() - start
            shares.append(max(total - timer.seconds, 0.0) / total)
    finally:
        numba.set_num_threads(available)
    return min(shares)


def describe(rates: dict[int, float], unit: float = 1e6, suffix: str = "M/s", share: float | None = None) -> str:
    """'x M/s one thread, y M/s on 2 (z x), ...' for ``thread_rates``, with the serial
    share (``serial_share``) when given."""
    one = rates[1]
    text = f"{one / unit:8.3f} {suffix} one thread"
    for threads, rate in rates.items():
        if threads > 1:
            text += f", {rate / unit:8.3f} {suffix} on {threads} ({rate / one:.2f}x)"
    if share is not None:
        text += f"; serial share {100 * share:.1f} % (target <= 3 %)"
    return text


def machine_load() -> str:
    """'load 1.23 on 16 cores' (the 1-minute load average before a figure)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return f"{os.cpu_count()} cores"
    return f"load {load:.2f} on {os.cpu_count()} cores"
