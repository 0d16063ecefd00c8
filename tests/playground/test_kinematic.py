"""Kinematic bodies (``Body.kinematic``): moved by their velocities alone, infinite mass
in every solve, swept against dynamic bodies only."""

import numpy as np
import pytest

from sweeplab.physics import Plane, sweep
from sweeplab.playground.world import World, box_body, sphere_body, turned

FLOOR = {"floor": Plane([0.0, 0.0, 1.0], 0.0)}
DT = 1 / 60


def kinematic(body):
    body.kinematic = True
    return body


@pytest.mark.parametrize("density", [1.0, 1e-6])
def test_a_kinematic_box_pushes_a_resting_box_along_the_floor_at_its_own_speed(density):
    """Whatever its own mass (a kinematic body's is infinite in every solve)."""
    pusher = kinematic(box_body("pusher", [0.5, 0.5, 0.5], [-1.5, 0.0, 0.5], density=density))
    pusher.velocity = np.array([1.0, 0.0, 0.0])
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([pusher, box], FLOOR, restitution=0.0, friction=0.5)
    for _ in range(120):  # 2 s: met after 0.5 s, then pushed 1.5 s against friction
        world.step(DT)
        assert box.position[0] - pusher.position[0] >= 1.0 - 1e-9  # never inside it
    assert np.array_equal(pusher.velocity, [1.0, 0.0, 0.0]) and pusher.position[2] == 0.5  # no gravity, never pushed
    assert abs(pusher.position[0] - 0.5) <= 1e-12
    assert abs(box.velocity[0] - 1.0) <= 1e-9 and abs(box.position[0] - 1.5) <= 1e-6  # seen: 1.5, 1e-16
    assert abs(box.position[2] - 0.5) <= 1e-9 and np.linalg.norm(box.angular_velocity) <= 1e-9  # flat, sliding


def test_without_ccd_a_kinematic_box_pushes_out_what_it_overlaps_and_keeps_its_path():
    """Overlaps are pushed out after the step: all of it onto the dynamic body."""
    pusher = kinematic(box_body("pusher", [0.5, 0.5, 0.5], [-1.5, 0.0, 0.5]))
    pusher.velocity = np.array([1.0, 0.0, 0.0])
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([pusher, box], FLOOR, restitution=0.0, friction=0.5, ccd=False)
    for step in range(1, 61):
        world.step(DT)
        assert pusher.position[1:].tolist() == [0.0, 0.5] and abs(pusher.position[0] - (-1.5 + step * DT)) <= 1e-12
    assert box.position[0] - pusher.position[0] >= 1.0 - 1e-9 and box.position[0] > 0.4  # pushed ~0.5 along


def test_a_fast_kinematic_box_meets_a_resting_box_where_it_reaches_it():
    """Was: the contact time's quadratic, ½(g·n)τ² + (v·n)τ = s·(chord·n), has a = ½g·n
    of the normal's tilt off horizontal against b = -60, and its root
    (-b - sqrt(b² - 4ac))/2a cancels: faces tilted 1e-12 met 22 mm early; at the 1e-17
    of a hull's rounding (the editor's boxes) the root was 0, and the box was struck at
    the step's start, 0.5 m before the pusher got there.  The stable root is 1/120 s."""
    tilt = turned(np.eye(3), np.array([0.0, 1e-12, 0.0]))  # the x faces 1e-12 off vertical
    pusher = kinematic(box_body("pusher", [0.5, 0.5, 0.5], [-1.5, 0.0, 0.5], rotation=tilt))
    pusher.velocity = np.array([60.0, 0.0, 0.0])
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5], rotation=tilt)
    world = World([box, pusher], FLOOR, restitution=0.0, friction=0.0)  # (with friction a 60 m/s blow tips it)
    world.step(DT)  # met half-way through the step, then carried
    assert abs(box.position[0] - pusher.position[0] - 1.0) <= 1e-9, box.position[0] - pusher.position[0]
    assert abs(box.velocity[0] - 60.0) <= 1e-9
    assert any(event.second == "pusher" and abs(event.time - DT / 2) <= 1e-12 for event in world.events)


@pytest.mark.parametrize("paddle_first", [True, False])
def test_a_turning_kinematic_paddle_hits_a_ball_without_overlap_at_any_step(paddle_first):
    paddle = kinematic(box_body("paddle", [1.0, 0.05, 0.2], [0.0, 0.0, 0.0]))
    paddle.angular_velocity = np.array([0.0, 0.0, 3.0])
    ball = sphere_body("ball", [0.7, 0.5, 0.0], 0.2)
    world = World([paddle, ball] if paddle_first else [ball, paddle], {}, restitution=0.5, friction=0.0,
                  gravity=np.zeros(3))
    for _ in range(30):  # 0.5 s: the arm meets the ball after ~0.1 s
        world.step(DT)
        found = sweep(ball.world_shape(), paddle.world_shape(), np.zeros(3))
        assert not found.initially_overlapping or found.penetration_depth <= 1e-9
    assert any({event.first, event.second} == {"paddle", "ball"} for event in world.events)
    assert np.array_equal(paddle.angular_velocity, [0.0, 0.0, 3.0]) and np.array_equal(paddle.position, np.zeros(3))
    assert np.linalg.norm(ball.velocity) > 1.0  # struck (seen: 3.7 m/s, both orders alike)


def test_a_kinematic_body_passes_through_static_shapes_and_kinematic_bodies():
    lift = kinematic(box_body("lift", [0.5, 0.5, 0.5], [0.0, 0.0, 0.6]))
    lift.velocity = np.array([0.0, 0.0, -3.0])
    other = kinematic(sphere_body("other", [0.0, 0.0, -1.0], 0.5))
    world = World([lift, other], FLOOR)
    for _ in range(60):
        world.step(DT)
    assert not world.events and abs(lift.position[2] - (0.6 - 3.0)) <= 1e-12 and other.position[2] == -1.0


def test_a_box_resting_on_a_rising_kinematic_platform_rides_it():
    platform = kinematic(box_body("platform", [2.0, 2.0, 0.25], [0.0, 0.0, 0.25]))
    platform.velocity = np.array([0.0, 0.0, 0.5])
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 1.0])
    world = World([platform, box], {}, restitution=0.0, friction=0.5)
    for _ in range(120):
        world.step(DT)
        assert box.position[2] - platform.position[2] >= 0.75 - 1e-9  # on it, never in it
    assert abs(box.position[2] - platform.position[2] - 0.75) <= 1e-9  # seen: 2.2e-16
    assert abs(platform.position[2] - (0.25 + 0.5 * 120 * DT)) <= 1e-12 and abs(box.position[0]) <= 1e-12


def pad(density: float = 1.0):
    """A still kinematic slab whose top face is z = 0."""
    return kinematic(box_body("pad", [3.0, 3.0, 0.5], [0.0, 0.0, -0.5], density=density))


@pytest.mark.parametrize("pad_first", [True, False])
def test_a_ball_bouncing_elastically_on_a_kinematic_pad_meets_it_at_the_exact_times(pad_first):
    """The contact time is solved on the ball's parabola relative to the pad, as against
    the floor: the n-th bounce at (2n + 1)·sqrt(2h/g).  (Taken at the chord's fraction,
    the first came 3.7e-5 s early.)"""
    ball = sphere_body("ball", [0.0, 0.0, 2.0], 0.5)
    world = World([pad(), ball] if pad_first else [ball, pad()], {}, restitution=1.0, friction=0.0)
    while len(world.events) < 3:
        world.step(DT)
    fall = np.sqrt(2 * 1.5 / 9.81)
    assert np.allclose([event.time for event in world.events], [fall, 3 * fall, 5 * fall], rtol=0, atol=1e-9)


@pytest.mark.parametrize("ceiling_first", [True, False])
def test_a_box_thrown_up_turning_meets_a_kinematic_ceiling_without_entering_it(ceiling_first, monkeypatch):
    """As test_turning's ceiling: gravity lifts the box off the chord the sweep follows
    (not the ceiling, which it does not pull), so a turning box met at the sweep's time
    is that much closer, and is pushed out before the contact is resolved."""
    inside = []
    resolve = World._resolve

    def spied(self, group, left, resting=frozenset()):
        box = next(body for body in self.bodies if body.name == "box")
        inside.append(float(np.asarray(box.world_shape().vertices)[:, 2].max()) - 2.0)
        return resolve(self, group, left, resting)

    monkeypatch.setattr(World, "_resolve", spied)
    for speed in (6.0, 7.0):
        box = box_body("box", [0.5, 0.3, 0.2], [0.0, 0.0, 0.0])
        box.velocity, box.angular_velocity = np.array([0.0, 0.0, speed]), np.array([4.0, 1.0, 0.0])
        ceiling = kinematic(box_body("ceiling", [3.0, 3.0, 0.25], [0.0, 0.0, 2.25]))
        world = World([ceiling, box] if ceiling_first else [box, ceiling], {}, restitution=0.0, friction=0.5)
        for _ in range(60):
            world.step(DT)
    assert len(inside) >= 2 and max(inside) <= 1e-6  # test_turning's DIP


def test_a_kinematic_body_slower_than_the_sleep_speed_keeps_moving():
    """Its velocity is its motion, not what the solver left: never put to sleep (and
    zeroed) while it moves, however slowly (0.01 m/s, under ``sleep.SLEEP_SPEED``)."""
    slow = kinematic(box_body("slow", [0.5, 0.5, 0.5], [0.0, 0.0, 0.0]))
    slow.velocity = np.array([0.01, 0.0, 0.0])
    world = World([slow], {})
    for _ in range(120):  # 2 s: four times sleep.TIME_TO_SLEEP
        world.step(DT)
    assert not slow.asleep and np.array_equal(slow.velocity, [0.01, 0.0, 0.0])
    assert abs(slow.position[0] - 0.02) <= 1e-12


def test_a_box_asleep_on_a_still_kinematic_pad_wakes_when_the_pad_moves():
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    platform = pad()
    world = World([platform, box], {}, restitution=0.0, friction=0.5)
    for _ in range(60):
        world.step(DT)
    assert box.asleep and platform.asleep
    platform.velocity = np.array([0.0, 0.0, 0.5])
    for _ in range(30):
        world.step(DT)
        assert box.position[2] - platform.position[2] >= 1.0 - 1e-9  # carried, never inside
    assert not box.asleep and abs(box.position[2] - (0.5 + 0.25)) <= 1e-9  # risen with the pad


@pytest.mark.parametrize("joint", ["ball", "spring"])
def test_a_kinematic_body_drags_a_jointed_body_and_keeps_its_own_path(joint):
    """Infinite mass in the joints' solve too: the joint moves the dynamic end only."""
    from sweeplab.playground.joints import BallJoint, Spring

    carrier = kinematic(box_body("carrier", [0.2, 0.2, 0.2], [0.0, 0.0, 2.0]))
    carrier.velocity = np.array([2.0, 0.0, 0.0])
    ball = sphere_body("ball", [0.0, 0.0, 1.0], 0.2)
    world = World([carrier, ball], {}, restitution=0.0, friction=0.5)
    world.add_joint(BallJoint("carrier", "ball", np.array([0.0, 0.0, 1.5])) if joint == "ball" else
                    Spring("carrier", "ball", np.array([0.0, 0.0, 2.0]), np.array([0.0, 0.0, 1.0]), 1.0, 200.0, 5.0))
    for step in range(1, 61):
        world.step(DT)
        assert np.array_equal(carrier.velocity, [2.0, 0.0, 0.0]) and not np.any(carrier.angular_velocity)
        assert abs(carrier.position[0] - 2.0 * step * DT) <= 1e-12 and carrier.position[2] == 2.0
    assert ball.position[0] > 1.0  # dragged along
