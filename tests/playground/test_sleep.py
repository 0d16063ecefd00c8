"""Bodies at rest read zero velocity, islands sleep and wake (``playground.sleep``)."""

import numpy as np
import pytest

from sweeplab.physics import Plane
from sweeplab.playground.sleep import SLEEP_SPEED, TIME_TO_SLEEP, islands
from sweeplab.playground.world import REST_GAP, World, box_body, sphere_body

FLOOR = {"floor": Plane([0.0, 0.0, 1.0], 0.0)}
DT = 1 / 64  # exact in binary: 32 steps are TIME_TO_SLEEP exactly


def test_a_resting_box_reads_zero_velocity_every_step_not_minus_g_dt_over_2():
    """Regression: a box resting on the floor read v = -g·dt/2 = -0.08175 m/s after every
    step (seen failing with ``_come_to_rest`` taken out)."""
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([box], FLOOR, restitution=0.0, allow_sleep=False)
    for _ in range(120):
        world.step(1 / 60)
        assert np.linalg.norm(box.velocity) <= 1e-14 and np.linalg.norm(box.angular_velocity) <= 1e-14
        assert abs(box.position[2] - 0.5) <= 1e-14


def test_a_resting_stack_reads_zero_velocity_and_stays_put():
    boxes = [box_body(f"box {i}", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5 + i]) for i in range(4)]
    world = World(boxes, FLOOR, restitution=0.0, allow_sleep=False)
    for _ in range(120):
        world.step(1 / 60)
    for i, box in enumerate(boxes):
        # the solve stops at SOLVER_RTOL (1e-13) of the impulses: ~4·m·g·dt at the bottom
        assert np.linalg.norm(box.velocity) <= 1e-13 and abs(box.position[2] - 0.5 - i) <= 1e-12


@pytest.mark.parametrize(("gap", "stopped"), [(0.5, True), (2.0, False)])
def test_the_end_of_step_rest_applies_within_rest_gap_only(gap, stopped):
    """A ball approaching the floor at the step's end is stopped there only when it is within
    REST_GAP of its reach (0.5 and 2 times the threshold)."""
    ball = sphere_body("ball", [0.0, 0.0, 0.5 + gap * REST_GAP * 0.5], 0.5)
    ball.velocity = np.array([0.0, 0.0, -1.0])
    world = World([ball], FLOOR, restitution=0.0)
    world._resting = {(0, "floor"): np.array([0.0, 0.0, 1.0])}
    world._come_to_rest()
    assert bool(ball.velocity[2] == 0.0) is stopped


def test_an_island_sleeps_after_time_to_sleep_still_and_not_a_step_before():
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([box], FLOOR, restitution=0.0)
    steps = round(TIME_TO_SLEEP / DT)
    for _ in range(steps - 1):
        world.step(DT)
    assert not box.asleep and box.still_for == TIME_TO_SLEEP - DT
    world.step(DT)
    assert box.asleep and box.still_for == TIME_TO_SLEEP
    assert box.velocity.tolist() == [0.0, 0.0, 0.0]
    before = box.position.copy()
    for _ in range(30):
        world.step(DT)
    assert box.asleep and box.position.tolist() == before.tolist()  # not moved by gravity while asleep


@pytest.mark.parametrize(("speed", "sleeps"), [(SLEEP_SPEED, True), (SLEEP_SPEED * (1 + 1e-9), False)])
def test_still_means_no_point_faster_than_sleep_speed(speed, sleeps):
    """A ball drifting in zero gravity at SLEEP_SPEED sleeps; a hair faster it never does."""
    ball = sphere_body("ball", [0.0, 0.0, 5.0], 0.5)
    ball.velocity = np.array([speed, 0.0, 0.0])
    world = World([ball], {}, gravity=np.zeros(3))
    for _ in range(40):
        world.step(DT)
    assert ball.asleep is sleeps


@pytest.mark.parametrize(("factor", "sleeps"), [(0.99, True), (1.01, False)])
def test_a_spin_counts_by_its_fastest_point(factor, sleeps):
    """|ω|·reach is the spin's speed bound: a box spinning in place just under SLEEP_SPEED
    at its farthest corner sleeps, just over does not."""
    box = box_body("box", [0.3, 0.2, 0.1], [0.0, 0.0, 5.0])
    box.angular_velocity = np.array([0.0, 0.0, factor * SLEEP_SPEED / box.reach()])
    world = World([box], {}, gravity=np.zeros(3))
    for _ in range(40):
        world.step(DT)
    assert box.asleep is sleeps


def test_a_body_touching_a_moving_one_stays_awake_and_one_apart_sleeps():
    """The island: a box with a ball sliding across it (no friction) does not sleep while the
    ball moves; a box resting alone beside them does."""
    base = box_body("base", [2.0, 2.0, 0.5], [0.0, 0.0, 0.5])
    ball = sphere_body("ball", [-1.5, 0.0, 1.25], 0.25)
    ball.velocity = np.array([0.5, 0.0, 0.0])
    alone = box_body("alone", [0.5, 0.5, 0.5], [10.0, 0.0, 0.5])
    world = World([base, ball, alone], FLOOR, restitution=0.0, friction=0.0)
    for _ in range(48):
        world.step(DT)
    assert alone.asleep and not base.asleep and not ball.asleep


def test_a_ball_dropped_on_a_sleeping_box_wakes_it_and_lands_on_it():
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([box], FLOOR, restitution=0.0)
    for _ in range(40):
        world.step(DT)
    assert box.asleep
    ball = sphere_body("ball", [0.0, 0.0, 2.0], 0.25, density=8.0)
    world.bodies.append(ball)
    woke = met = None
    for step in range(80):
        events = world.step(DT)
        if met is None and any(event.second == "box" or event.first == "box" for event in events):
            met = step
        if woke is None and not box.asleep:
            woke = step
        assert ball.position[2] >= 1.25 - 1e-9  # never into the box
    assert woke == met is not None  # woken by the contact, in its step
    assert abs(ball.position[2] - 1.25) <= 1e-9


def test_moving_or_pushing_a_sleeping_body_wakes_it():
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 2.5])
    shelf = box_body("shelf", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([box, shelf], FLOOR, restitution=0.0)
    for _ in range(200):
        world.step(DT)
    assert box.asleep and shelf.asleep and abs(box.position[2] - 1.5) <= 1e-9
    box.velocity = np.array([0.0, 0.0, 3.0])  # a user's assignment
    world.step(DT)
    assert not box.asleep and not shelf.asleep and box.position[2] > 1.5  # its island woke with it
    for _ in range(200):
        world.step(DT)
    assert box.asleep
    shelf.position = shelf.position + np.array([0.0, 0.0, 0.0])  # same pose: still asleep
    world.step(DT)
    assert shelf.asleep
    box.position = box.position + np.array([0.3, 0.0, 0.0])  # an edit moved it
    world.step(DT)
    assert not box.asleep


def test_wake_names_a_body_and_wakes_its_island():
    boxes = [box_body(f"box {i}", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5 + i]) for i in range(3)]
    world = World(boxes, FLOOR, restitution=0.0)
    for _ in range(40):
        world.step(DT)
    assert all(box.asleep for box in boxes)
    world.wake("box 2")
    assert not any(box.asleep for box in boxes)
    with pytest.raises(ValueError, match="name"):
        world.wake("nobody")


def test_allow_sleep_false_keeps_every_body_awake():
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([box], FLOOR, restitution=0.0, allow_sleep=False)
    for _ in range(100):
        world.step(DT)
    assert not box.asleep


def test_islands_join_linked_bodies_under_their_smallest_index():
    assert islands(6, [(4, 1), (1, 3), (5, 2)]) == [0, 1, 2, 1, 1, 2]
    assert islands(3, []) == [0, 1, 2]
