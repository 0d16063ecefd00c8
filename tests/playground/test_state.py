"""A world's snapshot and restore (``playground.state``): every field a step reads or
writes captured, the world continued bit for bit from a restore, and a field the state
does not know failing here rather than going unrecorded."""

from dataclasses import dataclass, fields

import numpy as np
import pytest

from sweeplab.playground.state import DERIVED, LOG, captured_fields
from sweeplab.playground.world import Body, World, box_body, sphere_body
from sweeplab.physics import Plane

FLOOR = {"floor": Plane([0.0, 0.0, 1.0], 0.0)}
DT = 1 / 60


def box_and_ball() -> World:
    """A box dropped onto the floor and a ball bouncing on it, rolling off its top
    face: resting pairs, warm starts, the box turning (~3 ms a step)."""
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.7])
    ball = sphere_body("ball", [0.2, 0.1, 2.0], 0.3)
    ball.velocity = np.array([0.3, 0.0, 0.0])
    return World([box, ball], FLOOR, restitution=0.4, friction=0.6)


def floats(world: World) -> list:
    """Every number of the world's state (stats' CPU time aside), for exact comparison."""
    body_floats = [np.concatenate([b.position, b.velocity, b.rotation.ravel(), b.angular_velocity])
                   for b in world.bodies]
    warm = sorted((pair, tuple(np.concatenate([a.ravel() for a in impulses])))
                  for pair, impulses in world._warm.items())
    resting = sorted((pair, tuple(normal)) for pair, normal in world._resting.items())
    stats = world.last_stats
    return [np.concatenate(body_floats).tolist(), warm, resting, world.time, world.contact_count,
            (stats.substeps, stats.sweeps, stats.solver_iterations, stats.contacts)]


def test_every_field_of_world_and_body_is_captured_or_named_as_log_or_cache():
    """A field added to ``World`` or ``Body`` is captured (``capture`` copies it or
    raises TypeError for a type it cannot) unless named here: a new one shows up."""
    world = box_and_ball()
    assert set(captured_fields(world)) == {f.name for f in fields(World)} - LOG - DERIVED["World"]
    assert LOG == {"events"} and DERIVED["World"] == {"_slots", "_static_boxes"}
    assert set(captured_fields(world.bodies[0])) | DERIVED["Body"] == {f.name for f in fields(Body)}
    assert DERIVED["Body"] == {"_pose", "_posed", "_inverse_key", "_inverse", "_reach"}
    state = world.snapshot()
    assert set(state.world) == set(captured_fields(world))
    assert {id(instance) for instance, _ in state.objects} == {id(body) for body in world.bodies} | {
        id(world._contacts)}  # (the callbacks' tracker, by its attributes)


def test_a_field_of_a_type_the_state_does_not_know_raises_naming_it():
    class Opaque:
        pass

    world = box_and_ball()
    world.ccd = Opaque()  # type: ignore[assignment]
    with pytest.raises(TypeError, match="World.ccd holds a Opaque"):
        world.snapshot()


def test_a_mutable_dataclass_is_captured_with_its_fields_and_restored_in_place():
    """What joints will be: a mutable object the world holds, restored into the same
    object (a joint held elsewhere stays the world's)."""
    @dataclass
    class Accumulated:
        impulse: np.ndarray

    world = box_and_ball()
    held = Accumulated(np.array([1.0, 2.0]))
    world.gravity = [world.gravity, held]  # type: ignore[assignment]  (any field reaching one)
    state = world.snapshot()
    held.impulse[0] = 5.0
    held.impulse = np.zeros(2)
    world.restore(state)
    assert world.gravity[1] is held and held.impulse.tolist() == [1.0, 2.0]


def test_a_restored_world_continues_bit_for_bit():
    world = box_and_ball()
    for _ in range(40):
        world.step(DT)
    assert world._warm and world._resting  # the state has warm starts and resting pairs to keep
    state = world.snapshot()
    bodies = list(world.bodies)
    for _ in range(30):
        world.step(DT)
    after = floats(world)
    events = [(e.first, e.second, e.time, e.impulse) for e in world.events]
    world.restore(state)
    assert world.bodies == bodies and all(a is b for a, b in zip(world.bodies, bodies, strict=True))
    assert len(world.events) == state.world["contact_count"]  # the later events dropped from the log
    for _ in range(30):
        world.step(DT)
    assert floats(world) == after
    assert [(e.first, e.second, e.time, e.impulse) for e in world.events] == events


def test_a_state_can_be_restored_twice_and_does_not_follow_the_world():
    world = box_and_ball()
    world.step(DT)
    state = world.snapshot()
    first = floats(world)
    for _ in range(5):
        world.step(DT)
    world.restore(state)
    world.bodies[0].position[0] += 1.0  # in place: must not reach the state
    world.restore(state)
    assert floats(world) == first


def test_restore_resets_the_bodies_cached_poses():
    world = box_and_ball()
    body = world.bodies[1]
    state = world.snapshot()
    world.step(DT)
    body.world_shape(), body.inverse_inertia()
    world.restore(state)
    assert body._pose == () and body._posed is None and body._inverse_key == ()
    assert np.array_equal(np.asarray(body.world_shape().center), [0.2, 0.1, 2.0])


def test_step_stats_count_the_steps_work():
    """A ball falling free far above the floor: one stretch, no sweep (the broadphase
    finds no pair), no solve.  Landing: two stretches (to the contact, then the rest),
    two pair sweeps, two solver passes (the second sees no change), one contact."""
    ball = sphere_body("ball", [0.0, 0.0, 2.0], 0.5)
    world = World([ball], FLOOR)
    world.step(DT)
    stats = world.last_stats
    assert (stats.substeps, stats.sweeps, stats.solver_iterations, stats.contacts) == (1, 0, 0, 0)
    assert stats.cpu_seconds >= 0
    while not world.events:
        world.step(DT)
    stats = world.last_stats
    assert (stats.substeps, stats.sweeps, stats.solver_iterations, stats.contacts) == (2, 2, 2, 1)


@pytest.mark.parametrize("bad, said", [(None, "state must be a WorldState"), ({}, "state must be a WorldState"),
                                       ("other", "state is a snapshot of another world")])
def test_restoring_what_is_not_this_worlds_state_is_a_value_error_and_changes_nothing(bad, said):
    world = box_and_ball()
    world.step(DT)
    if bad == "other":
        bad = box_and_ball().snapshot()
    before = floats(world)
    with pytest.raises(ValueError, match=said):
        world.restore(bad)
    assert floats(world) == before


def test_contact_callbacks_after_a_restore_are_those_after_the_snapshot():
    """The callbacks' pairs in contact are state: restored into the landing step, the
    ball's contact begins again (not persists), as it did the first time."""
    calls = []
    world = box_and_ball()
    world.on_begin = lambda pair: calls.append(("begin", pair.first, pair.second))
    world.on_persist = lambda pair: calls.append(("persist", pair.first, pair.second))
    world.on_end = lambda pair: calls.append(("end", pair.first, pair.second))
    state = world.snapshot()
    for _ in range(40):
        world.step(DT)
    first = list(calls)
    assert ("begin", "box", "floor") in first and ("persist", "box", "floor") in first
    calls.clear()
    world.restore(state)
    for _ in range(40):
        world.step(DT)
    assert calls == first
