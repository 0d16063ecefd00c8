"""What a user does to the playground's bodies from outside the simulation: forces
applied over a step, impulses applied at once, and the mouse-drag spring.

Conventions (world space, SI units):

- A *force* ``F`` (N) at a world point ``p`` acts over the next step only.  Its
  linear part is a constant acceleration ``F/m`` added to gravity for the whole step
  (integrated exactly as gravity is: x += v·τ + ½(g + F/m)·τ², v += (g + F/m)·τ); its
  torque ``(p - x) × F`` about the centre of mass ``x`` is applied as the angular
  impulse ``(p - x) × F · dt`` at the step's start (the world sweeps each window at a
  constant angular velocity, so a torque cannot change it within the step).
- An *impulse* ``J`` (N·s) at ``p`` changes the velocities at once:

      Δv = J / m,    Δω = I⁻¹ ((p - x) × J)   (I⁻¹ the world-space inverse inertia).

- The *mouse spring* pulls a picked body point ``p`` (moving at ``v_p``) towards the
  point under the mouse ``q``, scaled by the body's mass ``m`` so that every body
  follows alike (a critically damped oscillator of ``DRAG_HERTZ``):

      F = m·(ω_n²·(q - p) - 2·ω_n·v_p),   ω_n = 2π·DRAG_HERTZ.

  Gravity still acts: a held body hangs g/ω_n² (6.2 cm) below the mouse.

Kinematic bodies are moved by their velocities alone: a force or impulse on one is
refused, like any bad argument, with a ``ValueError`` naming it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # world imports this module
    from sweeplab.playground.world import Body

DRAG_HERTZ = 2.0
"""The mouse spring's natural frequency (Hz): ω_n·dt = 0.21 at 60 Hz, well inside the
explicit force's stability (ω_n·dt < 2), and the body follows the mouse within ~0.25 s."""


def vector(argument: str, value) -> np.ndarray:
    """``value`` as a finite 3-vector of floats, or a ``ValueError`` naming ``argument``."""
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{argument}: expected 3 numbers, got {value!r}") from None
    if array.shape != (3,):
        raise ValueError(f"{argument}: expected 3 numbers, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{argument}: must be finite, got {array.tolist()}")
    return array


def pushable(body: Body, argument: str) -> None:
    """A ``ValueError`` naming ``argument`` when ``body`` is kinematic (its motion is set)."""
    if body.kinematic:
        raise ValueError(f"{argument}: {body.name!r} is kinematic: it moves by its velocity, no force moves it")


@dataclass
class Push:
    """The forces on one body over the next step, summed: ``force`` (N) through the
    centre of mass and the ``torque`` (N·m) of their offsets."""

    force: np.ndarray
    torque: np.ndarray


def arm(body: Body, point: np.ndarray | None) -> np.ndarray:
    """From the body's centre of mass to ``point`` (zero for None: the centre itself)."""
    return np.zeros(3) if point is None else point - body.position


def apply_impulse(body: Body, impulse: np.ndarray, point: np.ndarray | None) -> None:
    """Δv = J/m, Δω = I⁻¹ (r × J) with r from the centre of mass to ``point``."""
    apply_impulses(body, impulse[None], (body.position if point is None else point)[None])


def apply_impulses(body: Body, impulses: np.ndarray, points: np.ndarray) -> None:
    """Impulses J_k (K, 3) at the world points p_k (K, 3), all at once (a fluid's
    particles on a body): Δv = Σ J_k / m, Δω = I⁻¹ Σ (p_k - x) × J_k."""
    body.velocity = body.velocity + impulses.sum(axis=0) / body.mass
    body.angular_velocity = body.angular_velocity + \
        body.inverse_inertia() @ np.cross(points - body.position, impulses).sum(axis=0)


def drag_force(body: Body, grab: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mouse spring's force on ``body`` and the world point it acts at: ``grab`` is
    the picked point in body space (from the centre of mass, body axes), ``target`` the
    world point under the mouse.

        p = x + R·grab,   v_p = v + ω × (p - x),   F = m·(ω_n²·(q - p) - 2·ω_n·v_p)."""
    omega = 2 * math.pi * DRAG_HERTZ
    offset = body.rotation @ grab
    point = body.position + offset
    moving = body.velocity + np.cross(body.angular_velocity, offset)
    return body.mass * (omega * omega * (target - point) - 2 * omega * moving), point
