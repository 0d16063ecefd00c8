"""Where a body floats: its draft (how deep its lowest point is under the surface) now,
and at equilibrium, from the exact submerged volume (``buoyancy.submerged``).

A body of mass m floats still when the water it displaces weighs as much as it does,

    ρ_w · V_sub(d) = m,

d the draft, held at the body's turn (a body that tips to another turn floats at
another draft).  V_sub grows with d from 0 (touching the surface) to the body's volume
V, so there is one such d when m < ρ_w·V, and none (it sinks) otherwise.  It is found
by bisection on d until the interval cannot be halved in floating point: a box of
height h and density ρ_b floats at d = (ρ_b/ρ_w)·h, a sphere of radius r at the cap
depth d with π d² (3r - d)/3 = m/ρ_w.
"""

from __future__ import annotations

import numpy as np

from sweeplab.physics import Capsule, Sphere
from sweeplab.playground.buoyancy import Water, submerged, volume
from sweeplab.playground.world import Body


def lowest(body: Body, up: np.ndarray) -> float:
    """The height along the unit ``up`` of the body's lowest point."""
    shape = body.world_shape()
    if isinstance(shape, Sphere):
        return float(up @ np.asarray(shape.center, float)) - float(shape.radius)
    if isinstance(shape, Capsule):
        ends = (float(up @ np.asarray(shape.a, float)), float(up @ np.asarray(shape.b, float)))
        return min(ends) - float(shape.radius)
    return float(np.min(np.asarray(shape.vertices, float) @ up))


def draft(body: Body, water: Water, up: np.ndarray) -> float:
    """How deep the body's lowest point is under the surface now (negative: above it)."""
    return water.level - lowest(body, up)


def equilibrium_draft(body: Body, water: Water, up: np.ndarray) -> float | None:
    """The draft at which the body, turned as it is, displaces its own mass of water;
    None when it sinks (m >= ρ_w·V).  ``up`` is a unit vector (``-gravity/|gravity|``)."""
    if body.mass >= water.density * volume(body.shape):
        return None
    bottom, top = lowest(body, up), -lowest(body, -up)
    low, high = 0.0, top - bottom
    while True:
        middle = 0.5 * (low + high)
        if not low < middle < high:
            return middle
        under = submerged(body, (bottom + middle) * up, up).volume
        if water.density * under < body.mass:
            low = middle
        else:
            high = middle

