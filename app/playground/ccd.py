"""The playground's continuous collision: the first contact of two moving things
over a window of time, each moving by a translation and a turn.

A ``Mover`` is a shape in the world at the window's start, the ``chord`` its centre
of mass covers over the window, and its ``turn``: the rotation vector ω·τ (ω the
angular velocity, τ the window's length) about ``pivot``, its centre of mass, which
travels with the chord.  Over the window's fraction s a point x of the shape is at

    pivot + s·chord + exp(s [turn]×) (x - pivot),

the sweep's ``"slerp"`` motion (``physics.sweep.turning``): a constant angular
velocity, as the world turns its bodies.  ``turn`` is None when the turn moves no
point of the body's core by more than ``TURN_SLOP`` of its reach (``turn_over``): a
sphere spinning about its centre, a body at rest, which the linear sweep answers.

Two movers neither of which turns are swept by their relative chord, as before #35
(``sweep`` with ``ignore_separating``: a contact at the start that the motion leaves
does not count).  When either turns, both motions go to ``turning.time_of_impact``
in the world.  It answers a contact at the start whatever the motion does there, and
a turning body may leave one contact and meet the shape elsewhere within the window
(a box rocking off an edge onto its face): a contact at the start whose points do not
approach each other by more than the mover's ``slop`` over the window is *left*,
and the mover is lifted off it by ``slop`` along its normal and swept again
(``_turning``); a contact found lifted is reported as deep as the lift is along its
normal (at most ``slop``: pushed out by the world).  A turning sweep that stops
with no answer (``advancement.converged`` False: no bound allows a step, or the steps
ran out) has certified only [0, ``safe_until``); the shapes are as close there as GJK
can tell, and that is the contact (``_stalled``).  Read as a miss, a box turning on
the tumbler's turning floor (``scenes.tumbler``) ended a step 1.1e-3 m inside it: its
face closing on the floor's nearly parallel face, the advancement stalled at 0.93 of
the window, GJK's distance 6.3e-11 m and the separation along its axis 0.  (Not met
in bench/playground.py's three worlds: 876 sweeps over 300 steps all converged.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere, sweep
from sweeplab.physics.shapes import Shape
from sweeplab.physics.sweep.turning import Motion, time_of_impact

TURN_SLOP = 1e-9
"""How far, as a fraction of a body's reach, a turning body may end up inside what it
meets: a turn is swept when it moves a point of the body's core farther than this over
the window (below, the linear sweep answers), and a turning sweep lifts the body this
far off a contact it leaves at the start (``Mover.slop``).  1 nm for a 1 m box, pushed
out at once.  Far larger and a box landing turning dips that much (the issue's bound
is 1e-6 m for its 1 m bodies); zero would sweep the turn of every body at rest whose
solver left it turning 1e-17 rad/s, at a rotating sweep's cost, and leave no room
between a contact left and the sweep's touching tolerance (2^-48 of the pair's size)."""


@dataclass(frozen=True)
class Mover:
    """``shape`` moving over a window: its centre of mass ``pivot`` covers ``chord`` and
    the shape turns by the rotation vector ``turn`` about it (None: not turning);
    ``reach`` is the farthest a point of the shape lies from ``pivot``."""

    shape: Shape
    chord: np.ndarray
    turn: np.ndarray | None = None
    pivot: np.ndarray | None = None
    reach: float = 0.0

    @property
    def slop(self) -> float:
        """How far a turning sweep may leave it inside what it meets: ``TURN_SLOP · reach``."""
        return TURN_SLOP * self.reach


class Hit(NamedTuple):
    """A pair's first contact: the window's ``fraction`` when they touch, the world
    ``point`` where they touch then, the ``normal`` from the target towards the mover,
    and the ``depth`` they overlap by then (at the start: the sweep's depth; found
    lifted off a contact left at the start: the lift along the normal; else 0)."""

    fraction: float
    point: np.ndarray
    normal: np.ndarray
    depth: float


def still(shape: Shape) -> Mover:
    """A static shape as a mover: no chord, no turn."""
    return Mover(shape, np.zeros(3))


def turn_over(angular_velocity: np.ndarray, window: float, core_reach: float, reach: float) -> np.ndarray | None:
    """The turn to sweep of a body turning at ``angular_velocity`` over ``window`` seconds:
    the rotation vector ω·window, or None when no point of its core (``core_reach`` from
    its centre of mass at most; its rounding turns onto itself) moves farther than
    ``TURN_SLOP`` of ``reach``.  A core point at r from the axis moves along an arc

        |ω|·window·r  <=  |ω|·window·core_reach,

    so the turn is swept when that bound exceeds ``TURN_SLOP · reach``."""
    turn = np.asarray(angular_velocity, float) * window
    if float(np.linalg.norm(turn)) * core_reach <= TURN_SLOP * reach:
        return None
    return turn


def first_contact(mover: Mover, target: Mover) -> Hit | None:
    """The first contact of ``mover`` with ``target`` over the window, or None.  A contact
    at the window's start that the motion is leaving does not count."""
    if mover.turn is None and target.turn is None:
        relative = mover.chord - target.chord
        if not np.any(relative):
            return None
        found = sweep(mover.shape, target.shape, relative, ignore_separating=True)
        if not found.hit:
            return None
        fraction = float(found.t)
        depth = float(found.penetration_depth) if found.initially_overlapping else 0.0
        return Hit(fraction, np.asarray(found.point, float) + fraction * target.chord,  # back to the world
                   np.asarray(found.normal, float), depth)
    return _turning(mover, target) if may_meet(mover, target) else None


def may_meet(mover: Mover, target: Mover) -> bool:
    """Whether the pair can meet over the window, by a linear sweep: a turn about the
    pivot keeps every point of the shape at its distance from the pivot, so a turning
    shape stays in its ball about the pivot (radius ``reach``, widened by the slop,
    far above rounding) as that ball travels the chord; swept by the relative chord
    against the other (its ball too when it turns), a miss is a miss of the turning
    sweep, at a linear sweep's cost (a ``time_of_impact`` costs milliseconds)."""
    def bound(side: Mover) -> Shape:
        return side.shape if side.turn is None else Sphere(side.pivot, side.reach + side.slop)
    return bool(sweep(bound(mover), bound(target), mover.chord - target.chord).hit)


MAX_LIFTS = 3
"""Contacts left at the start that a turning sweep lifts the mover off, one after the
other (a box turning out of a corner leaves the floor and a wall); the contact found
at the start after that many is reported as it is (its overlap pushed out)."""


def _turning(mover: Mover, target: Mover) -> Hit | None:
    """``turning.time_of_impact`` of both motions, lifted off the contacts left at the
    start: each such contact, at the normal n with the overlap d (0 when touching),
    adds (d + slop)·n to the lift l, and a contact found with it is as deep in the
    world as it was found plus l·n.  An answer out of steps is the contact where it
    stopped (``_stalled``)."""
    lift = np.zeros(3)
    for lifts in range(MAX_LIFTS + 1):
        lifted = Mover(_moved(mover.shape, lift), mover.chord, mover.turn,
                       None if mover.pivot is None else mover.pivot + lift, mover.reach)
        found = time_of_impact(lifted.shape, _motion(lifted), target.shape, _motion(target))
        if found.hit:
            fraction = float(found.t)
            point, normal = np.asarray(found.point, float), np.asarray(found.normal, float)
            depth = float(found.penetration_depth) if found.initially_overlapping else 0.0
        else:
            stalled = None if found.advancement.converged else _stalled(lifted, target, found.advancement.safe_until)
            if stalled is None:
                return None
            fraction, point, normal, depth = stalled
        if fraction > 0 or lifts == MAX_LIFTS or not leaves(mover, target, point, normal):
            return Hit(fraction, point, normal, max(depth + float(lift @ normal), 0.0))
        lift = lift + (depth + mover.slop) * normal
    raise AssertionError("unreachable: the last lift returns")


def _stalled(mover: Mover, target: Mover, safe_until: float) -> tuple[float, np.ndarray, np.ndarray, float] | None:
    """The contact where a turning sweep ran out of steps: (fraction, point, normal,
    depth), or None when none is found there.  The advancement stops where no bound
    allows a step: the shapes are as close as GJK can tell (a box's face closing on a
    nearly parallel face: its distance 6.3e-11 m, the separation along its axis 0), so
    they touch there.  Posed at ``safe_until`` (``posed_at``), the linear sweep of the
    mover towards the target's pivot (a shape without one: along the mover's relative
    chord) finds where and along which normal (its overlap the depth, else 0)."""
    fraction = float(safe_until)
    towards = mover.chord - target.chord
    if target.pivot is not None and mover.pivot is not None:
        towards = (target.pivot + fraction * target.chord) - (mover.pivot + fraction * mover.chord)
    found = sweep(posed_at(mover, fraction), posed_at(target, fraction), towards)
    if not found.hit:
        return None
    depth = float(found.penetration_depth) if found.initially_overlapping else 0.0
    return fraction, np.asarray(found.point, float), np.asarray(found.normal, float), depth


def posed_at(mover: Mover, fraction: float) -> Shape:
    """The mover's shape at ``fraction`` of its window: a point x at

        pivot + fraction·chord + R(fraction)(x - pivot)  =  R x + (pivot + fraction·chord - R pivot)."""
    if mover.turn is None or mover.pivot is None:
        return _moved(mover.shape, fraction * mover.chord)
    turn = _motion(mover).matrix(fraction)
    return _moved(mover.shape, mover.pivot + fraction * mover.chord - turn @ mover.pivot, turn)


def leaves(mover: Mover, target: Mover, point: np.ndarray, normal: np.ndarray) -> bool:
    """Whether the two points at ``point`` at the window's start do not approach by more
    than ``mover.slop`` over the window, along ``normal``: each point moves at

        v(p) = chord + turn × (p - pivot)   (per window),

    and the contact is left when  normal · (v_mover(p) - v_target(p))  >=  -slop."""
    return float(normal @ (_point_velocity(mover, point) - _point_velocity(target, point))) >= -mover.slop


def _point_velocity(mover: Mover, point: np.ndarray) -> np.ndarray:
    if mover.turn is None or mover.pivot is None:
        return mover.chord
    return mover.chord + np.cross(mover.turn, point - mover.pivot)


def _motion(mover: Mover) -> Motion:
    """The mover's motion for ``time_of_impact``."""
    if mover.turn is None or mover.pivot is None:
        return Motion(mover.chord)
    return Motion(mover.chord, rotation=mover.turn, pivot=mover.pivot)


def _moved(shape: Shape, offset: np.ndarray, rotation: np.ndarray | None = None) -> Shape:
    """``shape`` (a body's: sphere, capsule or polyhedron; a static shape only moved by
    a zero ``offset``) turned by ``rotation`` (None: not turned) about the origin and
    moved by ``offset``: x -> R x + offset."""
    if rotation is None and not np.any(offset):
        return shape
    turn = np.eye(3) if rotation is None else rotation
    if isinstance(shape, Sphere):
        return Sphere(turn @ np.asarray(shape.center) + offset, float(shape.radius))
    if isinstance(shape, Capsule):
        return Capsule(turn @ np.asarray(shape.a) + offset, turn @ np.asarray(shape.b) + offset, float(shape.radius))
    if isinstance(shape, ConvexPolyhedron):
        return shape.posed(turn, offset)
    raise TypeError(f"shape: a body is a sphere, capsule or polyhedron, got {type(shape).__name__}")
