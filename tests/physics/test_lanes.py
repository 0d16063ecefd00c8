"""Batches run their lanes serial or in parallel (``physics.lanes``): the answers are
the same bit for bit with one thread and with every thread, for every batch loop."""

from __future__ import annotations

import time

import numba
import numpy as np
import pytest
import trimesh

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Segment, Sphere, Triangle, TriangleMesh, kernels, sweep
from sweeplab.physics.closest import closest_parameters_batch
from sweeplab.physics.lanes import PARALLEL_MIN_LANES, renamed
from sweeplab.physics.sweep.mesh import PARALLEL_MIN_WALKS

LANES = 2 * PARALLEL_MIN_LANES


def _rng():
    return np.random.default_rng(20261125)


def _capsules(rng, count, dtype=float):
    starts = rng.uniform(-3, 3, (count, 3)).astype(dtype)
    ends = starts + rng.uniform(-2, 2, (count, 3)).astype(dtype)
    return Capsule(starts, ends, rng.uniform(0, 1, count).astype(dtype))


def _spheres(rng, count, dtype=float):
    return Sphere(rng.uniform(-3, 3, (count, 3)).astype(dtype), rng.uniform(0, 1, count).astype(dtype))


def _boxes(rng, count):
    return ConvexPolyhedron.box(rng.uniform(0.2, 1, (count, 3)), center=rng.uniform(-3, 3, (count, 3)))


def _batches():
    """(name, function answering one large batch): one per batch loop of physics."""
    rng = _rng()
    count = LANES
    directions = rng.uniform(-6, 6, (count, 3))
    triangles = Triangle(*rng.uniform(-3, 3, (3, count, 3)))
    planes = Plane(rng.normal(size=(count, 3)), rng.uniform(-1, 1, count))
    spheres, capsules = _spheres(rng, count), _capsules(rng, count)
    spheres32 = _spheres(rng, count, np.float32)
    boxes = _boxes(rng, 256)
    icosphere = trimesh.creation.icosphere(subdivisions=3)
    mesh = TriangleMesh(icosphere.vertices, icosphere.faces)
    walks = 4 * PARALLEL_MIN_WALKS
    yield "ball-core", lambda: sweep(spheres, _spheres(_rng(), count), directions)
    yield "ball-core float32", lambda: sweep(spheres32, Triangle(*triangles.vertices.transpose(1, 0, 2).astype(
        np.float32)), directions.astype(np.float32))
    yield "ball-plane", lambda: sweep(spheres, planes, directions)
    yield "capsule-segment", lambda: sweep(capsules, Segment(capsules.a[::-1], capsules.b[::-1]), directions)
    yield "capsule-polygon", lambda: sweep(capsules, triangles, directions)
    yield "capsule-plane", lambda: sweep(capsules, planes, directions)
    yield "polyhedron pair", lambda: sweep(boxes, _boxes(_rng(), 256), directions[:256])
    yield "core-polyhedron", lambda: sweep(capsules[:256], boxes, directions[:256])
    yield "polyhedron-plane", lambda: sweep(boxes, planes[:256], directions[:256])
    yield "mesh walks", lambda: sweep(Sphere(rng_points(walks), 0.1), mesh, -3 * rng_points(walks))
    yield "closest parameters", lambda: closest_parameters_batch(capsules.a, capsules.b - capsules.a, triangles.a,
                                                                 triangles.b - triangles.a)


def rng_points(count):
    points = np.random.default_rng(7).normal(size=(count, 3))
    return 2 * points / np.linalg.norm(points, axis=1)[:, None]


def _arrays(answer):
    if isinstance(answer, tuple):
        return list(answer)
    return [answer.t, answer.point, answer.normal, answer.penetration_depth, answer.face_index,
            answer.feature.kind, answer.feature.index]


BATCHES = list(_batches())


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="numba has one thread here (NUMBA_NUM_THREADS)")
@pytest.mark.parametrize("name, answer", BATCHES, ids=[name for name, _ in BATCHES])
def test_one_thread_and_every_thread_answer_alike(name, answer):
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        serial = _arrays(answer())
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        parallel = _arrays(answer())
    finally:
        numba.set_num_threads(threads)
    hits = np.sum(~np.isnan(serial[0]))
    assert 0 < hits, f"{name}: no lane hit, the comparison proves nothing"
    for one, every in zip(serial, parallel, strict=True):
        np.testing.assert_array_equal(one, every)


def test_each_variant_has_its_own_cache_name():
    """numba names a cached kernel's files after its qualified name: a serial and a
    parallel variant of one loop must not share them."""

    def loop(x):
        return x

    copy = renamed(loop, "_parallel")
    assert copy.__qualname__ == loop.__qualname__ + "_parallel" and copy.__code__ is loop.__code__
    assert copy(3) == 3


def test_timed_loops_counts_the_time_inside_lane_loops_only_while_active():
    from sweeplab.physics import Sphere, sweep
    from sweeplab.physics.lanes import timed_loops

    movers, targets = Sphere(np.zeros((8, 3)), np.ones(8)), Sphere(np.array([3.0, 0, 0]), 1.0)
    with timed_loops() as timer:
        started = time.perf_counter()
        sweep(movers, targets, np.array([4.0, 0, 0]))
        total = time.perf_counter() - started
    calls = timer.calls
    assert calls >= 1  # the sweep's lanes, the answer's flags
    assert 0 < timer.seconds <= total
    sweep(movers, targets, np.array([4.0, 0, 0]))
    assert timer.calls == calls  # no longer counting


def _turning_batches():
    """(name, lane loop, function answering one batch that takes its parallel variant):
    conservative advancement's loops (``sweep.advancement``), capsules of random poses
    moving towards the origin (some stopping short) and turning, against a box and
    against a mesh."""
    from sweeplab.physics.sweep.advancement import PARALLEL_MIN_PAIRS, mesh_lanes, pair_lanes
    from sweeplab.physics.sweep.advancement import PARALLEL_MIN_WALKS as TURNING_WALKS

    icosphere = trimesh.creation.icosphere(subdivisions=1)
    mesh = TriangleMesh(icosphere.vertices, icosphere.faces)
    box = ConvexPolyhedron.box([0.5, 0.5, 0.5])

    def turning(count, target):
        rng = _rng()
        starts = 2.5 * rng_points(count)
        capsules = Capsule(starts, starts + rng.uniform(-0.5, 0.5, (count, 3)), rng.uniform(0, 0.3, count))
        directions, rotations = -rng.uniform(0.05, 1.0, (count, 1)) * starts, rng.uniform(-2, 2, (count, 3))
        return lambda: sweep(capsules, target, directions, rotation=rotations)

    yield "turning pairs", pair_lanes, turning(PARALLEL_MIN_PAIRS, box)
    yield "turning mesh walks", mesh_lanes, turning(TURNING_WALKS, mesh)


TURNING_BATCHES = list(_turning_batches())


def _compiled_in_both_variants(answer):
    """(every thread's answer, one thread's), compiled: the parallel and the serial
    variant of the batch's loop."""
    threads = numba.get_num_threads()
    try:
        with kernels.compiled():
            parallel = answer()
            numba.set_num_threads(1)
            serial = answer()
    finally:
        numba.set_num_threads(threads)
    return parallel, serial


@pytest.mark.skipif(kernels.JIT_DISABLED, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="numba has one thread here (NUMBA_NUM_THREADS)")
@pytest.mark.parametrize("name, loop, answer", TURNING_BATCHES, ids=[name for name, _, _ in TURNING_BATCHES])
def test_turning_batches_compile_in_parallel_and_answer_as_one_thread(name, loop, answer):
    """Compiled (numba's parfor lowering of the parallel variant once refused the mesh
    walks' tuple of tuples of every-hit arrays: any batch of 64 turning sweeps against a
    mesh raised on a machine with two cores), the parallel variant answers as the serial
    one, bit for bit."""
    parallel, serial = _compiled_in_both_variants(answer)
    assert loop.parallel.signatures, f"{name}: the parallel variant was never compiled"
    assert np.sum(serial.hit) > 0 and np.sum(~serial.hit) > 0, f"{name}: hits and misses both, or it proves little"
    for one, every in zip(_arrays(serial) + list(serial.advancement), _arrays(parallel) + list(parallel.advancement),
                          strict=True):
        np.testing.assert_array_equal(one, every)


@pytest.mark.skipif(kernels.JIT_DISABLED, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")
@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="numba has one thread here (NUMBA_NUM_THREADS)")
@pytest.mark.parametrize("name, loop, answer", TURNING_BATCHES, ids=[name for name, _, _ in TURNING_BATCHES])
def test_turning_batch_loops_are_kept_in_the_disk_cache(name, loop, answer):
    """numba writes no machine code holding a Python object's address ("dynamic
    globals") to its cache: the mesh walks' loop once held its node and leaf tests'
    (numba dispatchers passed to a ``walk_query`` that LLVM left a call), so every
    process compiled it anew, minutes on a loaded machine."""
    _compiled_in_both_variants(answer)
    for variant in (loop.serial, loop.parallel):
        for overload in variant.overloads.values():
            assert not overload.library.has_dynamic_globals, f"{name}: {variant.__name__} holds addresses"
        if variant._cache_problem is None:  # (no folder for a cache: nothing to see)
            assert variant._cache.may_hold_some(), f"{name}: no index file for {variant.__name__} in numba's cache"
