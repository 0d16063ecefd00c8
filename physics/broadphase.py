"""Swept-sphere broadphase, and a bisection narrowphase for two moving meshes.

Broadphase: two spheres moving linearly (``center + t * motion``, t in [0, 1])
overlap while ``|m + t v| <= r_a + r_b`` (m, v the differences of centers and
motions): a quadratic in t (``physics.solve.solve_quadratic``) whose roots,
clipped to [0, 1], are the interval [t_enter, t_exit] (``sphere_interval``, one lane
compiled).

Narrowphase (the seed's technique for two moving meshes): inside that interval,
sample the instantaneous mesh-mesh overlap (``physics.overlap.mesh_overlap``) at
evenly spaced times; at the first overlapping sample, bisect between it and the
previous clear sample until the bracket no longer shrinks in float64.  The answer
is the bracket's upper end, a time at which the meshes do overlap.  Its limit is
the sampling: two thin parts that pass through each other between samples are
missed; the trace shows every sample and step.  (For translations of convex
shapes the analytic sweeps are exact; this driver is for meshes against meshes.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
from typing import NamedTuple

import numpy as np

from sweeplab.physics.kernels import entry, kernel, length_of_first
from sweeplab.physics import tolerance
from sweeplab.physics.overlap import MeshOverlap, dual_walk, is_identity, mesh_overlap
from sweeplab.physics.shapes import TriangleMesh, vector_argument
from sweeplab.physics.geometry import add, dot, largest_magnitude, like, maximum, minimum, row, scale
from sweeplab.physics.solve import IDENTICALLY_ZERO, solve_quadratic

NARROWPHASE_SAMPLES = 32
"""Default number of evenly spaced overlap samples in the broadphase interval."""


@kernel
def sphere_interval(offset, velocity, radius):
    """(t_enter, t_exit) in [0, 1] while ``|offset + t velocity| <= radius`` (two
    spheres: the differences of their centers and motions, the summed radius); both
    NaN when never.  The quadratic ``|v|^2 t^2 + 2 (m.v) t + |m|^2 - r^2``; with no
    relative motion, [0, 1] when they overlap at rest."""
    a, b = dot(velocity, velocity), like(radius, 2.0) * dot(offset, velocity)
    c = dot(offset, offset) - radius * radius
    count, low, high = solve_quadratic(a, b, c, b * b - like(radius, 4.0) * a * c)
    nan = like(radius, math.nan)
    if count == IDENTICALLY_ZERO or (a == 0 and b == 0):
        return (like(radius, 0.0), like(radius, 1.0)) if c <= 0 else (nan, nan)
    enter, exit_ = maximum(low, like(radius, 0.0)), minimum(high, like(radius, 1.0))
    return (enter, exit_) if count >= 1 and enter <= exit_ else (nan, nan)


@entry(work=length_of_first)
def _sphere_intervals(offsets, velocities, radii, enter, exit_):
    for i in range(len(radii)):
        enter[i], exit_[i] = sphere_interval(row(offsets, i), row(velocities, i), radii[i])


def swept_sphere_interval(center_a, radius_a, motion_a, center_b, radius_b, motion_b):
    """(t_enter, t_exit) in [0, 1] during which two linearly moving spheres overlap
    (touching included); both NaN when they never do.  Batched like the shapes.

    Degenerate inputs: equal motions (no relative motion) — [0, 1] when they
    overlap at rest, else never; zero radii — the times the centers coincide."""
    center_a, center_b = vector_argument(center_a, "center_a"), vector_argument(center_b, "center_b")
    motion_a, motion_b = vector_argument(motion_a, "motion_a"), vector_argument(motion_b, "motion_b")
    radius = np.asarray(radius_a, float) + np.asarray(radius_b, float)
    if np.any(radius < 0):
        raise ValueError("radius_a and radius_b must be >= 0")
    offset, velocity = center_a - center_b, motion_a - motion_b
    shape = np.broadcast_shapes(offset.shape[:-1], velocity.shape[:-1], radius.shape)
    offsets = np.broadcast_to(offset, shape + (3,)).reshape(-1, 3).astype(float)
    velocities = np.broadcast_to(velocity, shape + (3,)).reshape(-1, 3).astype(float)
    radii = np.broadcast_to(radius, shape).reshape(-1)
    enter, exit_ = np.empty(len(radii)), np.empty(len(radii))
    _sphere_intervals(offsets, velocities, radii, enter, exit_)
    enter, exit_ = enter.reshape(shape), exit_.reshape(shape)
    return (float(enter), float(exit_)) if shape == () else (enter, exit_)


class BisectionStep(NamedTuple):
    """One overlap test of the narrowphase: its ``phase`` ("sample" or "bisect"),
    time ``t``, whether the meshes ``overlap`` there, and how many triangle pairs."""

    phase: str
    t: float
    overlap: bool
    pair_count: int


@dataclass
class NarrowphaseTrace:
    """The broadphase interval and every narrowphase step, in order."""

    interval: tuple[float, float] | None = None
    steps: list[BisectionStep] = field(default_factory=list)


class MeshContact(NamedTuple):
    """First contact of two moving meshes found by the narrowphase: ``hit``, time
    ``t`` (the bracket's overlapping end; None if no overlap was found), the
    ``bracket`` (last clear time, first overlapping time) and the overlapping
    ``pairs`` at ``t``."""

    hit: bool
    t: float | None
    bracket: tuple[float, float] | None
    overlap: MeshOverlap | None


def _at(mesh: TriangleMesh, motion: np.ndarray, t: float) -> TriangleMesh:
    return mesh.moved(translation=mesh.translation + t * motion)


def _world_bound(mesh: TriangleMesh) -> tuple[np.ndarray, float]:
    tree = mesh.tree
    return mesh.to_world(tree.centers[0]), float(tree.radii[0])


@kernel
def _overlapping_pairs(a, b, motion_a, motion_b, t) -> int:
    """How many triangle pairs of meshes ``a`` and ``b`` (tree, vertices, faces,
    rotation, translation, extent) overlap with each translated by ``t`` times its
    motion (``physics.overlap.mesh_overlap``'s walk, counting only)."""
    tree_a, vertices_a, faces_a, rotation_a, translation_a, extent_a = a
    tree_b, vertices_b, faces_b, rotation_b, translation_b, extent_b = b
    moved_a, moved_b = add(translation_a, scale(t, motion_a)), add(translation_b, scale(t, motion_b))
    reach_slack = tolerance.BVH_CULL_RTOL * (extent_a + extent_b + largest_magnitude(moved_a)
                                             + largest_magnitude(moved_b))
    pose_a = (vertices_a, faces_a, rotation_a, moved_a, is_identity(rotation_a, moved_a))
    pose_b = (vertices_b, faces_b, rotation_b, moved_b, is_identity(rotation_b, moved_b))
    count, trace_count = np.zeros(1, np.int64), np.zeros(1, np.int64)
    no_trace = (np.empty((0, 2), np.int64), np.empty(0), np.empty(0, np.int64), np.empty(0, np.int64))
    dual_walk(tree_a, tree_b, pose_a, pose_b, reach_slack, np.empty((0, 2), np.int64), np.empty(0, np.bool_), count,
              no_trace, trace_count)
    return count[0]


def _bisection_work(a, b, motion_a, motion_b, enter, exit_, samples, *outputs) -> int:
    """``_bisect``'s work for the tier choice: both meshes' triangles times its overlap
    tests (the samples and up to 60 halvings)."""
    return (len(a[2]) + len(b[2])) * (samples + 60)


@entry(work=_bisection_work)
def _bisect(a, b, motion_a, motion_b, enter, exit_, samples, phases, times, pair_counts, step_count):
    """The narrowphase (module docstring): sample [enter, exit] at ``samples + 1``
    evenly spaced times (``numpy.linspace``'s), then bisect after the last clear
    sample.  Returns (hit, t, last clear t: NaN if the first sample overlaps); every
    overlap test goes to ``phases`` (0 sample, 1 bisect), ``times``, ``pair_counts``."""
    count = samples + 1 if exit_ > enter else 1
    step = (exit_ - enter) / samples if count > 1 else 0.0
    clear = math.nan
    hit = -1.0
    for k in range(count):
        t = exit_ if k == count - 1 and count > 1 else k * step + enter
        pairs = _overlapping_pairs(a, b, motion_a, motion_b, t)
        _record_step(phases, times, pair_counts, step_count, 0, t, pairs)
        if pairs:
            hit = t
            break
        clear = t
    if hit < 0:
        return False, math.nan, clear
    if clear != clear:
        return True, hit, hit
    while True:
        middle = 0.5 * (clear + hit)
        if not (clear < middle and middle < hit):
            return True, hit, clear
        pairs = _overlapping_pairs(a, b, motion_a, motion_b, middle)
        _record_step(phases, times, pair_counts, step_count, 1, middle, pairs)
        if pairs:
            hit = middle
        else:
            clear = middle


@kernel
def _record_step(phases, times, pair_counts, step_count, phase, t, pairs):
    i = step_count[0]
    if i < len(times):
        phases[i], times[i], pair_counts[i] = phase, t, pairs
    step_count[0] += 1


BISECTION_PHASES = ("sample", "bisect")
MAX_STEPS = 2200
"""Room for a narrowphase's bisection steps: halving a bracket in [0, 1] until no float
lies between its ends takes at most ~1,100 steps (down to the subnormals)."""


def _walk_arrays(mesh: TriangleMesh) -> tuple:
    tree = mesh.tree
    return ((tree.center_components, tree.radii, tree.first_child, tree.face), mesh.vertices, mesh.faces,
            np.asarray(mesh.rotation, float), tuple(float(v) for v in mesh.translation), float(tree.extent))


def first_mesh_contact(mesh_a: TriangleMesh, motion_a, mesh_b: TriangleMesh, motion_b, *,
                       samples: int = NARROWPHASE_SAMPLES, trace: NarrowphaseTrace | None = None) -> MeshContact:
    """First time in [0, 1] at which ``mesh_a`` translated by ``t * motion_a`` and
    ``mesh_b`` by ``t * motion_b`` overlap, by sampling and bisection (see the module
    docstring; compiled).  Overlap at t = 0 answers t = 0."""
    motion_a, motion_b = vector_argument(motion_a, "motion_a"), vector_argument(motion_b, "motion_b")
    if samples < 1:
        raise ValueError(f"samples must be >= 1, got {samples}")
    trace = trace if trace is not None else NarrowphaseTrace()
    center_a, radius_a = _world_bound(mesh_a)
    center_b, radius_b = _world_bound(mesh_b)
    enter, exit_ = swept_sphere_interval(center_a, radius_a, motion_a, center_b, radius_b, motion_b)
    if np.isnan(enter):
        return MeshContact(False, None, None, None)
    trace.interval = (float(enter), float(exit_))
    phases, pair_counts = np.empty(samples + 1 + MAX_STEPS, np.int64), np.empty(samples + 1 + MAX_STEPS, np.int64)
    times, step_count = np.empty(samples + 1 + MAX_STEPS), np.zeros(1, np.int64)
    hit, hit_time, clear = _bisect(_walk_arrays(mesh_a), _walk_arrays(mesh_b), tuple(map(float, motion_a)),
                                   tuple(map(float, motion_b)), float(enter), float(exit_), int(samples), phases,
                                   times, pair_counts, step_count)
    trace.steps.extend(BisectionStep(BISECTION_PHASES[phase], float(t), bool(pairs), int(pairs))
                       for phase, t, pairs in zip(phases[:step_count[0]], times[:step_count[0]],
                                                  pair_counts[:step_count[0]], strict=True))
    if not hit:
        return MeshContact(False, None, None, None)
    overlap = mesh_overlap(_at(mesh_a, motion_a, hit_time), _at(mesh_b, motion_b, hit_time))
    return MeshContact(True, float(hit_time), (float(hit_time if np.isnan(clear) else clear), float(hit_time)),
                       overlap)
