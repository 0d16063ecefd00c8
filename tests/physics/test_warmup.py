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
    warmup.run(steps, lambda progress: seen.append(progress[:4]))
    assert ran == ["a", "b"] and seen == [(0, 2, "a", ""), (1, 2, "b", "a"), (2, 2, "", "b")]


def test_named_steps_come_first_in_their_order():
    steps = [warmup.Task(name, lambda: None) for name in "abcd"]
    assert [step.name for step in warmup.ordered(steps, ["c", "x", "a", "c"])] == ["c", "a", "b", "d"]


def test_two_jobs_compile_every_step_in_their_own_processes(tmp_path, monkeypatch):
    """``run(jobs=2)`` runs each named step once in worker processes and reports each
    as it finishes (two cheap steps of ``tasks()``: the GJK cast and reference solver,
    and a pair)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    names = [warmup.SECOND_OPINIONS, "Sphere-Plane float64"]
    steps = [step for step in warmup.tasks() if step.name in names]
    seen = []
    report = warmup.run(steps, seen.append, jobs=2)
    assert sorted(progress.finished for progress in seen[1:]) == sorted(names)
    assert seen[0].done == 0 and seen[-1].done == 2 and seen[-1].running == ""
    assert report.cpu_seconds > 0 and report.peak_mb > 0


def test_warm_mark_follows_the_sources(tmp_path, monkeypatch):
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    assert not kernel_cache.is_warm()
    kernel_cache.mark_warm()
    assert kernel_cache.is_warm()
    monkeypatch.setattr(kernel_cache, "source_digest", lambda: "changed sources")
    assert not kernel_cache.is_warm()


def test_jobs_share_the_steps_by_dtype():
    """A process compiles what its steps share once: a dtype's steps go to one process,
    split in two while there are fewer shares than jobs, the smallest joined while
    there are more."""
    steps = [warmup.Task(name, lambda: None) for name in
             ("a float64", "b float64", "c float64", "d float32", "e float32", "gjk")]

    def names(jobs):
        return [[step.name for step in share] for share in warmup.shares(steps, jobs)]

    assert names(1) == [["a float64", "b float64", "c float64", "d float32", "e float32", "gjk"]]
    assert names(2) == [["a float64", "b float64", "c float64"], ["d float32", "e float32", "gjk"]]
    assert names(3) == [["a float64", "b float64", "c float64"], ["d float32", "e float32"], ["gjk"]]
    assert names(4) == [["d float32", "e float32"], ["a float64", "c float64"], ["gjk"], ["b float64"]]
    assert sorted(sum(names(9), [])) == sorted(step.name for step in steps) and len(names(9)) <= 6
