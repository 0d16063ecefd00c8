"""Compile every kernel up front: ``sweeplab warmup``, and the editor on a cold cache.

numba compiles an entry kernel on its first compiled call per argument types and
keeps the machine code in its disk cache (``physics.kernel_cache``): later processes
load it in milliseconds.  Until then a query may run as Python (``physics.kernels``).
``tasks()`` lists small real queries that together reach every entry: each pair of
``sweep`` in float64 and float32, one configuration and a batch, traced as the
editor traces them; the mesh functions (tree build, edge analysis, contacts,
classify, mesh-mesh overlap and first contact) with the parallel variants of the
tree build and edge analysis; the GJK cast and the reference solver.  ``run`` runs
them compiled, in this process or in ``jobs`` processes at once (each compiles its
share into the one disk cache); a task names the pair so a progress bar can say
what is compiling.
"""

from __future__ import annotations

import inspect
import math
import multiprocessing
import queue
import resource
import time
from typing import NamedTuple
from collections.abc import Callable, Iterable

import numba
import numpy as np

from sweeplab.physics.broadphase import first_mesh_contact
from sweeplab.physics import bvh, kernels, mesh_edges, tolerance
from sweeplab.physics.contacts import classify, contacts
from sweeplab.physics.gjk import convex_cast
from sweeplab.physics.lanes import PARALLEL_MIN_LANES
from sweeplab.physics.overlap import mesh_overlap
from sweeplab.physics.reference import reference_sweep
from sweeplab.physics.shapes import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle,
                                     TriangleMesh)
from sweeplab.physics.sweep import sweep
from sweeplab.physics.sweep.dispatch import PAIR_TESTS
from sweeplab.physics.sweep.mesh import PARALLEL_MIN_WALKS, sweep_capsule_mesh_all, sweep_sphere_mesh_all
from sweeplab.physics.sweep.polyhedron import SatTrace
from sweeplab.physics.sweep.advancement import PARALLEL_MIN_PAIRS
from sweeplab.physics.sweep.advancement import PARALLEL_MIN_WALKS as PARALLEL_MIN_TURNING_WALKS
from sweeplab.physics.sweep.turning import advancement_steps
from sweeplab.physics.traversal import TraversalTrace

DTYPES = (np.float64, np.float32)


class Task(NamedTuple):
    """One step of a warmup: ``name`` (e.g. "Capsule-Triangle float32") and ``run``."""

    name: str
    run: Callable[[], object]


def _repeat(values, dtype, count: int | None) -> np.ndarray:
    """``values`` as an array of ``dtype``, with a leading batch axis of ``count``."""
    array = np.asarray(values, dtype)
    return array if count is None else np.repeat(array[None], count, axis=0)


def example(kind: type, dtype, count: int | None = None, height: float = 0.0):
    """A small shape of ``kind`` about (0, 0, ``height``) (a batch of ``count`` equal
    ones, or one): an example that touches the others when swept down by 6 units."""
    center = [0.0, 0.1, height]
    if kind is Sphere:
        return Sphere(_repeat(center, dtype, count), _repeat(0.5, dtype, count))
    if kind is Point:
        return Point(_repeat(center, dtype, count))
    if kind in (Capsule, Segment):
        a, b = _repeat([-0.5, 0.1, height], dtype, count), _repeat([0.5, 0.2, height], dtype, count)
        return Capsule(a, b, _repeat(0.25, dtype, count)) if kind is Capsule else Segment(a, b)
    if kind is Triangle:
        return Triangle(*(_repeat(corner, dtype, count) for corner in
                          ([-1.0, -1.0, height], [1.0, -1.0, height], [0.0, 1.0, height])))
    if kind is Polygon:
        return Polygon(_repeat([[-1.0, -1, height], [1, -1, height], [1, 1, height], [-1, 1, height]], dtype, count))
    if kind is Plane:
        return Plane(_repeat([0.0, 0.0, 1.0], dtype, count), _repeat(height, dtype, count))
    if kind is ConvexPolyhedron:
        corners = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.4, 0.4) for z in (-0.3, 0.3)])
        return ConvexPolyhedron(_repeat(corners + center, dtype, count))
    if kind is TriangleMesh:
        return grid_mesh(dtype, height)
    raise TypeError(f"no warmup example of a {kind.__name__}")


def grid_mesh(dtype, height: float = 0.0, size: int = 4) -> TriangleMesh:
    """A flat ``size`` x ``size`` grid of squares split in two triangles each (its inner
    edges are internal: the internal-edge rule runs)."""
    x, y = np.meshgrid(np.linspace(-2, 2, size + 1), np.linspace(-2, 2, size + 1))
    vertices = np.column_stack([x.ravel(), y.ravel(), np.full(x.size, height)]).astype(dtype)
    corner = (np.arange(size)[:, None] * (size + 1) + np.arange(size)[None]).ravel()
    faces = np.concatenate([np.column_stack([corner, corner + 1, corner + size + 2]),
                            np.column_stack([corner, corner + size + 2, corner + size + 1])])
    return TriangleMesh(vertices, faces)


def _traced(moving_kind: type, target_kind: type) -> dict:
    """The ``trace`` option the editor passes for a pair, if its test takes one."""
    if "trace" not in inspect.signature(PAIR_TESTS[moving_kind, target_kind]).parameters:
        return {}
    return {"trace": TraversalTrace() if target_kind is TriangleMesh else SatTrace()}


def _pair_run(moving_kind: type, target_kind: type, dtype) -> Callable[[], None]:
    def run() -> None:
        target = example(target_kind, dtype)
        down = np.array([0.0, 0.0, -6.0], dtype)
        sweep(example(moving_kind, dtype, height=3.0), target, down, **_traced(moving_kind, target_kind))
        sweep(example(moving_kind, dtype, height=3.0), target, down, ignore_separating=True)
        sweep(example(moving_kind, dtype, 2, height=3.0), target, _repeat(down, dtype, 2))
    return run


def _large_batches_run(pairs: list[tuple[type, type]], dtype) -> Callable[[], None]:
    """Batches large enough for the parallel variants of every pair's loop
    (``physics.lanes``; a mesh's walks from ``PARALLEL_MIN_WALKS``), and of the tree
    build and edge analysis (called on a small mesh)."""
    def run() -> None:
        down = np.array([0.0, 0.0, -6.0], dtype)
        for moving_kind, target_kind in pairs:
            count = 8 * PARALLEL_MIN_WALKS if target_kind is TriangleMesh else PARALLEL_MIN_LANES
            sweep(example(moving_kind, dtype, count, height=3.0), example(target_kind, dtype),
                  _repeat(down, dtype, count))
        mesh = grid_mesh(dtype)
        faces = kernels.lane_input(mesh.faces, np.int64)
        bvh.tree_arrays.parallel(kernels.lane_input(mesh.vertices, np.float64), faces)
        mesh_edges.edge_analysis.parallel(kernels.lane_input(mesh.vertices, dtype), faces,
                                           math.sin(tolerance.INTERNAL_EDGE_ANGLE))
    return run


def _mesh_run(dtype) -> Callable[[], None]:
    def run() -> None:
        mesh = grid_mesh(dtype)
        above = grid_mesh(dtype, height=1.0)
        ball = example(Sphere, dtype, height=0.3)
        contacts(ball, mesh, trace=TraversalTrace())
        classify(ball, mesh)
        down = np.array([0.0, 0.0, -1.0], dtype)
        sweep_sphere_mesh_all(ball, mesh, down, trace=TraversalTrace())
        sweep_capsule_mesh_all(example(Capsule, dtype, height=0.3), mesh, down, raw_edge_normals=True)
        mesh_overlap(mesh, above, trace=TraversalTrace())
        first_mesh_contact(above, [0.0, 0.0, -2.0], mesh, [0.0, 0.0, 0.0])
    return run


def _second_opinions() -> None:
    ball, box = example(Sphere, float, height=3.0), example(ConvexPolyhedron, float)
    down = np.array([0.0, 0.0, -6.0])
    convex_cast(ball, box, down)
    convex_cast(example(Capsule, float, height=3.0), box, down)
    for target in (Point, Sphere, Segment, Capsule, Plane, Triangle, Polygon):
        reference_sweep(ball, example(target, float), down)
        reference_sweep(example(Capsule, float, height=3.0), example(target, float), down)


def _turning_run(parallel: bool) -> Callable[[], None]:
    """Turning sweeps (float64 kernels whatever the inputs): one pair, a batch, a mesh,
    the traced steps; with ``parallel``, batches that take the parallel variants."""
    def run() -> None:
        box, ball = example(ConvexPolyhedron, float), example(Sphere, float, height=3.0)
        down, turn = np.array([0.0, 0.0, -6.0]), np.array([0.3, 0.2, 0.1])
        sweep(ball, box, down, rotation=turn)
        advancement_steps(ball, box, down, rotation=turn)
        for count in (2, PARALLEL_MIN_PAIRS) if parallel else (2,):
            sweep(example(Sphere, float, count, height=3.0), box, down, rotation=turn)
        for walks in (None, PARALLEL_MIN_TURNING_WALKS) if parallel else (None,):
            sweep(example(Sphere, float, walks, height=0.3), grid_mesh(float), down, rotation=turn)
    return run


TURNING = "turning sweeps"
"""The step that compiles conservative advancement (``physics.sweep.turning``)."""

SECOND_OPINIONS = "GJK cast and reference solver"
"""The step that compiles the editor's second opinions."""

PROMOTED = {Point: Sphere, Segment: Capsule}
"""A moving point is swept as a sphere of radius 0, a moving segment as a capsule."""


def served_pairs(pairs: Iterable[tuple[type, type]]) -> list[tuple[type, type]]:
    """The ``PAIR_TESTS`` keys that answer (moving, target) shape types: the pair
    itself, the moving point or segment promoted, or the pair swapped (``sweep``'s
    change of subject), in the order given, each once."""
    served = []
    for moving_kind, target_kind in pairs:
        for first, second in ((moving_kind, target_kind), (target_kind, moving_kind)):
            key = next((candidate for candidate in ((first, second), (PROMOTED.get(first, first), second))
                        if candidate in PAIR_TESTS), None)
            if key is not None:
                served.append(key)
                break
    return list(dict.fromkeys(served))


def step_name(pair: tuple[type, type], dtype) -> str:
    """The name of the step compiling ``pair`` (a ``PAIR_TESTS`` key) in ``dtype``."""
    return f"{pair[0].__name__}-{pair[1].__name__} {np.dtype(dtype).name}"


def tasks(pairs: Iterable[tuple[type, type]] | None = None, dtypes: Iterable = DTYPES,
          parallel: bool | None = None) -> list[Task]:
    """The warmup steps for ``pairs`` ((moving, target) types; default every pair
    ``sweep`` has a test for) in ``dtypes``, then the mesh functions and the second
    opinions.  ``parallel`` (default: numba has more than one thread) adds, last of
    each dtype, the batches large enough for the parallel variants
    (``physics.lanes``): a process that makes none needs none of them first."""
    parallel = numba.get_num_threads() > 1 if parallel is None else parallel
    pairs = list(PAIR_TESTS if pairs is None else pairs)
    steps = []
    for dtype in dtypes:
        name = np.dtype(dtype).name
        for moving_kind, target_kind in pairs:
            steps.append(Task(step_name((moving_kind, target_kind), dtype), _pair_run(moving_kind, target_kind, dtype)))
        steps.append(Task(f"mesh contacts, overlap, first contact {name}", _mesh_run(dtype)))
        if parallel:
            steps.append(Task(f"parallel variants {name}", _large_batches_run(pairs, dtype)))
    steps.append(Task(TURNING, _turning_run(parallel)))
    steps.append(Task(SECOND_OPINIONS, _second_opinions))
    return steps


class StepProgress(NamedTuple):
    """Where a ``run`` is: ``done`` of ``total`` steps, ``running`` (the steps now
    compiling, "" at the end), ``finished`` (the step just done, "" at the start) and
    ``seconds`` since it began."""

    done: int
    total: int
    running: str
    finished: str
    seconds: float


Progress = Callable[[StepProgress], None]
"""Told of a ``run``'s progress: at its start, after every step."""


class Report(NamedTuple):
    """What ``run`` did: wall ``seconds``, ``cpu_seconds`` of every process, and the
    largest ``peak_mb`` (resident memory) of one process."""

    seconds: float
    cpu_seconds: float
    peak_mb: float


def run(steps: list[Task], progress: Progress | None = None, jobs: int = 1) -> Report:
    """Run ``steps`` compiled (``kernels.compiled``): in this process in order, or, with
    ``jobs`` > 1, in that many fresh processes at once, each its ``shares`` (``steps``
    must then be ``tasks()``'s: each process finds its own by name).  Processes, not
    threads: numba compiles under one lock, mostly in Python."""
    start, cpu_before = time.perf_counter(), time.process_time()
    if jobs > 1:
        return _run_in_processes(steps, progress, jobs, start)
    finished = ""
    for done, step in enumerate(steps):
        if progress is not None:
            progress(StepProgress(done, len(steps), step.name, finished, time.perf_counter() - start))
        with kernels.compiled():
            step.run()
        finished = step.name
    if progress is not None:
        progress(StepProgress(len(steps), len(steps), "", finished, time.perf_counter() - start))
    return Report(time.perf_counter() - start, time.process_time() - cpu_before, _peak_mb())


def ordered(steps: list[Task], first: Iterable[str] = ()) -> list[Task]:
    """``steps`` with those named in ``first`` first, in that order (names that are
    no step are passed over)."""
    by_name = {step.name: step for step in steps}
    leading = [by_name[name] for name in dict.fromkeys(first) if name in by_name]
    return leading + [step for step in steps if step not in leading]


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def shares(steps: list[Task], jobs: int) -> list[list[Task]]:
    """``steps`` dealt to ``jobs`` processes, each its share in order: a dtype's steps
    stay together (a process compiles the kernels they share once: float64 and float32
    kernels share none), a dtype's share split in two, alternately, while there are
    fewer shares than jobs."""
    groups: dict[str, list[Task]] = {}
    for step in steps:
        dtype = next((name for name in ("float64", "float32") if step.name.endswith(name)), "")
        groups.setdefault(dtype, []).append(step)
    dealt = sorted(groups.values(), key=len, reverse=True)
    while len(dealt) < jobs and len(dealt[0]) > 1:
        largest = dealt.pop(0)
        dealt += [largest[0::2], largest[1::2]]
        dealt.sort(key=len, reverse=True)
    while len(dealt) > jobs:  # more dtypes than jobs: the two smallest shares together
        smallest, next_smallest = dealt.pop(), dealt.pop()
        dealt.append(next_smallest + smallest)
        dealt.sort(key=len, reverse=True)
    return dealt


def _run_share(names: list[str], finished) -> None:
    """In a worker process: the steps of ``tasks()`` called ``names``, compiled, in order;
    after each, (name, its CPU seconds, the process's peak memory) to ``finished``."""
    by_name = {step.name: step for step in tasks()}
    for name in names:
        before = time.process_time()
        with kernels.compiled():
            by_name[name].run()
        finished.put((name, time.process_time() - before, _peak_mb()))


def _run_in_processes(steps: list[Task], progress: Progress | None, jobs: int, start: float) -> Report:
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked numba threads or locks
    finished = context.Queue()
    dealt = [[step.name for step in share] for share in shares(steps, jobs)]
    workers = [context.Process(target=_run_share, args=(names, finished), daemon=True) for names in dealt]
    for worker in workers:
        worker.start()
    next_of = {names[k]: (names[k + 1] if k + 1 < len(names) else "") for names in dealt for k in range(len(names))}
    running = {names[0] for names in dealt}
    if progress is not None:
        progress(StepProgress(0, len(steps), ", ".join(sorted(running)), "", 0.0))
    cpu, peak = 0.0, 0.0
    for done in range(1, len(steps) + 1):
        while True:
            try:
                name, seconds, peak_mb = finished.get(timeout=1.0)
                break
            except queue.Empty:
                failed = [worker for worker in workers if worker.exitcode not in (None, 0)]
                if failed:
                    raise RuntimeError(f"a warmup process ended with exit code {failed[0].exitcode}") from None
        cpu, peak = cpu + seconds, max(peak, peak_mb)
        running.discard(name)
        if next_of[name]:
            running.add(next_of[name])
        if progress is not None:
            progress(StepProgress(done, len(steps), ", ".join(sorted(running)), name, time.perf_counter() - start))
    for worker in workers:
        worker.join()
    return Report(time.perf_counter() - start, cpu, peak)
