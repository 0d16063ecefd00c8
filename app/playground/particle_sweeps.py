"""Particles' motions swept against a world's static shapes and bodies, in batches:
each particle is ``Sphere(start, radius)`` moving along its motion, and the answer is
its earliest hit (``earliest_hits``).

Conventions: world space.  A body is a ``Target`` moving at a constant velocity from
its pose at the step's start (its turn is not swept); a particle is swept by its
motion relative to it: from ``start - since·v`` along ``motion - window·v``, with
``since`` the seconds from the step's start to the particle's time now and ``window``
the seconds its motion covers.  So a hit's ``point`` lies on the body as it stood at
the step's start, and its ``normal`` points from the target towards the particle.

A particle is swept only against the targets whose box its motion's box meets
(``pairs.swept_boxes``, ``pairs.static_box``, ``pairs.near_plane``), and the pairs
left are swept in as few ``sweep`` calls as the shapes allow: one for all the planes,
one for all the spheres, capsules, triangles (a batch of such shapes is a batch of
lanes, one target per lane), and one per other shape (a polyhedron, a mesh) with all
its particles.  Each call costs about a millisecond whatever its lanes; a box of
fluid meets five planes in one call, not five.  A call of a pair with its own test
goes to that test as ``sweep`` would, without ``sweep``'s threaded pass over the
directions (``lanes_swept``: the same answers, bit for bit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sweeplab.physics import Capsule, Plane, Sphere, SweepResult, Triangle, sweep
from sweeplab.physics.shapes import Shape
from sweeplab.physics.sweep.dispatch import PAIR_TESTS
from sweeplab.physics.sweep.unit_size import unit_size_plan
from sweeplab.playground.pairs import boxes_meeting, near_plane, static_box, swept_boxes

if TYPE_CHECKING:  # world imports particles, which imports this module
    from sweeplab.playground.world import Body, World

LANEWISE = (Plane, Sphere, Capsule, Triangle)
"""Shape types whose batches hold one shape per lane (every field stacks)."""


@dataclass(frozen=True)
class Target:
    """A shape the particles meet: a static one (``body`` None, ``velocity`` zero) or a
    body's world shape at the step's start, moving at ``velocity``."""

    shape: Shape
    velocity: np.ndarray
    body: Body | None


def targets_of(world: World) -> list[Target]:
    """The world's static shapes, then its bodies (a sleeping body's velocity is zero)."""
    still = np.zeros(3)
    return [Target(shape, still, None) for shape in world.statics.values()] + \
        [Target(body.world_shape(), np.asarray(body.velocity, float), body) for body in world.bodies]


@dataclass
class Hits:
    """Each particle's earliest hit: ``target`` (index into the targets; -1: none),
    ``t`` (fraction of its motion; inf: none), ``normal``, ``point``, ``depth`` (> 0
    where it started inside); ``push``: the way out of the shapes it started inside
    while not approaching them (those are no hit: it is moved out, then on)."""

    target: np.ndarray
    t: np.ndarray
    normal: np.ndarray
    point: np.ndarray
    depth: np.ndarray
    push: np.ndarray


def earliest_hits(starts: np.ndarray, motion: np.ndarray, velocities: np.ndarray, radius: float,
                  since: np.ndarray, window: np.ndarray, targets: list[Target]) -> Hits:
    """The earliest hit of each particle (module docstring): ``starts``, ``motion`` and
    ``velocities`` (K, 3), ``since`` and ``window`` (K,) seconds.  A particle whose
    velocity relative to the target does not approach the surface (v·n >= 0) does not
    hit it at t = 0: touching, it slides along or leaves; inside, it is pushed out."""
    count = len(starts)
    lanes = []
    for group in _groups(targets):
        particle, target = _candidates(starts, motion, since, window, radius, [targets[k] for k in group])
        if len(particle):
            lanes.append(_swept(starts, motion, velocities, since, window, radius, particle, group, target, targets))
    hits = Hits(np.full(count, -1), np.full(count, np.inf), np.zeros((count, 3)), np.zeros((count, 3)),
                np.zeros(count), np.zeros((count, 3)))
    if not lanes:
        return hits
    joined = (np.concatenate(parts) for parts in zip(*lanes, strict=True))
    particle, target, t, normal, point, depth, counts, leaving = joined
    np.add.at(hits.push, particle[leaving], normal[leaving] * depth[leaving, None])
    particle, target, t, normal, point, depth = (a[counts] for a in (particle, target, t, normal, point, depth))
    order = np.lexsort((t, particle))
    first = order[np.r_[True, particle[order][1:] != particle[order][:-1]]] if len(order) else order
    rows = particle[first]
    hits.target[rows], hits.t[rows], hits.normal[rows] = target[first], t[first], normal[first]
    hits.point[rows], hits.depth[rows] = point[first], depth[first]
    return hits


def _groups(targets: list[Target]) -> list[list[int]]:
    """Target indices swept together: those of one ``LANEWISE`` type, each other alone."""
    by_type: dict[type, list[int]] = {}
    alone = []
    for index, target in enumerate(targets):
        if isinstance(target.shape, LANEWISE) and target.shape.batch_shape == ():
            by_type.setdefault(type(target.shape), []).append(index)
        else:
            alone.append([index])
    return list(by_type.values()) + alone


def _candidates(starts, motion, since, window, radius, group: list[Target]) -> tuple[np.ndarray, np.ndarray]:
    """The (particle, position in ``group``) pairs whose boxes meet (the particles' boxes
    made once per target velocity: once for all the static shapes)."""
    reach = np.full(len(starts), radius)
    particles, members = [], []
    boxes: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}
    for member, target in enumerate(group):
        velocity = target.velocity.tobytes()
        if velocity not in boxes:
            moving = np.any(target.velocity != 0)
            relative_start = starts - since[:, None] * target.velocity if moving else starts
            relative_motion = motion - window[:, None] * target.velocity if moving else motion
            boxes[velocity] = swept_boxes(relative_start, relative_motion, reach)
        lo, hi = boxes[velocity]
        near = np.flatnonzero(near_plane(target.shape, lo, hi) if isinstance(target.shape, Plane) else
                              boxes_meeting(lo, hi, static_box(target.shape)))
        particles.append(near)
        members.append(np.full(len(near), member))
    return np.concatenate(particles), np.concatenate(members)


def _swept(starts, motion, velocities, since, window, radius, particle, group, member, targets):
    """One ``sweep`` call for the lanes (``particle``, ``group[member]``): per lane the
    particle, the target's index, t, normal, point, depth, whether it counts as a hit,
    and whether it is a leaving particle's overlap to push out."""
    velocity = np.stack([targets[k].velocity for k in group])[member]
    relative_start = starts[particle] - since[particle, None] * velocity
    relative_motion = motion[particle] - window[particle, None] * velocity
    heading = velocities[particle] - velocity
    shapes = [targets[k].shape for k in group]
    kind = type(shapes[0])
    shape = shapes[0] if len(shapes) == 1 else \
        kind(*(np.stack([getattr(one, name) for one in shapes])[member] for name in kind._fields))
    answer = lanes_swept(Sphere(relative_start, np.full(len(particle), radius)), shape, relative_motion)
    normal = np.nan_to_num(answer.normal)
    approaching = np.einsum("ij,ij->i", normal, heading) < 0
    overlapping = answer.hit & answer.initially_overlapping
    counts = answer.hit & ((answer.t > 0) | approaching)
    return (particle, np.asarray(group)[member], np.where(counts, answer.t, np.inf), normal,
            np.nan_to_num(answer.point), np.nan_to_num(answer.penetration_depth), counts, overlapping & ~approaching)


def lanes_swept(moving: Shape, target: Shape, direction: np.ndarray) -> SweepResult:
    """``sweep(moving, target, direction)`` for a batch of valid shapes and a finite
    (K, 3) float64 ``direction``, bit for bit: a query within the unit-size band
    (``unit_size.unit_size_plan`` None) of a pair with its own test goes straight to the
    test's ``answer``, as ``sweep`` sends it there, skipping ``sweep``'s pass over the
    directions (``unit_size.largest_component``: on numba's threads from 4,096 values,
    ~4 ms a call on this machine's two busy cores against ~10 us for NumPy's max of a
    few thousand); every other query goes through ``sweep``."""
    test = PAIR_TESTS.get((type(moving), type(target)))
    longest = float(np.abs(direction).max(initial=0.0))
    if test is None or not math.isfinite(longest) or unit_size_plan(moving, target, direction, longest) is not None:
        return sweep(moving, target, direction)
    with np.errstate(all="ignore"):
        return test.answer(moving, target, direction, ignore_separating=False)
