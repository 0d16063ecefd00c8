"""Joints: constraints between two bodies, or a body and the world, solved with the contacts.

A joint holds two bodies by name, ``first`` and ``second`` (``None``: the world).  Its
anchors and axes are given in the world when it is made and stored in each body's
frame by ``World.add_joint`` (``bind``), so they move with the bodies.

**Rows.**  A rigid joint is a few scalar *rows*: a position error C (units for a
linear row, radians for an angular one) and its rate, linear in the velocities,

    Ċ = n·(v_a - v_b) + j_a·ω_a + j_b·ω_b

(a point row along n at anchors r_a, r_b from the centres of mass: j_a = r_a × n,
j_b = -r_b × n; an angular row about t: n = 0, j_a = t, j_b = -t).  A row is solved by
sequential impulses in the world's solver: the impulse λ (v_a += nλ/m_a,
ω_a += I_a⁻¹ j_a λ, v_b -= nλ/m_b, ω_b += I_b⁻¹ j_b λ) that brings Ċ to its target,
accumulated over the iterations and kept for the next step (warm start); an
*inequality* row (C >= 0 wanted: a rope, an angle limit) only pushes, λ >= 0 in sum.

**The target.**  The world moves a body over the time ``left`` on its parabola
(x + vτ + ½gτ²) turning at ω, so a row's error after that time is, to second order,

    C(left) ≈ C + Ċ·left + ½·C̈·left²,    C̈ = n·(a_a - a_b) (+ the turn of a distance row's line),

with a = g + ω × (ω × r) an anchor's acceleration (gravity, and the centripetal pull of
the turn; the world's anchor has none).  The target rate keeps the motion's own drift
out and removes ``BAUMGARTE`` of the error over a step of ``dt``:

    Ċ = -BAUMGARTE·C / dt - ½·C̈·left

(over the step, not the time left: a contact solved 1 ms before a step's end would
ask a rope for 200·C).

**Settling.**  Sequential impulses pass a load along a chain one link an iteration:
a box hung from the middle of a 20-link rope bridge, 40 iterations a step, stretched
its ropes 12 % (a box 6 times a link's mass) to 177 % (30 times).  So at the start of
each step ``settle`` solves all the joints' rows at once, J·M⁻¹·Jᵀ·Δλ = target - J·v
(a small dense system), with the inequality rows that push nothing or are met with
slack left out (an active set); the iterations with the contacts then start from there.

A pendulum at rest then leaves each step at Ċ = -½·g·left at its anchor, the world's
contact "support" speed: its parabola comes back to the anchor at the step's end and
it does not sag.  An inequality row with slack (C > 0) may close all of it,
Ċ >= -C/left - ½C̈·left (a rope goes taut at the step's end, never past it).

**Springs** are forces, not rows: Hooke's law with damping along the line between the
anchors, F = -(k·(|d| - rest) + c·ḋ·n)·n, given as the impulse F·dt at the start of the
step and the bodies then moved (symplectic Euler, the seed diary's spring).  Its
oscillation runs at 2·asin(ω·dt/2)/dt for ω = √(k/m), within (ω·dt)²/24 of ω, and its
energy stays bounded while ω·dt < 2; a spring stiffer than that gains energy every
step — the diary's *failing spring*, which ``energy`` reports.  It is kept explicit on
purpose: an implicit spring would be stable at any stiffness and hide the failure.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

if TYPE_CHECKING:
    from sweeplab.playground.world import Body, World

BAUMGARTE = 0.2
"""Fraction of a rigid row's position error removed per step (Box2D's factor).  The
motion's own second-order drift is in the target already; this corrects what remains
(the turn's higher orders, rounding) without the overshoot of 1.0."""


@dataclass
class Row:
    """k rows solved together (a block: the three rows of a point, the five of a hinge),
    their Jacobian (``normal`` on the linear velocities, ``first`` and ``second`` on the
    angular ones, each k x 3), errors C and C's second derivatives ``curve`` along the
    free motion (k each), and whether the row only pushes (C >= 0 wanted; k = 1)."""

    normal: np.ndarray
    first: np.ndarray
    second: np.ndarray
    error: np.ndarray
    curve: np.ndarray
    inequality: bool = False


@dataclass(eq=False)
class Joint(ABC):
    """A constraint between the bodies named ``first`` and ``second`` (``None``: the
    world).  ``impulse`` holds each row's accumulated impulse (the warm start)."""

    first: str
    second: str | None
    impulse: np.ndarray = field(init=False, repr=False, default_factory=lambda: np.zeros(0))
    SIZES: ClassVar[tuple[int, ...]] = ()
    """How many rows each of ``rows``' blocks has (their impulses in turn in ``impulse``)."""

    @abstractmethod
    def ends(self) -> tuple[np.ndarray, np.ndarray]:
        """The world anchors on the first body and on the second (or the world) as given."""

    def bind(self, first: Body, second: Body | None) -> None:
        """Store the anchors in each body's frame (the world's: as given); impulses zero."""
        self._a, self._b = (_local(body, point) for body, point in zip((first, second), self.ends(), strict=True))
        self.impulse = np.zeros(sum(self.SIZES))

    def anchors(self, first: Body, second: Body | None) -> tuple[np.ndarray, np.ndarray]:
        """The anchors in the world now (the view draws a joint as the segment between them)."""
        return _world(first, self._a), _world(second, self._b)

    def rows(self, first: Body, second: Body | None, gravity: np.ndarray) -> list[Row | None]:
        """The joint's blocks of rows now, sized as ``SIZES`` (``None``: a block with no
        direction now)."""
        return []

    def error(self, first: Body, second: Body | None) -> float:
        """The largest violation of its rows now (units or radians); 0 for a satisfied one."""
        return max((max(-float(row.error[0]), 0.0) if row.inequality else float(np.max(np.abs(row.error)))
                    for row in self.rows(first, second, np.zeros(3)) if row is not None), default=0.0)

    def kick(self, first: Body, second: Body | None, dt: float) -> None:
        """A force's impulse over the step (springs); rigid joints have none."""
        return None

    def energy(self, first: Body, second: Body | None) -> float:
        """Energy stored in the joint (a spring's); rigid joints store none."""
        return 0.0


# --- geometry of anchors ---------------------------------------------------------------------

def _local(body: Body | None, point) -> np.ndarray:
    """A world point in the body's frame (the world's: itself)."""
    point = np.asarray(point, float)
    return point.copy() if body is None else body.rotation.T @ (point - body.position)


def _world(body: Body | None, local: np.ndarray) -> np.ndarray:
    return local if body is None else body.rotation @ local + body.position


def _turn_local(body: Body | None, direction) -> np.ndarray:
    """A world direction in the body's frame."""
    direction = np.asarray(direction, float)
    return direction.copy() if body is None else body.rotation.T @ direction


def _turn_world(body: Body | None, local: np.ndarray) -> np.ndarray:
    return local if body is None else body.rotation @ local


def _arm(body: Body | None, point: np.ndarray) -> np.ndarray:
    return np.zeros(3) if body is None else point - body.position


def _velocity(body: Body | None, arm: np.ndarray) -> np.ndarray:
    """The velocity of the body's point at ``arm`` from its centre of mass."""
    return np.zeros(3) if body is None else body.velocity + np.cross(body.angular_velocity, arm)


def _acceleration(body: Body | None, arm: np.ndarray, gravity: np.ndarray) -> np.ndarray:
    """The free motion's acceleration of the point at ``arm``: g + ω × (ω × r)."""
    if body is None:
        return np.zeros(3)
    spin = body.angular_velocity
    return gravity + np.cross(spin, np.cross(spin, arm))


def _linear_row(n, arm_a, arm_b, error: float, curve: float, inequality: bool = False) -> Row:
    return Row(n[None], np.cross(arm_a, n)[None], -np.cross(arm_b, n)[None], np.array([error]), np.array([curve]),
               inequality)


def _angular_row(axis, error: float, inequality: bool = False) -> Row:
    return Row(np.zeros((1, 3)), axis[None], -axis[None], np.array([error]), np.zeros(1), inequality)


def _stacked(*rows: Row) -> Row:
    """Equality rows as one block."""
    return Row(np.concatenate([row.normal for row in rows]), np.concatenate([row.first for row in rows]),
               np.concatenate([row.second for row in rows]), np.concatenate([row.error for row in rows]),
               np.concatenate([row.curve for row in rows]))


def _perpendicular(axis: np.ndarray) -> np.ndarray:
    """A unit vector perpendicular to the unit ``axis``."""
    other = np.cross(axis, np.eye(3)[int(np.argmin(np.abs(axis)))])
    return other / np.linalg.norm(other)


def _rotated(vector: np.ndarray, axis: np.ndarray, angle: float) -> np.ndarray:
    """``vector`` turned by ``angle`` about the unit ``axis`` (Rodrigues)."""
    return (vector * math.cos(angle) + np.cross(axis, vector) * math.sin(angle)
            + axis * float(axis @ vector) * (1 - math.cos(angle)))


def _vector(value, name: str) -> np.ndarray:
    array = np.asarray(value, float)
    if array.shape != (3,) or not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be three finite numbers, got {value!r}")
    return array


def _axis(value, name: str) -> np.ndarray:
    axis = _vector(value, name)
    size = float(np.linalg.norm(axis))
    if not size > 0:
        raise ValueError(f"{name} must not be zero")
    return axis / size


def _angle(value, name: str, low: float, high: float) -> float:
    angle = float(value)
    if not low <= angle <= high:
        raise ValueError(f"{name} must be within [{low:.6g}, {high:.6g}] radians, got {value!r}")
    return angle


# --- the rows of a ball joint and of angle limits --------------------------------------------------

def _point_rows(first: Body, second: Body | None, local_a, local_b, gravity) -> Row:
    """The block of three rows along the world axes holding the anchors together:
    C = p_a - p_b.  (Solved one by one, a bob on a ball joint 1 m from it, whose turn
    answers 1000 times more than its push, took the 40 iterations and lost 20 % of its
    energy in 10 s.)"""
    p_a, p_b = _world(first, local_a), _world(second, local_b)
    arm_a, arm_b = _arm(first, p_a), _arm(second, p_b)
    axes = np.eye(3)
    return Row(axes, np.cross(arm_a, axes), -np.cross(arm_b, axes), p_a - p_b,
               _acceleration(first, arm_a, gravity) - _acceleration(second, arm_b, gravity))


def _limit_rows(axis: np.ndarray, angle: float, lower: float | None, upper: float | None) -> list[Row | None]:
    """Rows keeping ``angle`` (of the first body relative to the second about ``axis``,
    Ċ = axis·(ω_a - ω_b)) within [lower, upper]: C = angle - lower >= 0, upper - angle >= 0."""
    return [None if lower is None else _angular_row(axis, angle - lower, inequality=True),
            None if upper is None else _angular_row(-axis, upper - angle, inequality=True)]


def _signed_angle(axis: np.ndarray, start: np.ndarray, end: np.ndarray) -> float:
    """The angle from ``start`` to ``end`` about ``axis`` (both projected on its plane)."""
    return math.atan2(float(axis @ np.cross(start, end)), float(start @ end))


# --- the joints ----------------------------------------------------------------------------------

@dataclass(eq=False)
class BallJoint(Joint):
    """A point constraint: the bodies share the world point ``anchor`` (given at
    creation) and turn freely about it."""

    anchor: np.ndarray = field(default_factory=lambda: np.zeros(3))

    def __post_init__(self) -> None:
        self.anchor = _vector(self.anchor, "anchor")

    SIZES = (3,)

    def ends(self):
        return self.anchor, self.anchor

    def rows(self, first, second, gravity):
        return [_point_rows(first, second, self._a, self._b, gravity)]


@dataclass(eq=False)
class DistanceJoint(Joint):
    """A distance constraint between ``anchor_first`` (on the first body) and
    ``anchor_second`` (on the second, or in the world): a rod keeps ``length`` (default:
    their distance at creation), a ``rope`` only stops it growing beyond."""

    anchor_first: np.ndarray = field(default_factory=lambda: np.zeros(3))
    anchor_second: np.ndarray = field(default_factory=lambda: np.zeros(3))
    length: float | None = None
    rope: bool = False

    def __post_init__(self) -> None:
        self.anchor_first = _vector(self.anchor_first, "anchor_first")
        self.anchor_second = _vector(self.anchor_second, "anchor_second")
        if self.length is None:
            self.length = float(np.linalg.norm(self.anchor_first - self.anchor_second))
        if not (math.isfinite(self.length) and self.length > 0):
            raise ValueError(f"length must be positive and finite (a zero-length distance is a BallJoint), "
                             f"got {self.length!r}")

    SIZES = (1,)

    def ends(self):
        return self.anchor_first, self.anchor_second

    def rows(self, first, second, gravity):
        """One row along the line between the anchors, C = |d| - length (a rope:
        length - |d| >= 0), with the turn of the line |ḋ⊥|²/|d| in C̈."""
        p_a, p_b = _world(first, self._a), _world(second, self._b)
        arm_a, arm_b = _arm(first, p_a), _arm(second, p_b)
        gap = p_a - p_b
        distance = float(np.linalg.norm(gap))
        if distance == 0:
            return [None]
        n = gap / distance
        rate = _velocity(first, arm_a) - _velocity(second, arm_b)
        across = rate - float(rate @ n) * n
        curve = float(n @ (_acceleration(first, arm_a, gravity) - _acceleration(second, arm_b, gravity))) \
            + float(across @ across) / distance
        assert self.length is not None
        if self.rope:
            return [_linear_row(-n, arm_a, arm_b, self.length - distance, -curve, inequality=True)]
        return [_linear_row(n, arm_a, arm_b, distance - self.length, curve)]


@dataclass(eq=False)
class Spring(Joint):
    """A damped spring between ``anchor_first`` and ``anchor_second``: the force
    -(stiffness·(|d| - rest_length) + damping·ḋ·n)·n on the first body (N, with d from the
    second's anchor to the first's, n = d/|d|), its opposite on the second."""

    anchor_first: np.ndarray = field(default_factory=lambda: np.zeros(3))
    anchor_second: np.ndarray = field(default_factory=lambda: np.zeros(3))
    rest_length: float = 0.0
    stiffness: float = 1.0
    damping: float = 0.0

    def __post_init__(self) -> None:
        self.anchor_first = _vector(self.anchor_first, "anchor_first")
        self.anchor_second = _vector(self.anchor_second, "anchor_second")
        for name, low, strict in (("rest_length", 0.0, False), ("stiffness", 0.0, True), ("damping", 0.0, False)):
            value = float(getattr(self, name))
            if not math.isfinite(value) or value < low or (strict and value == low):
                raise ValueError(f"{name} must be {'positive' if strict else 'non-negative'} and finite, "
                                 f"got {getattr(self, name)!r}")

    def ends(self):
        return self.anchor_first, self.anchor_second

    def _line(self, first, second):
        p_a, p_b = _world(first, self._a), _world(second, self._b)
        return p_a, p_b, p_a - p_b

    def error(self, first, second) -> float:
        """The spring's stretch or compression from its rest length (units)."""
        return abs(float(np.linalg.norm(self._line(first, second)[2])) - self.rest_length)

    def energy(self, first, second) -> float:
        """½·k·(|d| - rest)²."""
        return 0.5 * self.stiffness * self.error(first, second) ** 2

    def kick(self, first, second, dt: float) -> None:
        p_a, p_b, gap = self._line(first, second)
        distance = float(np.linalg.norm(gap))
        if distance == 0:
            return
        n = gap / distance
        arm_a, arm_b = _arm(first, p_a), _arm(second, p_b)
        rate = float(n @ (_velocity(first, arm_a) - _velocity(second, arm_b)))
        force = -(self.stiffness * (distance - self.rest_length) + self.damping * rate)
        apply(_linear_row(n, arm_a, arm_b, 0.0, 0.0), first, second, np.array([force * dt]))


@dataclass(eq=False)
class _Axial(Joint):
    """A joint at one ``anchor`` with an ``axis`` fixed in each body, and a reference
    direction across it in each (for the angles about it)."""

    anchor: np.ndarray = field(default_factory=lambda: np.zeros(3))
    axis: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))

    def __post_init__(self) -> None:
        self.anchor, self.axis = _vector(self.anchor, "anchor"), _axis(self.axis, "axis")

    def ends(self):
        return self.anchor, self.anchor

    def bind(self, first, second) -> None:
        super().bind(first, second)
        reference = _perpendicular(self.axis)
        self._axis = (_turn_local(first, self.axis), _turn_local(second, self.axis))
        self._reference = (_turn_local(first, reference), _turn_local(second, reference))

    def _axes(self, first, second) -> tuple[np.ndarray, np.ndarray]:
        """The axis as fixed in the first body and in the second, in the world now."""
        return _turn_world(first, self._axis[0]), _turn_world(second, self._axis[1])


@dataclass(eq=False)
class HingeJoint(_Axial):
    """A hinge: the bodies share ``anchor`` and turn relative to each other only about
    ``axis`` (three point rows and two angular rows), the first's angle relative to
    the second (0 at creation, right-handed about ``axis``) kept within [lower, upper]
    radians where given."""

    lower: float | None = None
    upper: float | None = None

    SIZES = (5, 1, 1)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.lower is not None:
            self.lower = _angle(self.lower, "lower", -math.pi, math.pi)
        if self.upper is not None:
            self.upper = _angle(self.upper, "upper", -math.pi, math.pi)
        if self.lower is not None and self.upper is not None and self.lower > self.upper:
            raise ValueError(f"lower ({self.lower}) must not exceed upper ({self.upper})")

    def angle(self, first, second) -> float:
        """The first body's turn relative to the second about the axis (radians)."""
        return _signed_angle(self._axes(first, second)[0], _turn_world(second, self._reference[1]),
                             _turn_world(first, self._reference[0]))

    def rows(self, first, second, gravity):
        """Point rows and two rows C = t·(a_a × a_b) for t ⊥ a_a (Ċ = t·(ω_b - ω_a)), as one
        block; t from the second's reference (fixed in it, so that the warm start's rows
        keep their directions: one from whichever world axis was least along a_a swapped
        the two rows' impulses as a door turned); the limits."""
        axis_a, axis_b = self._axes(first, second)
        across = _turn_world(second, self._reference[1])
        across = across - float(across @ axis_a) * axis_a
        across = across / np.linalg.norm(across)
        aligned = [_angular_row(-t, float(t @ np.cross(axis_a, axis_b))) for t in (across, np.cross(axis_a, across))]
        return ([_stacked(_point_rows(first, second, self._a, self._b, gravity), *aligned)]
                + _limit_rows(axis_a, self.angle(first, second), self.lower, self.upper))


@dataclass(eq=False)
class ConeJoint(_Axial):
    """A shoulder: the bodies share ``anchor``, and the angle between ``axis`` fixed in
    the first body and the same axis fixed in the second (or the world) stays within
    ``half_angle`` (the swing); ``twist`` (radians) limits the first's turn about the
    axis relative to the second, the swing taken out, to [-twist, twist]."""

    half_angle: float = math.pi / 4
    twist: float | None = None

    SIZES = (3, 1, 1, 1)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.half_angle = _angle(self.half_angle, "half_angle", 0.0, math.pi)
        if self.twist is not None:
            self.twist = _angle(self.twist, "twist", 0.0, math.pi)

    def swing(self, first, second) -> float:
        """The angle between the two bodies' axes (radians)."""
        axis_a, axis_b = self._axes(first, second)
        return math.atan2(float(np.linalg.norm(np.cross(axis_a, axis_b))), float(axis_a @ axis_b))

    def rows(self, first, second, gravity):
        """Point rows; the swing row C = half_angle - φ >= 0 about s = a_a × a_b / |…|
        (φ̇ = s·(ω_b - ω_a); none while the axes are parallel, where s has no direction);
        the twist rows."""
        axis_a, axis_b = self._axes(first, second)
        normal = np.cross(axis_a, axis_b)
        size, swing = float(np.linalg.norm(normal)), self.swing(first, second)
        swung = None if size == 0 else normal / size
        rows: list[Row | None] = [_point_rows(first, second, self._a, self._b, gravity)]
        rows.append(None if swung is None else _angular_row(swung, self.half_angle - swing, inequality=True))
        if self.twist is None:
            return rows + [None, None]
        return rows + _limit_rows(axis_a, self.twist_angle(first, second), -self.twist, self.twist)

    def twist_angle(self, first, second) -> float:
        """The first body's turn about its axis relative to the second, the swing taken
        out: the second's reference carried by the shortest turn that takes its axis
        onto the first's (radians)."""
        axis_a, axis_b = self._axes(first, second)
        reference_b = _turn_world(second, self._reference[1])
        normal = np.cross(axis_b, axis_a)
        size = float(np.linalg.norm(normal))
        if size > 0:
            reference_b = _rotated(reference_b, normal / size, math.atan2(size, float(axis_a @ axis_b)))
        return _signed_angle(axis_a, reference_b, _turn_world(first, self._reference[0]))


def lines(world: World) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each joint of ``world`` as the segment between its anchors now (for the view)."""
    return [joint.anchors(*world.joint_bodies(joint)) for joint in world.joints]


def settle(links: list[Link], passes: int = 8) -> None:
    """Solve the rows of ``links`` together (module docstring, *Settling*): the impulses
    Δλ with A·Δλ = target - J·v on the active rows (A = J·M⁻¹·Jᵀ), an inactive
    inequality row's sum set to 0; a row leaves the active set when its sum would pull,
    joins it when left out it falls short of its target; at most ``passes`` rounds."""
    blocks = [(link, block) for link in links for block in link.blocks]
    if not blocks:
        return
    bodies: dict[int, Body] = {}
    for link in links:
        for body in (link.first, link.second):
            if body is not None:
                bodies.setdefault(id(body), body)
    column = {key: k for k, key in enumerate(bodies)}
    size = sum(len(block.target) for _, block in blocks)
    jacobian, response = np.zeros((size, 6 * len(bodies))), np.zeros((6 * len(bodies), size))
    target, total, inequality = np.zeros(size), np.zeros(size), np.zeros(size, bool)
    row = 0
    for link, block in blocks:
        k = len(block.target)
        for body, linear, angular, side in ((link.first, block.row.normal, block.row.first, 0),
                                            (link.second, -block.row.normal, block.row.second, 1)):
            if body is None:
                continue
            c = 6 * column[id(body)]
            jacobian[row:row + k, c:c + 3], jacobian[row:row + k, c + 3:c + 6] = linear, angular
            response[c:c + 3, row:row + k], response[c + 3:c + 6, row:row + k] = block.push[side], block.spin[side]
        target[row:row + k] = block.target
        total[row:row + k] = link.joint.impulse[block.start:block.start + k]
        inequality[row:row + k] = block.row.inequality
        row += k
    velocity = np.concatenate([np.concatenate([body.velocity, body.angular_velocity]) for body in bodies.values()])
    coupling = jacobian @ response
    short = target - jacobian @ velocity
    active = np.ones(size, bool)
    change = np.zeros(size)
    for _ in range(passes):
        change = np.where(active, 0.0, -total)
        if active.any():
            wanted = short[active] - coupling[np.ix_(active, ~active)] @ change[~active]
            change[active] = np.linalg.pinv(coupling[np.ix_(active, active)]) @ wanted
        pulling = inequality & active & (total + change < 0)
        falling = inequality & ~active & (coupling @ change < short)
        if not (pulling.any() or falling.any()):
            break
        active = (active & ~pulling) | falling
    velocity = velocity + response @ change
    for k, body in enumerate(bodies.values()):
        body.velocity, body.angular_velocity = velocity[6 * k:6 * k + 3], velocity[6 * k + 3:6 * k + 6]
    row = 0
    for link, block in blocks:
        k = len(block.target)
        link.joint.impulse[block.start:block.start + k] = total[row:row + k] + change[row:row + k]
        row += k


# --- solving ---------------------------------------------------------------------------------------

def _inverse_inertia(body: Body | None) -> np.ndarray:
    return np.zeros((3, 3)) if body is None else body.inverse_inertia()


def _inverse_mass(body: Body | None) -> float:
    return 0.0 if body is None else 1 / body.mass


def apply(row: Row, first: Body, second: Body | None, impulse: np.ndarray) -> None:
    """The impulses λ (k) along ``row``'s k rows: v_a += nᵀλ/m_a, ω_a += I_a⁻¹ j_aᵀλ, and the second's."""
    push = impulse @ row.normal
    first.velocity = first.velocity + push / first.mass
    first.angular_velocity = first.angular_velocity + first.inverse_inertia() @ (impulse @ row.first)
    if second is not None:
        second.velocity = second.velocity - push / second.mass
        second.angular_velocity = second.angular_velocity + second.inverse_inertia() @ (impulse @ row.second)


@dataclass
class Block:
    """A block of k rows in one solve: where its impulses are in ``joint.impulse``, its
    Jacobian, target rates, effective mass M (k x k) and each body's velocity changes
    per unit impulse (3 x k: nᵀ/m and I⁻¹ jᵀ)."""

    start: int
    row: Row
    target: np.ndarray
    mass: np.ndarray
    push: tuple[np.ndarray, np.ndarray]
    spin: tuple[np.ndarray, np.ndarray]


@dataclass
class Link:
    """A joint in one solve: its bodies and its blocks of rows now, with their targets
    over the time ``left``."""

    joint: Joint
    first: Body
    second: Body | None
    blocks: list[Block]

    @classmethod
    def of(cls, joint: Joint, first: Body, second: Body | None, left: float, dt: float,
           gravity: np.ndarray) -> Link:
        """The joint's rows now with their targets (module docstring) and effective masses
        M = (J_v J_vᵀ/m_a + J_a I_a⁻¹ J_aᵀ + J_v J_vᵀ/m_b + J_b I_b⁻¹ J_bᵀ)⁻¹ (a pseudo-inverse:
        a hinge's rows may be dependent).  Blocks with no direction now drop their
        impulses; ``left`` > 0."""
        starts = [int(start) for start in np.cumsum((0,) + joint.SIZES[:-1])]
        inverse_a, inverse_b = _inverse_inertia(first), _inverse_inertia(second)
        blocks = []
        for row, start, size in zip(joint.rows(first, second, gravity), starts, joint.SIZES, strict=True):
            if row is None:
                joint.impulse[start:start + size] = 0.0
                continue
            closing = row.error / left if row.inequality and row.error[0] > 0 else BAUMGARTE * row.error / dt
            push = (row.normal.T * _inverse_mass(first), row.normal.T * -_inverse_mass(second))
            spin = (inverse_a @ row.first.T, inverse_b @ row.second.T)
            response = row.normal @ (push[0] - push[1]) + row.first @ spin[0] + row.second @ spin[1]
            blocks.append(Block(int(start), row, -closing - 0.5 * row.curve * left, np.linalg.pinv(response),
                                push, spin))
        return cls(joint, first, second, blocks)

    def _apply(self, block: Block, impulse: np.ndarray) -> None:
        first, second = self.first, self.second
        first.velocity = first.velocity + block.push[0] @ impulse
        first.angular_velocity = first.angular_velocity + block.spin[0] @ impulse
        if second is not None:
            second.velocity = second.velocity + block.push[1] @ impulse
            second.angular_velocity = second.angular_velocity + block.spin[1] @ impulse

    def warm_start(self) -> None:
        """Apply the rows' impulses of the last step again (a hanging chain holds at once)."""
        for block in self.blocks:
            self._apply(block, self.joint.impulse[block.start:block.start + len(block.target)])

    def relax(self) -> float:
        """One pass over the blocks towards their targets, λ += M·(target - Ċ) with
        Ċ = J_v·(v_a - v_b) + J_a·ω_a + J_b·ω_b, an inequality row's sum kept >= 0.  The
        largest change of an accumulated impulse."""
        largest = 0.0
        first, second = self.first, self.second
        for block in self.blocks:
            row, end = block.row, block.start + len(block.target)
            rate = row.normal @ first.velocity + row.first @ first.angular_velocity
            if second is not None:
                rate = rate - row.normal @ second.velocity + row.second @ second.angular_velocity
            total = self.joint.impulse[block.start:end]
            wanted = total + block.mass @ (block.target - rate)
            if row.inequality:
                wanted = np.maximum(wanted, 0.0)
            change = wanted - total
            self._apply(block, change)
            self.joint.impulse[block.start:end] = wanted
            largest = max(largest, float(abs(change).max()))
        return largest

    def size(self) -> float:
        """The largest accumulated impulse (the scale of the solver's stopping test)."""
        return float(abs(self.joint.impulse).max()) if len(self.joint.impulse) else 0.0
