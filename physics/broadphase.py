"""Swept-sphere broadphase, and a bisection narrowphase for two moving meshes.

Broadphase: two spheres moving linearly (``center + t * motion``, t in [0, 1])
overlap while ``|m + t v| <= r_a + r_b`` (m, v the differences of centers and
motions): a quadratic in t (``physics.solve.solve_quadratic``) whose roots,
clipped to [0, 1], are the interval [t_enter, t_exit].

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
from typing import NamedTuple

import numpy as np

from physics.overlap import MeshOverlap, mesh_overlap
from physics.shapes import TriangleMesh, vector_argument
from physics.solve import IDENTICALLY_ZERO, solve_quadratic

NARROWPHASE_SAMPLES = 32
"""Default number of evenly spaced overlap samples in the broadphase interval."""


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
    a = np.einsum("...k,...k->...", velocity, velocity)
    b = 2 * np.einsum("...k,...k->...", offset, velocity)
    c = np.einsum("...k,...k->...", offset, offset) - radius * radius
    count, low, high = solve_quadratic(a, b, c)
    still = (count == IDENTICALLY_ZERO) | ((a == 0) & (b == 0))
    low = np.where(still, np.where(c <= 0, 0.0, np.nan), low)
    high = np.where(still, np.where(c <= 0, 1.0, np.nan), high)
    enter, exit_ = np.maximum(low, 0.0), np.minimum(high, 1.0)
    valid = (count >= 1) | still
    valid &= enter <= exit_
    return np.where(valid, enter, np.nan), np.where(valid, exit_, np.nan)


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


def first_mesh_contact(mesh_a: TriangleMesh, motion_a, mesh_b: TriangleMesh, motion_b, *,
                       samples: int = NARROWPHASE_SAMPLES, trace: NarrowphaseTrace | None = None) -> MeshContact:
    """First time in [0, 1] at which ``mesh_a`` translated by ``t * motion_a`` and
    ``mesh_b`` by ``t * motion_b`` overlap, by sampling and bisection (see the module
    docstring).  Overlap at t = 0 answers t = 0."""
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

    def test(phase: str, t: float) -> MeshOverlap:
        overlap = mesh_overlap(_at(mesh_a, motion_a, t), _at(mesh_b, motion_b, t))
        trace.steps.append(BisectionStep(phase, t, bool(len(overlap.pairs)), len(overlap.pairs)))
        return overlap

    clear = None
    for t in np.linspace(float(enter), float(exit_), samples + 1 if exit_ > enter else 1):
        overlap = test("sample", float(t))
        if len(overlap.pairs):
            break
        clear = float(t)
    else:
        return MeshContact(False, None, None, None)
    hit_time = float(t)
    if clear is None:
        return MeshContact(True, hit_time, (hit_time, hit_time), overlap)
    while True:
        middle = 0.5 * (clear + hit_time)
        if not clear < middle < hit_time:
            return MeshContact(True, hit_time, (clear, hit_time), overlap)
        probe = test("bisect", middle)
        if len(probe.pairs):
            hit_time, overlap = middle, probe
        else:
            clear = middle
