"""Impulses on rigid bodies, in Python floats: a contact's sequential-impulse pass.

A body's response to an impulse J at a world point p (its centre of mass x, arm
r = p - x):

    Δv = J / m,        Δω = I⁻¹ (r × J)        (I⁻¹ the world inverse inertia),

and the velocity of its point p is v + ω × r.  Along a unit direction d, an impulse
of size λ changes the relative velocity of two bodies at p by λ·k with

    k = w₁ (1/m₁ + d · ((I₁⁻¹ (r₁ × d)) × r₁)) + w₂ (1/m₂ + d · ((I₂⁻¹ (r₂ × d)) × r₂)),

each body's term scaled by its weight w (0: held fixed, shock propagation), so
λ = Δ(speed along d) / k.  ``Rigid`` holds one body's state as floats for the length
of a pass (numpy's per-call cost on 3-vectors was most of the solver's time: ~50 µs a
contact point), and ``store`` writes its velocities back.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sweeplab.playground.world import Body

Vector = tuple[float, float, float]


def cross(a: Vector, b: Vector) -> Vector:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a: Vector, b: Vector) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


class Rigid:
    """One body's mass, inverse inertia, centre and velocities as floats, weighted."""

    __slots__ = ("body", "weight", "mass", "inverse_inertia", "centre", "velocity", "spin")

    def __init__(self, body: Body, weight: float):
        self.body, self.weight, self.mass = body, weight, body.mass
        self.inverse_inertia = tuple(body.inverse_inertia().ravel().tolist())
        self.centre: Vector = tuple(body.position.tolist())
        self.velocity: Vector = tuple(body.velocity.tolist())
        self.spin: Vector = tuple(body.angular_velocity.tolist())

    def arm(self, point: Vector) -> Vector:
        c = self.centre
        return (point[0] - c[0], point[1] - c[1], point[2] - c[2])

    def turned(self, vector: Vector) -> Vector:
        """I⁻¹ vector."""
        m = self.inverse_inertia
        return (m[0] * vector[0] + m[1] * vector[1] + m[2] * vector[2],
                m[3] * vector[0] + m[4] * vector[1] + m[5] * vector[2],
                m[6] * vector[0] + m[7] * vector[1] + m[8] * vector[2])

    def velocity_at(self, point: Vector) -> Vector:
        """v + ω × r."""
        turning = cross(self.spin, self.arm(point))
        v = self.velocity
        return (v[0] + turning[0], v[1] + turning[1], v[2] + turning[2])

    def response(self, point: Vector, direction: Vector) -> float:
        """w (1/m + d · ((I⁻¹ (r × d)) × r))."""
        arm = self.arm(point)
        return self.weight * (1 / self.mass + dot(direction, cross(self.turned(cross(arm, direction)), arm)))

    def push(self, point: Vector, impulse: Vector, sign: float) -> None:
        """``sign`` times the impulse at ``point``, weighted: Δv = wJ/m, Δω = w I⁻¹ (r × J)."""
        w = sign * self.weight
        v, s = self.velocity, self.spin
        turn = self.turned(cross(self.arm(point), impulse))
        self.velocity = (v[0] + w * impulse[0] / self.mass, v[1] + w * impulse[1] / self.mass,
                         v[2] + w * impulse[2] / self.mass)
        self.spin = (s[0] + w * turn[0], s[1] + w * turn[1], s[2] + w * turn[2])

    def store(self) -> None:
        self.body.velocity = np.array(self.velocity)
        self.body.angular_velocity = np.array(self.spin)


def relative_velocity(first: Rigid, second: Rigid | None, point: Vector) -> Vector:
    """The first body's point velocity less the second's (a static shape's: 0)."""
    velocity = first.velocity_at(point)
    if second is None:
        return velocity
    other = second.velocity_at(point)
    return (velocity[0] - other[0], velocity[1] - other[1], velocity[2] - other[2])


def effective_mass(first: Rigid, second: Rigid | None, point: Vector, direction: Vector) -> float:
    """1 / k (module docstring)."""
    response = first.response(point, direction)
    if second is not None:
        response += second.response(point, direction)
    return 1 / response


def apply(first: Rigid, second: Rigid | None, point: Vector, impulse: Vector) -> None:
    """``impulse`` on the first at ``point``, its opposite on the second."""
    first.push(point, impulse, 1.0)
    if second is not None:
        second.push(point, impulse, -1.0)


def relax(points, normal, leaving, held, friction: float, normal_sum: np.ndarray, tangent_sum: np.ndarray,
          first: Rigid, second: Rigid | None) -> float:
    """One pass over a contact's ``points``: at each, the normal impulse towards its
    ``leaving`` speed (accumulated in ``normal_sum``, never pulling), then friction
    towards the sliding velocity ``held`` within the Coulomb cone (accumulated in
    ``tangent_sum``, at most ``friction`` times the normal impulse).  Returns the largest
    change of an accumulated impulse."""
    n: Vector = tuple(normal.tolist())
    aim: Vector = tuple(held.tolist())
    largest = 0.0
    for k, at in enumerate(points):
        p: Vector = tuple(at.tolist())
        before = float(normal_sum[k])
        change = (leaving[k] - dot(relative_velocity(first, second, p), n)) * effective_mass(first, second, p, n)
        new = max(before + change, 0.0)
        step = new - before
        apply(first, second, p, (step * n[0], step * n[1], step * n[2]))
        normal_sum[k] = new
        largest = max(largest, abs(step))
        relative = relative_velocity(first, second, p)
        along = dot(relative, n)
        slide = (relative[0] - along * n[0] - aim[0], relative[1] - along * n[1] - aim[1],
                 relative[2] - along * n[2] - aim[2])
        speed = math.sqrt(dot(slide, slide))
        if speed == 0:
            continue
        direction = (slide[0] / speed, slide[1] / speed, slide[2] / speed)
        old: Vector = tuple(tangent_sum[k].tolist())
        scale = speed * effective_mass(first, second, p, direction)
        wanted = (old[0] - scale * direction[0], old[1] - scale * direction[1], old[2] - scale * direction[2])
        limit = friction * new
        size = math.sqrt(dot(wanted, wanted))
        if size > limit:
            shrink = limit / size
            wanted = (wanted[0] * shrink, wanted[1] * shrink, wanted[2] * shrink)
        apply(first, second, p, (wanted[0] - old[0], wanted[1] - old[1], wanted[2] - old[2]))
        tangent_sum[k] = wanted
        largest = max(largest, abs(wanted[0] - old[0]), abs(wanted[1] - old[1]), abs(wanted[2] - old[2]))
    return largest
