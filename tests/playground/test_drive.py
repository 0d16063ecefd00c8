"""Forces and impulses from outside the world (``World.apply_force``, ``apply_impulse``)
and the mouse-drag spring (``drive.drag_force``): their exact effect over a step, and
bad arguments refused with the world left as it was."""

import math

import numpy as np
import pytest

from sweeplab.physics import Plane
from sweeplab.playground import drive
from sweeplab.playground.world import World, box_body, sphere_body, turned

DT = 1 / 60


def free_box() -> World:
    """A turned, oblong box alone in the air: its world inverse inertia is full."""
    tilt = turned(np.eye(3), 0.7 * np.array([1.0, 2.0, 3.0]) / math.sqrt(14))
    box = box_body("box", [0.5, 1.0, 1.5], [0.0, 0.0, 5.0], rotation=tilt, density=2.0)
    box.velocity = np.array([0.3, -0.2, 0.1])
    return World([box], {})


def state(world: World) -> list:
    return [world.time] + [array.tobytes() for body in world.bodies for array in
                           (body.position, body.velocity, body.rotation, body.angular_velocity)]


def test_a_force_for_one_step_changes_v_by_f_dt_over_m_and_x_by_f_dt2_over_2m():
    pushed, reference = free_box(), free_box()
    force = np.array([30.0, -12.0, 45.0])
    pushed.apply_force("box", force)
    pushed.step(DT)
    reference.step(DT)
    body, free = pushed.bodies[0], reference.bodies[0]
    mass = body.mass
    assert np.allclose(body.velocity - free.velocity, force * DT / mass, rtol=0, atol=1e-15)
    assert np.allclose(body.position - free.position, force * DT ** 2 / (2 * mass), rtol=0, atol=1e-15)
    assert np.array_equal(body.angular_velocity, free.angular_velocity)  # through the centre: no torque
    before = body.velocity.copy()
    pushed.step(DT)  # cleared: gravity alone
    assert np.array_equal(body.velocity, before + pushed.gravity * DT)


def test_a_force_at_an_offset_point_turns_the_body_by_its_torque_times_dt():
    world = free_box()
    body = world.bodies[0]
    force, offset = np.array([0.0, 40.0, 0.0]), np.array([0.5, 0.0, 0.2])
    inverse = body.inverse_inertia().copy()
    world.apply_force("box", force, body.position + offset)
    world.step(DT)
    assert np.allclose(body.angular_velocity, inverse @ np.cross(offset, force) * DT, rtol=1e-12, atol=0)


def test_forces_on_a_body_add_up():
    one, two = free_box(), free_box()
    one.apply_force("box", [2.0, 0.0, 0.0])
    one.apply_force("box", [0.0, 4.0, 0.0])
    two.apply_force("box", [2.0, 4.0, 0.0])
    one.step(DT)
    two.step(DT)
    assert state(one) == state(two)


def test_an_impulse_at_an_offset_point_spins_the_body_by_inverse_inertia_times_r_cross_j():
    world = free_box()
    body = world.bodies[0]
    impulse, offset = np.array([1.5, -2.0, 0.5]), np.array([0.4, 0.9, -1.2])
    velocity, inverse = body.velocity.copy(), body.inverse_inertia().copy()
    world.apply_impulse("box", impulse, body.position + offset)
    assert np.allclose(body.velocity, velocity + impulse / body.mass, rtol=0, atol=1e-15)
    assert np.allclose(body.angular_velocity, inverse @ np.cross(offset, impulse), rtol=1e-12, atol=0)


def kinematic_too() -> World:
    world = free_box()
    paddle = box_body("paddle", [1.0, 0.1, 0.1], [0.0, 5.0, 0.0])
    paddle.kinematic = True
    world.bodies.append(paddle)
    return world


@pytest.mark.parametrize("call, argument", [
    (lambda w: w.apply_force("box", [np.nan, 0.0, 0.0]), "force"),
    (lambda w: w.apply_force("box", [0.0, np.inf, 0.0]), "force"),
    (lambda w: w.apply_force("box", [1.0, 2.0]), "force"),
    (lambda w: w.apply_force("box", "up"), "force"),
    (lambda w: w.apply_force("box", [1.0, 0.0, 0.0], [0.0, np.nan, 0.0]), "point"),
    (lambda w: w.apply_force("box", [1.0, 0.0, 0.0], [[0.0, 0.0, 0.0]]), "point"),
    (lambda w: w.apply_force("nobody", [1.0, 0.0, 0.0]), "name"),
    (lambda w: w.apply_force("paddle", [1.0, 0.0, 0.0]), "name"),
    (lambda w: w.apply_impulse("box", [np.nan, 0.0, 0.0]), "impulse"),
    (lambda w: w.apply_impulse("box", [1.0, 0.0, 0.0], [np.inf, 0.0, 0.0]), "point"),
    (lambda w: w.apply_impulse("nobody", [1.0, 0.0, 0.0]), "name"),
    (lambda w: w.apply_impulse("paddle", [1.0, 0.0, 0.0]), "name"),
])
def test_a_bad_push_raises_naming_its_argument_and_leaves_the_world_as_it_was(call, argument):
    world, reference = kinematic_too(), kinematic_too()
    with pytest.raises(ValueError, match=f"^{argument}: "):
        call(world)
    assert state(world) == state(reference)
    world.step(DT)  # nothing was kept for the step either
    reference.step(DT)
    assert state(world) == state(reference)


def test_the_drag_spring_is_mass_scaled_and_damped_by_the_picked_points_velocity():
    ball = sphere_body("ball", [0.0, 0.0, 0.0], 0.5, density=3.0)
    ball.velocity = np.array([1.0, 0.0, 0.0])
    ball.angular_velocity = np.array([0.0, 0.0, 2.0])
    grab, target = np.array([0.5, 0.0, 0.0]), np.array([0.5, 1.0, 0.0])
    force, point = drive.drag_force(ball, grab, target)
    omega = 2 * math.pi * drive.DRAG_HERTZ
    moving = np.array([1.0, 1.0, 0.0])  # v + ω × r = (1, 0, 0) + (0, 2·0.5, 0)
    assert np.array_equal(point, grab)
    assert np.allclose(force, ball.mass * (omega ** 2 * np.array([0.0, 1.0, 0.0]) - 2 * omega * moving), rtol=1e-14)


def test_a_body_held_by_the_drag_spring_hangs_g_over_omega_squared_below_the_mouse():
    ball = sphere_body("ball", [0.0, 0.0, 1.0], 0.3)
    world = World([ball], {})
    target = np.array([1.0, 0.5, 2.0])
    for _ in range(180):  # 3 s: about six times the critically damped spring's settling time
        force, point = drive.drag_force(ball, np.zeros(3), target)
        world.apply_force("ball", force, point)
        world.step(DT)
    sag = 9.81 / (2 * math.pi * drive.DRAG_HERTZ) ** 2
    assert np.allclose(ball.position, target - [0.0, 0.0, sag], rtol=0, atol=1e-6)  # seen: within 1e-9
    assert np.linalg.norm(ball.velocity) <= 1e-6


@pytest.mark.parametrize("push", ["apply_force", "apply_impulse"])
def test_a_push_wakes_a_sleeping_body_at_once(push):
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([box], {"floor": Plane([0.0, 0.0, 1.0], 0.0)}, restitution=0.0, friction=0.5)
    for _ in range(60):  # 1 s: asleep after sleep.TIME_TO_SLEEP
        world.step(DT)
    assert box.asleep
    getattr(world, push)("box", [0.0, 0.0, 50.0])
    assert not box.asleep
