"""Contact callbacks (begin / persist / end) and the pair filter (``playground.callbacks``)."""

import math

import numpy as np
import pytest

from sweeplab.physics import Plane
from sweeplab.playground.world import World, box_body, sphere_body

FLOOR = {"floor": Plane([0.0, 0.0, 1.0], 0.0)}
DT = 1 / 60


def recording(world: World) -> list[tuple[str, str, str, float]]:
    calls: list[tuple[str, str, str, float]] = []
    world.on_begin = lambda pair: calls.append(("begin", pair.first, pair.second, pair.impulse))
    world.on_persist = lambda pair: calls.append(("persist", pair.first, pair.second, pair.impulse))
    world.on_end = lambda pair: calls.append(("end", pair.first, pair.second, pair.impulse))
    return calls


def test_a_landing_begins_once_persists_every_step_and_ends_when_lifted():
    ball = sphere_body("ball", [0.0, 0.0, 1.0], 0.5)
    world = World([ball], FLOOR, restitution=0.0, allow_sleep=False)
    calls = recording(world)
    steps = 0
    while not calls:
        world.step(DT)
        steps += 1
    assert calls == [("begin", "ball", "floor", calls[0][3])] and calls[0][3] > 0
    for _ in range(10):
        world.step(DT)
    assert [call[0] for call in calls] == ["begin"] + ["persist"] * 10
    ball.velocity = np.array([0.0, 0.0, 5.0])
    world.step(DT)
    assert calls[-1] == ("end", "ball", "floor", 0.0)


def test_bounces_begin_and_end_alternately_one_pair_each():
    ball = sphere_body("ball", [0.0, 0.0, 2.0], 0.5)
    world = World([ball], FLOOR, restitution=1.0, friction=0.0)
    calls = recording(world)
    for _ in range(300):
        world.step(DT)
    kinds = [call[0] for call in calls]
    assert kinds[:6] == ["begin", "end"] * 3 and "persist" not in kinds
    assert kinds.count("begin") == len(world.events)  # one per bounce


def test_a_sleeping_pair_stays_in_contact_silently():
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([box], FLOOR, restitution=0.0)
    calls = recording(world)
    for _ in range(60):
        world.step(DT)
    assert box.asleep
    count = len(calls)
    for _ in range(30):
        world.step(DT)
    assert len(calls) == count and calls[0][0] == "begin" and "end" not in [call[0] for call in calls]


def test_a_filtered_pair_never_collides_and_others_still_do():
    ball = sphere_body("ball", [0.0, 0.0, 1.0], 0.5)
    box = box_body("box", [0.5, 0.5, 0.5], [3.0, 0.0, 1.0])
    world = World([ball, box], FLOOR, restitution=0.0, pair_filter=lambda first, second: first != "ball")
    for _ in range(60):
        world.step(DT)
    assert ball.position[2] < -1.0 and abs(box.position[2] - 0.5) <= 1e-9  # through the floor; the box rests
    assert {event.first for event in world.events} == {"box"}


def test_filtering_a_resting_pair_ends_it_and_the_body_falls():
    ball = sphere_body("ball", [0.0, 0.0, 0.5], 0.5)
    world = World([ball], FLOOR, restitution=0.0, allow_sleep=False)
    calls = recording(world)
    for _ in range(5):
        world.step(DT)
    world.pair_filter = lambda first, second: second != "floor"
    world.step(DT)
    world.step(DT)
    assert ("end", "ball", "floor", 0.0) in calls and ball.position[2] < 0.5


def test_two_bodies_can_be_filtered_as_a_pair():
    lower = box_body("lower", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    upper = box_body("upper", [0.5, 0.5, 0.5], [0.0, 0.0, 2.0])
    world = World([lower, upper], FLOOR, restitution=0.0,
                  pair_filter=lambda first, second: {first, second} != {"lower", "upper"})
    for _ in range(60):
        world.step(DT)
    assert abs(upper.position[2] - 0.5) <= 1e-9  # through the lower box, onto the floor


@pytest.mark.parametrize("dt", [0.0, -1 / 60, math.nan, math.inf, "1/60"])
def test_a_bad_step_is_refused_and_the_world_left_as_it_was(dt):
    ball = sphere_body("ball", [0.0, 0.0, 1.0], 0.5)
    world = World([ball], FLOOR)
    with pytest.raises(ValueError, match="dt"):
        world.step(dt)
    assert world.time == 0.0 and ball.position.tolist() == [0.0, 0.0, 1.0]


def test_the_impulse_reported_is_the_steps_total_for_the_pair():
    """A box dropped tilted and spinning meets the floor more than once within some steps
    (an edge, then a corner or its face): the callback reports the sum of those impulses."""
    tilt = np.radians(30.0)
    turn = np.array([[1.0, 0.0, 0.0], [0.0, np.cos(tilt), -np.sin(tilt)], [0.0, np.sin(tilt), np.cos(tilt)]])
    box = box_body("box", [0.5, 0.3, 0.2], [0.0, 0.0, 1.5], rotation=turn)
    box.angular_velocity = np.array([4.0, 1.0, 0.0])
    world = World([box], FLOOR, restitution=0.5, friction=0.5)
    reported: list[float] = []
    world.on_begin = world.on_persist = lambda pair: reported.append(pair.impulse)
    several = 0
    for _ in range(120):
        reported.clear()
        events = world.step(DT)
        if len(events) >= 2:
            several += 1
            assert reported == [sum(event.impulse for event in events)]
    assert several > 0


def test_the_tracker_keeps_a_sleeping_pair_only_if_it_was_in_contact():
    from sweeplab.playground.callbacks import ContactPair, ContactTracker

    tracker = ContactTracker()
    calls = []
    tracker.update({}, {("a", "floor")}, calls.append, calls.append, calls.append)
    assert tracker.in_contact == {} and calls == []
    contact = ContactPair("a", "floor", np.zeros(3), np.array([0.0, 0.0, 1.0]), 2.0)
    tracker.update({("a", "floor"): contact}, set(), calls.append, None, None)
    tracker.update({}, {("a", "floor")}, calls.append, calls.append, calls.append)
    assert tracker.in_contact == {("a", "floor"): contact} and calls == [contact]


def test_filtering_a_resting_pair_of_bodies_lets_the_upper_fall_through():
    """A ball resting on a box on the floor: once the filter refuses (ball, box), the box's
    own contact with the floor must not carry the old pair along (it held the ball up)."""
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    ball = sphere_body("ball", [0.0, 0.0, 1.25], 0.25)
    world = World([box, ball], FLOOR, restitution=0.0, allow_sleep=False)
    for _ in range(10):
        world.step(DT)
    assert abs(ball.position[2] - 1.25) <= 1e-9
    world.pair_filter = lambda first, second: {first, second} != {"box", "ball"}
    for _ in range(30):
        world.step(DT)
    assert abs(ball.position[2] - 0.25) <= 1e-9  # through the box, resting on the floor
