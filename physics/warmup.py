"""Compile every kernel up front: ``sweeplab warmup``, and the editor on a cold cache.

numba compiles a kernel on its first call per argument types and keeps the machine
code in its disk cache (``physics.kernel_cache``), so the first sweep of a pair and
dtype in a fresh install waits for the compiler (seconds), and later processes load
it in milliseconds.  ``tasks()`` lists small real queries that together reach every
kernel: each pair of ``sweep`` in float64 and float32, one configuration and a
batch (and a batch large enough for the parallel variant of its loop when numba
has more than one thread), traced as the editor traces them; and the mesh
functions (tree build, edge analysis, contacts, classify, mesh-mesh overlap and
first contact, the GJK cast, the reference solver).  Running a task compiles (or
loads) what it reaches; a task names the pair so a progress bar can say what is
compiling.
"""

from __future__ import annotations

import inspect
import time
from typing import NamedTuple
from collections.abc import Callable, Iterable

import numba
import numpy as np

from sweeplab.physics.broadphase import first_mesh_contact
from sweeplab.physics.contacts import classify, contacts
from sweeplab.physics.gjk import convex_cast
from sweeplab.physics.lanes import PARALLEL_MIN_LANES
from sweeplab.physics.overlap import mesh_overlap
from sweeplab.physics.reference import reference_sweep
from sweeplab.physics.shapes import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle,
                                     TriangleMesh)
from sweeplab.physics.sweep import sweep
from sweeplab.physics.sweep.dispatch import PAIR_TESTS
from sweeplab.physics.sweep.mesh import sweep_capsule_mesh_all, sweep_sphere_mesh_all
from sweeplab.physics.sweep.polyhedron import SatTrace
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


def _pair_run(moving_kind: type, target_kind: type, dtype, batch_sizes: tuple) -> Callable[[], None]:
    def run() -> None:
        target = example(target_kind, dtype)
        down = np.array([0.0, 0.0, -6.0], dtype)
        sweep(example(moving_kind, dtype, height=3.0), target, down, **_traced(moving_kind, target_kind))
        sweep(example(moving_kind, dtype, height=3.0), target, down, ignore_separating=True)
        for count in batch_sizes:
            sweep(example(moving_kind, dtype, count, height=3.0), target, _repeat(down, dtype, count))
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


def tasks(pairs: Iterable[tuple[type, type]] | None = None, dtypes: Iterable = DTYPES) -> list[Task]:
    """The warmup steps for ``pairs`` ((moving, target) types; default every pair
    ``sweep`` has a test for) in ``dtypes``, then the mesh functions and the second
    opinions."""
    parallel = numba.get_num_threads() > 1
    batch_sizes = (2, PARALLEL_MIN_LANES) if parallel else (2,)
    steps = []
    for dtype in dtypes:
        for moving_kind, target_kind in (PAIR_TESTS if pairs is None else pairs):
            sizes = batch_sizes if target_kind is not TriangleMesh else (2, 64) if parallel else (2,)
            steps.append(Task(f"{moving_kind.__name__}-{target_kind.__name__} {np.dtype(dtype).name}",
                              _pair_run(moving_kind, target_kind, dtype, sizes)))
        steps.append(Task(f"mesh contacts, overlap, first contact {np.dtype(dtype).name}", _mesh_run(dtype)))
    steps.append(Task("GJK cast and reference solver", _second_opinions))
    return steps


def run(steps: list[Task], progress: Callable[[int, int, str, float], None] | None = None) -> float:
    """Run ``steps`` in order; ``progress(done, total, name, seconds so far)`` before
    each and once at the end (name ""). Returns the total seconds."""
    start = time.perf_counter()
    for done, step in enumerate(steps):
        if progress is not None:
            progress(done, len(steps), step.name, time.perf_counter() - start)
        step.run()
    elapsed = time.perf_counter() - start
    if progress is not None:
        progress(len(steps), len(steps), "", elapsed)
    return elapsed
