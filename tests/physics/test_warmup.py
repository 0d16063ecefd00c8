"""``physics.warmup``: its examples really touch (so warming up runs the kernels a
real query runs), it covers every pair in both dtypes, and the cache's warm mark."""

from __future__ import annotations

import numpy as np
import pytest

from sweeplab.physics import Capsule, Triangle, kernel_cache, warmup
from sweeplab.physics.sweep import sweep
from sweeplab.physics.sweep.dispatch import PAIR_TESTS


@pytest.mark.parametrize("moving, target", list(PAIR_TESTS), ids=[f"{m.__name__}-{t.__name__}" for m, t in PAIR_TESTS])
def test_every_pair_example_hits_from_above(moving, target):
    found = sweep(warmup.example(moving, float, height=3.0), warmup.example(target, float), [0.0, 0.0, -6.0])
    assert found.hit and 0 < found.t < 1 and not found.initially_overlapping


def test_batched_examples_answer_as_one():
    one = sweep(warmup.example(Capsule, np.float32, height=3.0), warmup.example(Triangle, np.float32),
                np.array([0.0, 0.0, -6.0], np.float32))
    batch = sweep(warmup.example(Capsule, np.float32, 3, height=3.0), warmup.example(Triangle, np.float32),
                  np.array([0.0, 0.0, -6.0], np.float32))
    assert batch.t.dtype == np.float32 and batch.t.tolist() == [one.t] * 3


def test_tasks_cover_every_pair_in_both_dtypes():
    names = [task.name for task in warmup.tasks()]
    for moving, target in PAIR_TESTS:
        for dtype in ("float64", "float32"):
            assert f"{moving.__name__}-{target.__name__} {dtype}" in names
    assert any("mesh" in name for name in names) and any("GJK" in name for name in names)


def test_run_reports_progress_in_order():
    seen, ran = [], []
    steps = [warmup.Task("a", lambda: ran.append("a")), warmup.Task("b", lambda: ran.append("b"))]
    warmup.run(steps, lambda done, total, name, seconds: seen.append((done, total, name)))
    assert ran == ["a", "b"] and seen == [(0, 2, "a"), (1, 2, "b"), (2, 2, "")]


def test_warm_mark_follows_the_sources(tmp_path, monkeypatch):
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    assert not kernel_cache.is_warm()
    kernel_cache.mark_warm()
    assert kernel_cache.is_warm()
    monkeypatch.setattr(kernel_cache, "source_digest", lambda: "changed sources")
    assert not kernel_cache.is_warm()
