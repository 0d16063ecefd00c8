"""Islands of touching bodies, and when they sleep.

A body is *still* after a step when no point of it moves faster than ``SLEEP_SPEED``:
its speed bound

    |v| + |ω|·reach  <=  SLEEP_SPEED

(``reach``: the farthest point of the body from its centre of mass; Box2D v3's rule).
An *island* is a set of bodies linked by contacts between bodies (resting pairs) and
joints; static shapes link nothing.  An island sleeps once every body in it has been
still for ``TIME_TO_SLEEP`` seconds: its bodies' velocities are set to zero and the
world neither moves, sweeps nor solves them until something wakes the island (a
contact with an awake body, an applied force or impulse, a joint to an awake body, a
change to a sleeping body's pose or velocity, ``World.wake``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

SLEEP_SPEED = 0.05
"""Units per second (metres: 5 cm/s, Box2D v3's ``sleepThreshold``)."""
TIME_TO_SLEEP = 0.5
"""Seconds an island's bodies must all be still before it sleeps (Box2D's ``b2_timeToSleep``)."""


def point_speed_bound(velocity: np.ndarray, angular_velocity: np.ndarray, reach: float) -> float:
    """The fastest any point of a body can move: |v| + |ω|·reach."""
    return float(np.linalg.norm(velocity)) + float(np.linalg.norm(angular_velocity)) * reach


def islands(count: int, links: Iterable[tuple[int, int]]) -> list[int]:
    """Each of ``count`` bodies' island, as the smallest body index in it, from ``links``
    (pairs of body indices): union-find with path halving."""
    parent = list(range(count))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    for first, second in links:
        a, b = root(first), root(second)
        if a != b:
            parent[max(a, b)] = min(a, b)
    return [root(index) for index in range(count)]
