"""Thread scaling of the batch kernels: rate, speedup and efficiency at 1, 2, 4, 8, 16
threads (as many as the machine has), with each batch's serial share.

Workloads (``--quick``: a tenth of each, an 81,920-triangle icosphere):

- sphere-sphere, sphere-triangle, capsule-capsule: 10^6 random pairs each;
- box-box: 10^5 random boxes (``ConvexPolyhedron.box``) against one box;
- tree build: ``TriangleMesh(vertices, faces).tree`` of a 1,310,720-triangle
  icosphere (``trimesh.creation.icosphere(subdivisions=8)``);
- mesh batch: 10^5 sphere sweeps (r = 0.01) against that mesh.

Each workload is run once at one thread and once at all of them (compiling, or
loading from the disk cache, both loop variants) before it is timed, then in
``--repeats`` rounds of one run at each thread count; each figure is the best of its
runs.  The serial share is the fraction of one thread's
time spent outside lane loops (``physics.lanes.timed_loops``): with a share s, n
threads give at most 1 / (s + (1 - s) / n) (Amdahl), printed beside.  Targets (issue
#32): >= 12x at 16 threads for every batch, >= 10x for the tree build, a serial share
<= 3 %.  The speedup is against this run's one-thread rate, so the machine's load
(printed) shows in it.  Needs trimesh (the ``bench`` extra).  Not a test.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import NamedTuple

import numba
import numpy as np
from timing import machine_load

from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere, Triangle, TriangleMesh, sweep
from sweeplab.physics.lanes import timed_loops

BATCH_TARGET = 12.0
"""Speedup wanted at 16 threads for a batch of pair sweeps (issue #32)."""

TREE_TARGET = 10.0
"""Speedup wanted at 16 threads for the tree build (issue #32)."""

SERIAL_TARGET = 0.03
"""Serial share wanted (issue #32)."""

TARGET_THREADS = 16


class Workload(NamedTuple):
    """A batch to time: ``run()`` does ``count`` items of work (``unit``: what one is)."""

    name: str
    run: Callable[[], object]
    count: int
    unit: str
    target: float


def random_rotations(rng, count: int) -> np.ndarray:
    """(count, 3, 3) rotation matrices of uniformly random unit quaternions."""
    quaternions = rng.normal(size=(count, 4))
    w, x, y, z = (quaternions / np.linalg.norm(quaternions, axis=1)[:, None]).T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], 1)


def sphere_sphere(rng, count: int) -> Workload:
    movers = Sphere(rng.uniform(-10, 10, (count, 3)), rng.uniform(0.1, 2, count))
    targets = Sphere(rng.uniform(-10, 10, (count, 3)), rng.uniform(0.1, 2, count))
    motions = rng.uniform(-20, 20, (count, 3))
    return Workload("sphere-sphere", lambda: sweep(movers, targets, motions), count, "sweeps", BATCH_TARGET)


def sphere_triangle(rng, count: int) -> Workload:
    movers = Sphere(rng.uniform(-10, 10, (count, 3)), rng.uniform(0.1, 2, count))
    corners = rng.uniform(-10, 10, (count, 1, 3)) + rng.uniform(-3, 3, (count, 3, 3))
    targets = Triangle(corners[:, 0], corners[:, 1], corners[:, 2])
    motions = rng.uniform(-20, 20, (count, 3))
    return Workload("sphere-triangle", lambda: sweep(movers, targets, motions), count, "sweeps", BATCH_TARGET)


def capsule_capsule(rng, count: int) -> Workload:
    def capsules():
        starts = rng.uniform(-10, 10, (count, 3))
        return Capsule(starts, starts + rng.uniform(-3, 3, (count, 3)), rng.uniform(0.1, 1.0, count))

    movers, targets, motions = capsules(), capsules(), rng.uniform(-20, 20, (count, 3))
    return Workload("capsule-capsule", lambda: sweep(movers, targets, motions), count, "sweeps", BATCH_TARGET)


def box_box(rng, count: int) -> Workload:
    """Boxes of half extents 0.2-1, random poses and motions, against one box (as
    ``bench/polyhedron.py``)."""
    movers = ConvexPolyhedron.box(rng.uniform(0.2, 1, (count, 3)), rng.uniform(-4, 4, (count, 3)),
                                  random_rotations(rng, count))
    target = ConvexPolyhedron.box(rng.uniform(0.2, 1, 3), [0.0, 0, 0], random_rotations(rng, 1)[0])
    motions = rng.uniform(-8, 8, (count, 3))
    return Workload("box-box", lambda: sweep(movers, target, motions), count, "sweeps", BATCH_TARGET)


def icosphere(subdivisions: int) -> tuple[np.ndarray, np.ndarray]:
    import trimesh

    shape = trimesh.creation.icosphere(subdivisions=subdivisions)
    return np.asarray(shape.vertices, float), np.asarray(shape.faces, np.int64)


def tree_build(vertices: np.ndarray, faces: np.ndarray) -> Workload:
    return Workload("tree build", lambda: TriangleMesh(vertices, faces).tree, len(faces), "triangles", TREE_TARGET)


def mesh_batch(rng, vertices: np.ndarray, faces: np.ndarray, count: int) -> Workload:
    """Sphere sweeps (r = 0.01) from 3 units out towards (near) the center of the
    radius-1 icosphere (as ``bench/mesh.py``)."""
    mesh = TriangleMesh(vertices, faces)
    directions = rng.normal(size=(count, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    spheres, motions = Sphere(-3 * directions + rng.normal(scale=0.2, size=(count, 3)), 0.01), 3 * directions
    return Workload("mesh batch", lambda: sweep(spheres, mesh, motions), count, "sweeps", BATCH_TARGET)


def thread_counts(available: int, wanted: list[int] | None) -> list[int]:
    """``wanted`` (default 1, 2, 4, 8, 16 and all threads) up to the ``available`` ones."""
    default = [1 << k for k in range(5)] + [available]
    return sorted({count for count in (wanted or default) if 1 <= count <= available} | {1})


def timed_run(workload: Workload, threads: int) -> tuple[float, float]:
    """(seconds, seconds outside lane loops) of one run on ``threads`` threads."""
    numba.set_num_threads(threads)
    with timed_loops() as timer:
        start = time.perf_counter()
        workload.run()
        total = time.perf_counter() - start
    return total, max(total - timer.seconds, 0.0)


def amdahl(share: float, threads: int) -> float:
    """Speedup at most with serial ``share``: 1 / (s + (1 - s) / n)."""
    return 1 / (share + (1 - share) / threads)


def report(workload: Workload, threads: list[int], repeats: int) -> None:
    """Warm the workload at one thread and at the most, time ``repeats`` rounds of one
    run at each thread count (rounds, so that a change of the machine's load touches
    every count alike), and print its table: best rate per count; the serial share is
    the least of the one-thread runs'."""
    say(f"\n{workload.name}: {workload.count:,} {workload.unit}   ({machine_load()})")
    began = time.perf_counter()
    for used in (1, threads[-1]):
        timed_run(workload, used)
    say(f"  compile / warm {time.perf_counter() - began:6.1f} s")
    best = dict.fromkeys(threads, math.inf)
    share = 1.0
    for _ in range(repeats):
        for used in threads:
            seconds, serial = timed_run(workload, used)
            best[used] = min(best[used], seconds)
            if used == 1:
                share = min(share, serial / seconds)
    one = workload.count / best[1]
    say(f"  {'threads':>7}  {'rate':>13}  {'speedup':>7}  {'efficiency':>10}  {'Amdahl bound':>12}")
    for used in threads:
        rate = workload.count / best[used]
        say(f"  {used:7d}  {rate / 1e6:7.3f} M/s  {rate / one:6.2f}x  {100 * rate / one / used:9.0f} %"
            f"  {amdahl(share, used):11.1f}x")
    say(f"  serial share {100 * share:.1f} % (target <= {100 * SERIAL_TARGET:.0f} %);  target >= "
        f"{workload.target:.0f}x at {TARGET_THREADS} threads ({100 * workload.target / TARGET_THREADS:.0f} % "
        f"efficiency)   ({machine_load()})")


def say(text: str) -> None:
    print(text, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="*",
                        help="thread counts (default 1, 2, 4, 8, 16 and all: those there are)")
    parser.add_argument("--quick", action="store_true", help="a tenth of each batch, an 81,920-triangle mesh")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (the best is kept)")
    args = parser.parse_args()
    available = numba.config.NUMBA_NUM_THREADS
    threads = thread_counts(available, args.threads)
    pairs, boxes, subdivisions, queries = (10**5, 10**4, 6, 10**4) if args.quick else (10**6, 10**5, 8, 10**5)
    say(f"sweeplab thread scaling: threads {threads} of {available}; {machine_load()}")
    rng = np.random.default_rng(32)
    started = time.perf_counter()
    try:
        for make in (lambda: sphere_sphere(rng, pairs), lambda: sphere_triangle(rng, pairs),
                     lambda: capsule_capsule(rng, pairs), lambda: box_box(rng, boxes)):
            report(make(), threads, args.repeats)
        vertices, faces = icosphere(subdivisions)
        report(tree_build(vertices, faces), threads, args.repeats)
        report(mesh_batch(rng, vertices, faces, queries), threads, args.repeats)
    finally:
        numba.set_num_threads(available)
    say(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
