"""Timing helper shared by the bench scripts (run them as ``python bench/NAME.py``)."""

from __future__ import annotations

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


def thread_rates(run, count: int, repeats: int = 3) -> dict[int, float]:
    """``best_rate`` with one numba thread and with all of them ({threads: rate});
    ``run`` is called once first so that no figure includes compiling."""
    import numba

    run()
    threads = numba.config.NUMBA_NUM_THREADS
    rates = {}
    try:
        for used in sorted({1, threads}):
            numba.set_num_threads(used)
            rates[used] = best_rate(run, count, repeats)
    finally:
        numba.set_num_threads(threads)
    return rates


def describe(rates: dict[int, float], unit: float = 1e6, suffix: str = "M/s") -> str:
    """'x M/s one thread, y M/s two (z x)' for ``thread_rates``."""
    one = rates[1]
    text = f"{one / unit:8.3f} {suffix} one thread"
    for threads, rate in rates.items():
        if threads > 1:
            text += f", {rate / unit:8.3f} {suffix} on {threads} ({rate / one:.2f}x)"
    return text
