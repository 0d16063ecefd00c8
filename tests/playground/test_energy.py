"""The failing spring (#36, the seed diary's check): a rise of energy that no collision
explains is an event, a sensible spring never raises one, and the threshold sits where
``energy.ENERGY_RISE`` says."""

import math

import numpy as np
import pytest

from sweeplab.playground import energy
from sweeplab.playground.joints import BallJoint, Spring
from sweeplab.playground.world import World, sphere_body

DT = 1 / 60


def spring_world(omega_dt: float, gravity=(0.0, 0.0, 0.0), ratio: float = 0.0):
    """A ball on a spring to the origin, let go 0.1 below it at rest: ω = omega_dt/DT."""
    ball = sphere_body("ball", [0.0, 0.0, -0.1], 0.1)
    stiffness = ball.mass * (omega_dt / DT) ** 2
    world = World([ball], {}, gravity=np.asarray(gravity, float))
    world.add_joint(Spring("ball", None, ball.position.copy(), [0.0, 0.0, 0.0], 0.0, stiffness,
                           2 * ratio * math.sqrt(stiffness * ball.mass)))
    return world, ball


@pytest.mark.parametrize("omega_dt", [2.5, 10.0])
def test_a_spring_far_too_stiff_for_the_step_raises_the_event(omega_dt):
    world, ball = spring_world(omega_dt, gravity=(0.0, 0.0, -9.81))
    world.step(DT)
    assert len(world.events_energy) == 1
    event = world.events_energy[0]
    assert event.body == "ball" and event.bodies == ("ball",) and event.time == DT
    stored = 0.5 * world.joints[0].stiffness * 0.1 ** 2
    assert event.rise > 5 * stored  # ω·dt = 2.5: the energy 33 times what it was, 10: 9900 times
    assert event.gravity == pytest.approx(ball.mass * 9.81 * (-0.1 - ball.position[2]), rel=1e-12)


@pytest.mark.parametrize("omega_dt, ratio", [(0.1, 0.0), (0.5, 0.0), (0.1, 0.2)])
def test_a_sensible_spring_never_raises_it_over_10_s(omega_dt, ratio):
    world, ball = spring_world(omega_dt, gravity=(0.0, 0.0, -9.81), ratio=ratio)
    for _ in range(600):
        world.step(DT)
    assert world.events_energy == []


def test_omega_dt_1_rises_past_the_threshold_and_0_5_stays_below():
    """The threshold between them: an explicit spring at ω·dt = 1 doubles its energy in
    a step (a rise of 1.0 of it), at 0.5 rises by at most 0.28 (``ENERGY_RISE`` = 0.5)."""
    world, _ = spring_world(1.0)
    for _ in range(10):
        world.step(DT)
    assert world.events_energy and max(e.rise for e in world.events_energy) > 0
    world, _ = spring_world(0.5)
    for _ in range(60):
        world.step(DT)
    assert world.events_energy == []


def reading(total: float, motion: float) -> energy.Reading:
    return energy.Reading(total, motion, 0.0, 0.0, (0.0,), (np.zeros(3),))


@pytest.mark.parametrize("over, raised", [(-1e-9, False), (0.0, False), (1e-9, True)])
def test_the_threshold_at_just_inside_and_just_outside(over, raised):
    """A rise of exactly ``ENERGY_RISE`` of the motion energy is allowed; a hair more is
    an event (a ball at rest at the origin: the rise and the allowance exact in floats)."""
    world = World([sphere_body("ball", [0.0, 0.0, 0.0], 0.1)], {}, gravity=np.zeros(3))
    before = reading(-0.25 * (1 + over), 0.5)
    assert energy.ENERGY_RISE * 0.5 == 0.25
    assert bool(energy.check(world, {(0,): before}, set())) == raised


def test_a_body_that_touched_something_is_not_checked():
    ball = sphere_body("ball", [0.0, 0.0, 0.0], 0.1)
    ball.velocity = np.array([1.0, 0.0, 0.0])
    world = World([ball], {}, gravity=np.zeros(3))
    before = reading(0.0, 0.0)
    assert energy.check(world, {(0,): before}, {"ball"}) == []
    assert len(energy.check(world, {(0,): before}, set())) == 1


def test_clamp_energy_takes_the_excess_back_and_leaves_it_in_the_list():
    world, ball = spring_world(10.0)
    world.clamp_energy = True
    world.step(DT)
    assert len(world.events_energy) == 1
    assert np.all(ball.velocity == 0.0)  # the excess is more than its kinetic energy: to rest


def test_clamp_energy_scales_velocities_to_the_allowed_energy():
    ball = sphere_body("ball", [0.0, 0.0, 0.0], 0.1)
    ball.velocity = np.array([2.0, 0.0, 0.0])
    world = World([ball], {}, gravity=np.zeros(3), clamp_energy=True)
    kinetic = ball.kinetic_energy()
    before = reading(kinetic / 4, kinetic / 2)  # a rise of 3/4·KE, allowed 1/4·KE: excess 1/2·KE
    events = energy.check(world, {(0,): before}, set())
    assert len(events) == 1 and ball.kinetic_energy() == pytest.approx(kinetic / 2, rel=1e-12)
    assert ball.velocity[0] == pytest.approx(2.0 / math.sqrt(2), rel=1e-12)


def test_bodies_joined_by_joints_are_checked_as_one_group_and_lone_bodies_not_at_all():
    a, b, c, d = (sphere_body(name, [x, 0.0, 0.0], 0.1) for name, x in (("a", 0.0), ("b", 1.0), ("c", 5.0), ("d", 9.0)))
    world = World([a, b, c, d], {}, gravity=np.zeros(3))
    world.add_joint(Spring("a", "b", [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 1.0, 1.0, 0.0))
    world.add_joint(BallJoint("d", None, [9.0, 0.0, 0.5]))
    assert sorted(energy.groups(world)) == [(0, 1), (3,)]
