"""Sequential impulses at contact points, compiled: a layer of contacts relaxed until
it converges.

A body's response to an impulse J at a world point p (its centre of mass x, arm
r = p - x):

    Δv = J / m,        Δω = I⁻¹ (r × J)        (I⁻¹ the world inverse inertia),

and the velocity of its point p is v + ω × r.  Along a unit direction d, an impulse
of size λ changes the relative velocity of two bodies at p by λ·k with

    k = w₁ (1/m₁ + d · ((I₁⁻¹ (r₁ × d)) × r₁)) + w₂ (1/m₂ + d · ((I₂⁻¹ (r₂ × d)) × r₂)),

each body's term scaled by its weight w (0: held fixed, shock propagation), so
λ = Δ(speed along d) / k.  A pass visits each contact's points in order: the normal
impulse towards the point's leaving speed (accumulated, never pulling), then friction
towards the contact's ``held`` sliding velocity within the Coulomb cone (accumulated,
at most μ times the normal impulse).  ``solve_layer`` repeats passes until one changes
no accumulated impulse by more than ``rtol`` of the largest (or ``iterations`` run
out).

``Solve`` packs a solve's bodies and contacts into arrays for the kernels (written
back by ``store``): in Python, the same arithmetic on 3-vectors cost ~50 µs a point.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from sweeplab.physics.kernels import entry, kernel

if TYPE_CHECKING:
    from sweeplab.playground.world import Body


@kernel
def _cross(a0, a1, a2, b0, b1, b2):
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@kernel
def _turned(inverse_inertia, body, x, y, z):
    """I⁻¹ (x, y, z) of ``body``."""
    m = inverse_inertia
    return (m[body, 0] * x + m[body, 1] * y + m[body, 2] * z, m[body, 3] * x + m[body, 4] * y + m[body, 5] * z,
            m[body, 6] * x + m[body, 7] * y + m[body, 8] * z)


@kernel
def _point_velocity(centre, velocity, spin, body, p0, p1, p2):
    """v + ω × r of ``body`` at (p0, p1, p2)."""
    t0, t1, t2 = _cross(spin[body, 0], spin[body, 1], spin[body, 2], p0 - centre[body, 0], p1 - centre[body, 1],
                        p2 - centre[body, 2])
    return velocity[body, 0] + t0, velocity[body, 1] + t1, velocity[body, 2] + t2


@kernel
def _relative(centre, velocity, spin, first, second, p0, p1, p2):
    """The first body's point velocity less the second's (``second`` -1: a static shape)."""
    v0, v1, v2 = _point_velocity(centre, velocity, spin, first, p0, p1, p2)
    if second < 0:
        return v0, v1, v2
    u0, u1, u2 = _point_velocity(centre, velocity, spin, second, p0, p1, p2)
    return v0 - u0, v1 - u1, v2 - u2


@kernel
def _response(mass, inverse_inertia, centre, body, weight, p0, p1, p2, d0, d1, d2):
    """w (1/m + d · ((I⁻¹ (r × d)) × r))."""
    r0, r1, r2 = p0 - centre[body, 0], p1 - centre[body, 1], p2 - centre[body, 2]
    c0, c1, c2 = _cross(r0, r1, r2, d0, d1, d2)
    t0, t1, t2 = _turned(inverse_inertia, body, c0, c1, c2)
    e0, e1, e2 = _cross(t0, t1, t2, r0, r1, r2)
    return weight * (1 / mass[body] + (d0 * e0 + d1 * e1 + d2 * e2))


@kernel
def _effective_mass(mass, inverse_inertia, centre, first, second, w_first, w_second, p0, p1, p2, d0, d1, d2):
    response = _response(mass, inverse_inertia, centre, first, w_first, p0, p1, p2, d0, d1, d2)
    if second >= 0:
        response += _response(mass, inverse_inertia, centre, second, w_second, p0, p1, p2, d0, d1, d2)
    return 1 / response


@kernel
def _push(mass, inverse_inertia, centre, velocity, spin, body, weight, p0, p1, p2, j0, j1, j2):
    """Δv = wJ/m, Δω = w I⁻¹ (r × J) (``weight`` signed)."""
    velocity[body, 0] += weight * j0 / mass[body]
    velocity[body, 1] += weight * j1 / mass[body]
    velocity[body, 2] += weight * j2 / mass[body]
    c0, c1, c2 = _cross(p0 - centre[body, 0], p1 - centre[body, 1], p2 - centre[body, 2], j0, j1, j2)
    t0, t1, t2 = _turned(inverse_inertia, body, c0, c1, c2)
    spin[body, 0] += weight * t0
    spin[body, 1] += weight * t1
    spin[body, 2] += weight * t2


@kernel
def _apply(mass, inverse_inertia, centre, velocity, spin, first, second, w_first, w_second, p0, p1, p2, j0, j1, j2):
    """J on the first body at p, -J on the second."""
    _push(mass, inverse_inertia, centre, velocity, spin, first, w_first, p0, p1, p2, j0, j1, j2)
    if second >= 0:
        _push(mass, inverse_inertia, centre, velocity, spin, second, -w_second, p0, p1, p2, j0, j1, j2)


@entry
def warm_start(mass, inverse_inertia, centre, velocity, spin, first, second, weights, normal, start, points,
               normal_sum, tangent_sum, warm):
    """The accumulated impulses of the ``warm`` contacts applied (their last solve's)."""
    for j in range(len(first)):
        if not warm[j]:
            continue
        for k in range(start[j], start[j + 1]):
            size = normal_sum[k]
            _apply(mass, inverse_inertia, centre, velocity, spin, first[j], second[j], weights[j, 0], weights[j, 1],
                   points[k, 0], points[k, 1], points[k, 2], size * normal[j, 0] + tangent_sum[k, 0],
                   size * normal[j, 1] + tangent_sum[k, 1], size * normal[j, 2] + tangent_sum[k, 2])


@kernel
def _relax_pass(mass, inverse_inertia, centre, velocity, spin, first, second, weights, normal, held, friction, start,
               points, leaving, normal_sum, tangent_sum):
    """One pass over every contact's points (module docstring): (the largest change of an
    accumulated impulse, the largest accumulated impulse component)."""
    largest_change, largest = 0.0, 0.0
    for j in range(len(first)):
        a, b, wa, wb = first[j], second[j], weights[j, 0], weights[j, 1]
        n0, n1, n2 = normal[j, 0], normal[j, 1], normal[j, 2]
        for k in range(start[j], start[j + 1]):
            p0, p1, p2 = points[k, 0], points[k, 1], points[k, 2]
            before = normal_sum[k]
            r0, r1, r2 = _relative(centre, velocity, spin, a, b, p0, p1, p2)
            mass_n = _effective_mass(mass, inverse_inertia, centre, a, b, wa, wb, p0, p1, p2, n0, n1, n2)
            new = max(before + (leaving[k] - (r0 * n0 + r1 * n1 + r2 * n2)) * mass_n, 0.0)
            step = new - before
            _apply(mass, inverse_inertia, centre, velocity, spin, a, b, wa, wb, p0, p1, p2, step * n0, step * n1,
                   step * n2)
            normal_sum[k] = new
            largest_change = max(largest_change, abs(step))
            r0, r1, r2 = _relative(centre, velocity, spin, a, b, p0, p1, p2)
            along = r0 * n0 + r1 * n1 + r2 * n2
            s0, s1, s2 = r0 - along * n0 - held[j, 0], r1 - along * n1 - held[j, 1], r2 - along * n2 - held[j, 2]
            speed = math.sqrt(s0 * s0 + s1 * s1 + s2 * s2)
            if speed > 0:
                d0, d1, d2 = s0 / speed, s1 / speed, s2 / speed
                o0, o1, o2 = tangent_sum[k, 0], tangent_sum[k, 1], tangent_sum[k, 2]
                scale = speed * _effective_mass(mass, inverse_inertia, centre, a, b, wa, wb, p0, p1, p2, d0, d1, d2)
                w0, w1, w2 = o0 - scale * d0, o1 - scale * d1, o2 - scale * d2
                limit = friction[j] * new
                size = math.sqrt(w0 * w0 + w1 * w1 + w2 * w2)
                if size > limit:
                    shrink = limit / size
                    w0, w1, w2 = w0 * shrink, w1 * shrink, w2 * shrink
                _apply(mass, inverse_inertia, centre, velocity, spin, a, b, wa, wb, p0, p1, p2, w0 - o0, w1 - o1,
                       w2 - o2)
                tangent_sum[k, 0], tangent_sum[k, 1], tangent_sum[k, 2] = w0, w1, w2
                largest_change = max(largest_change, abs(w0 - o0), abs(w1 - o1), abs(w2 - o2))
        for k in range(start[j], start[j + 1]):
            largest = max(largest, abs(normal_sum[k]), abs(tangent_sum[k, 0]), abs(tangent_sum[k, 1]),
                          abs(tangent_sum[k, 2]))
    return largest_change, largest


@entry
def relax_pass(mass, inverse_inertia, centre, velocity, spin, first, second, weights, normal, held, friction, start,
               points, leaving, normal_sum, tangent_sum):
    """``_relax_pass`` for Python (a layer with joints: their rows relaxed between passes)."""
    return _relax_pass(mass, inverse_inertia, centre, velocity, spin, first, second, weights, normal, held, friction,
                       start, points, leaving, normal_sum, tangent_sum)


@entry
def solve_layer(iterations, rtol, mass, inverse_inertia, centre, velocity, spin, first, second, weights, normal,
                held, friction, start, points, leaving, normal_sum, tangent_sum):
    """Passes until one changes no accumulated impulse by more than ``rtol`` of the
    largest, at most ``iterations``: how many ran."""
    for iteration in range(iterations):
        change, largest = _relax_pass(mass, inverse_inertia, centre, velocity, spin, first, second, weights, normal,
                                     held, friction, start, points, leaving, normal_sum, tangent_sum)
        if change <= rtol * largest:
            return iteration + 1
    return iterations


def point_velocity(body: Body, point: np.ndarray) -> np.ndarray:
    """v + ω × r of ``body`` at ``point`` (floats: numpy's cross costs ~30 µs a call)."""
    w0, w1, w2 = body.angular_velocity.tolist()
    r0, r1, r2 = (point - body.position).tolist()
    return body.velocity + np.array([w1 * r2 - w2 * r1, w2 * r0 - w0 * r2, w0 * r1 - w1 * r0])


class Solve:
    """A solve's bodies as arrays (``store`` writes their velocities back), and its
    contacts' layers packed for the kernels."""

    def __init__(self, bodies: list[Body]):
        self.bodies = bodies
        self.local = {id(body): index for index, body in enumerate(bodies)}
        self.mass = np.array([body.mass for body in bodies], float)
        self.inverse_inertia = np.array([body.inverse_inertia().ravel() for body in bodies], float).reshape(-1, 9)
        self.centre = np.array([body.position for body in bodies], float).reshape(-1, 3)
        self.load()

    def load(self) -> None:
        """The bodies' velocities into the arrays (after Python changed them: a joint)."""
        self.velocity = np.array([body.velocity for body in self.bodies], float).reshape(-1, 3)
        self.spin = np.array([body.angular_velocity for body in self.bodies], float).reshape(-1, 3)

    def store(self) -> None:
        for index, body in enumerate(self.bodies):
            body.velocity, body.angular_velocity = self.velocity[index].copy(), self.spin[index].copy()

    def layer(self, members, sides) -> Layer:
        return Layer(self, members, sides)


class Layer:
    """A layer's contacts (with the weights each side responds by), packed: its points'
    accumulated impulses are the arrays ``normal_sum`` and ``tangent_sum``, read back
    into the contacts by ``unpack``."""

    def __init__(self, solve: Solve, members, sides):
        """``members``: (contact, (w₁, w₂)); ``sides``: each contact's (body, other body or None)."""
        self.solve, self.contacts = solve, [contact for contact, _ in members]
        self.first = np.array([solve.local[id(body)] for body, _ in sides], np.int64)
        self.second = np.array([-1 if other is None else solve.local[id(other)] for _, other in sides], np.int64)
        self.weights = np.array([held for _, held in members], float).reshape(-1, 2)
        self.normal = np.array([contact.normal for contact in self.contacts], float).reshape(-1, 3)
        self.held = np.array([contact.held for contact in self.contacts], float).reshape(-1, 3)
        self.friction = np.array([contact.friction for contact in self.contacts], float)
        counts = [len(contact.points) for contact in self.contacts]
        self.start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.points = np.array([p for contact in self.contacts for p in contact.points], float).reshape(-1, 3)
        self.leaving = np.array([speed for contact in self.contacts for speed in contact.leaving], float)
        self.normal_sum = np.concatenate([contact.normal_sum for contact in self.contacts] or [np.zeros(0)])
        self.tangent_sum = np.concatenate([contact.tangent_sum for contact in self.contacts]
                                          or [np.zeros((0, 3))]).reshape(-1, 3)

    def _arrays(self) -> tuple:
        s = self.solve
        return (s.mass, s.inverse_inertia, s.centre, s.velocity, s.spin, self.first, self.second, self.weights,
                self.normal)

    def warm_start(self, warm: list[bool]) -> None:
        warm_start(*self._arrays(), self.start, self.points, self.normal_sum, self.tangent_sum,
                   np.array(warm, np.bool_))

    def relax(self) -> tuple[float, float]:
        """One pass: (largest change, largest accumulated impulse)."""
        return relax_pass(*self._arrays(), self.held, self.friction, self.start, self.points, self.leaving,
                          self.normal_sum, self.tangent_sum)

    def solve_to(self, iterations: int, rtol: float) -> int:
        return solve_layer(iterations, rtol, *self._arrays(), self.held, self.friction, self.start, self.points,
                           self.leaving, self.normal_sum, self.tangent_sum)

    def unpack(self) -> None:
        for j, contact in enumerate(self.contacts):
            contact.normal_sum = self.normal_sum[self.start[j]:self.start[j + 1]].copy()
            contact.tangent_sum = self.tangent_sum[self.start[j]:self.start[j + 1]].copy()
