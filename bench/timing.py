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
