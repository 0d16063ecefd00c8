"""The failing spring (the seed diary's check): a body whose energy rises, with no
collision to explain it, is reported before it explodes.

Bodies with joints are checked, and those joined by them together, as one *group* (a rod or a rope moves
energy from one body to the next; only the group's sum is kept by the physics).  A
group's energy is

    E = Σ (½·m·v² + ½·ω·I·ω - m·g·x) + Σ joints' stored energy (½·k·stretch² of a spring)

— kinetic, gravity's potential and the springs' — which the motion keeps: the world
integrates gravity exactly, and ideal joints do no work on the group.  What gravity
added to the kinetic energy over the step, Σ m·g·Δx, is already in E; it is reported
beside the rise, the diary's bound on a lone body.

A step raises an ``EnergyEvent`` when E rises by more than ``ENERGY_RISE`` times the
group's *motion energy* at the step's start (kinetic plus springs': the part that does
not depend on where gravity's potential is zero), plus the kinetic energy of the
world's support speed, Σ ½·m·(|g|·dt/2)² (a body held at rest leaves each step moving
at up to g·dt/2 into its support: from a standing start that is a rise), plus rounding,
and no body of the
group touched anything in that step or the one before (a contact's support speed and a
bounce's restitution change energy by design) nor was pushed by a force in that step
(``World.apply_force``, the water's buoyancy and drag: their work is not counted).  With ``World.clamp_energy`` the
group's velocities are scaled down to take back the excess (to rest, when the kinetic
energy is less than the excess).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sweeplab.playground.sleep import islands

if TYPE_CHECKING:
    from sweeplab.playground.world import World

ENERGY_RISE = 0.5
"""A group's energy may rise by this fraction of its motion energy in one step.  An
explicit spring (``joints``) at ω·dt = 0.5 rises by at most 0.28 of it a step (its
energy bounded within 4/3 of the start), at ω·dt = 1 by 1.0; one past stability,
ω·dt > 2, by 32 times or more, and every step after."""
ROUNDING = 1e-12
"""Rises below this fraction of the energies' sizes (kinetic, springs', |m·g·x|) are
rounding: a body at rest far from the origin holds m·g·x with ~1e-16 of it in error."""


@dataclass(frozen=True)
class EnergyEvent:
    """A rise of a group's energy with no collision to explain it: ``body`` the group's
    body whose kinetic energy rose most, ``bodies`` the group, ``time`` the step's end,
    ``rise`` (J) beyond the step's start, ``gravity`` the work gravity did in the step (J)."""

    body: str
    time: float
    rise: float
    gravity: float
    bodies: tuple[str, ...]


@dataclass(frozen=True)
class Reading:
    """A group's energies at one moment: the total E, the motion energy, the size the
    rounding is relative to, and each body's kinetic energy and position."""

    total: float
    motion: float
    support: float
    size: float
    kinetic: tuple[float, ...]
    positions: tuple[np.ndarray, ...]


def groups(world: World) -> list[tuple[int, ...]]:
    """The world's bodies (indices) with joints, in groups joined by them.  A body with
    none is not checked: gravity, integrated exactly, keeps its energy to rounding, and
    a contact excuses it anyway (reading 100 bodies every step cost 15 ms of a step)."""
    jointed = {name for joint in world.joints for name in (joint.first, joint.second) if name}
    links = [(world._index(joint.first), world._index(joint.second)) for joint in world.joints if joint.second]
    members: dict[int, list[int]] = {}
    for index, root in enumerate(islands(len(world.bodies), links)):
        if world.bodies[index].name in jointed:
            members.setdefault(root, []).append(index)
    return [tuple(group) for group in members.values()]


def measure(world: World, group: tuple[int, ...], dt: float) -> Reading:
    """The group's energies now, and the support's over a step of ``dt``."""
    names = {world.bodies[k].name for k in group}
    stored = sum(joint.energy(*world.joint_bodies(joint)) for joint in world.joints if joint.first in names)
    kinetic = tuple(world.bodies[k].kinetic_energy() for k in group)
    height = [-world.bodies[k].mass * float(world.gravity @ world.bodies[k].position) for k in group]
    support = sum(0.5 * world.bodies[k].mass for k in group) * (float(np.linalg.norm(world.gravity)) * dt / 2) ** 2
    return Reading(sum(kinetic) + sum(height) + stored, sum(kinetic) + stored, support,
                   sum(kinetic) + stored + sum(abs(h) for h in height), kinetic,
                   tuple(world.bodies[k].position.copy() for k in group))


def allowed(before: Reading, after: Reading) -> float:
    """The largest rise that is not an event: ``ENERGY_RISE`` of the motion energy, the
    support's kinetic energy, and rounding."""
    return ENERGY_RISE * before.motion + before.support + ROUNDING * max(before.size, after.size)


def check(world: World, before: dict[tuple[int, ...], Reading], touched: set[str]) -> list[EnergyEvent]:
    """The step's events for the groups read ``before`` it (clamped when the world says
    so); groups with a body in ``touched`` (it met something this step or the last) are
    not checked."""
    events = []
    for group, start in before.items():
        if any(world.bodies[k].name in touched for k in group):
            continue
        end = measure(world, group, 0.0)
        rise = end.total - start.total
        excess = rise - allowed(start, end)
        if not excess > 0:
            continue
        gravity = sum(world.bodies[k].mass * float(world.gravity @ (world.bodies[k].position - x))
                      for k, x in zip(group, start.positions, strict=True))
        most = max(range(len(group)), key=lambda m: end.kinetic[m] - start.kinetic[m])
        events.append(EnergyEvent(world.bodies[group[most]].name, world.time, rise, gravity,
                                  tuple(world.bodies[k].name for k in group)))
        if world.clamp_energy:
            kinetic = sum(end.kinetic)
            scale = float(np.sqrt(max(kinetic - excess, 0.0) / kinetic)) if kinetic > 0 else 0.0
            for k in group:
                world.bodies[k].velocity = world.bodies[k].velocity * scale
                world.bodies[k].angular_velocity = world.bodies[k].angular_velocity * scale
    return events
