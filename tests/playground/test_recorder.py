"""The frame recorder (``playground.recorder``): frames within the memory budget
(at, just inside and just outside it), seeking, and determinism: a world sent back to
a frame replays the rest bit for bit, and the same scene built twice runs the same."""

import numpy as np
import pytest

from sweeplab.playground.joints import DistanceJoint
from sweeplab.playground.recorder import Recorder
from sweeplab.playground.state import array_bytes
from sweeplab.playground.world import World, box_body, sphere_body
from tests.playground.test_state import DT, FLOOR, box_and_ball, floats


def recorded(steps: int, budget_bytes: int = 2 ** 30) -> Recorder:
    recorder = Recorder(box_and_ball(), budget_bytes)
    stepped(recorder, steps)
    return recorder


def stepped(recorder: Recorder, steps: int) -> list:
    """``steps`` steps of the recorder's world, each recorded: its floats after each."""
    after = []
    for _ in range(steps):
        recorder.world.step(DT)
        recorder.record()
        after.append(floats(recorder.world))
    return after


def test_seeking_back_replays_the_rest_bit_for_bit():
    """300 steps, back to frame 100, 200 steps again: every float of every frame the same."""
    recorder = recorded(0)
    world = recorder.world
    first_run = stepped(recorder, 300)
    assert world.contact_count > 100  # bounces, landings and a resting stack: warm starts in play
    recorder.seek(100)
    assert floats(world)[:-1] == first_run[99][:-1]  # (the stats are the step's, kept too)
    assert len(recorder.frames) == 301 and recorder.position == 100
    assert stepped(recorder, 200) == first_run[100:] and recorder.last == 300


def test_the_same_scene_and_settings_built_twice_run_identically():
    runs = []
    for _ in range(2):
        world = box_and_ball()
        runs.append([])
        for _ in range(120):
            world.step(DT)
            runs[-1].append(floats(world))
    assert runs[0] == runs[1]


def test_a_frames_events_are_what_its_step_returned():
    recorder = recorded(0)
    returned_by_step = []
    for _ in range(90):
        returned_by_step.append(recorder.world.step(DT))
        recorder.record()
    assert sum(map(len, returned_by_step)) > 10
    for index, events in enumerate(returned_by_step, start=1):
        frame = recorder.frame(index)
        assert list(frame.events) == events and frame.stats.contacts == len(events)
    assert recorder.frame(0).events == () and recorder.frame(0).time == 0.0


def test_seeking_forward_brings_the_event_log_back():
    recorder = recorded(60)
    log, at_60 = list(recorder.world.events), floats(recorder.world)
    recorder.seek(10)
    assert recorder.world.events == log[:recorder.frame(10).state.world["contact_count"]] != log
    recorder.seek(60)
    assert recorder.world.events == log and floats(recorder.world) == at_60


def test_recording_after_a_seek_drops_the_later_branch():
    recorder = recorded(20)
    recorder.seek(5)
    recorder.world.step(DT)
    frame = recorder.record()
    assert frame.index == 6 and recorder.last == 6 and len(recorder.frames) == 7
    assert recorder.nbytes == sum(f.nbytes for f in recorder.frames)


@pytest.mark.parametrize("slack, kept", [(-1, 4), (0, 5), (1, 5)])
def test_the_budget_keeps_the_newest_frames_that_fit(slack, kept):
    """The bytes of the newest five frames as the budget: all five kept; a byte less:
    the oldest of them dropped too; a byte more: still five."""
    sizes = [frame.nbytes for frame in recorded(12).frames]
    recorder = recorded(12, sum(sizes[-5:]) + slack)
    assert len(recorder.frames) == kept and recorder.first == 13 - kept and recorder.dropped == 13 - kept
    assert recorder.nbytes == sum(sizes[-kept:]) <= recorder.budget_bytes
    assert [f.index for f in recorder.frames] == list(range(13 - kept, 13))
    with pytest.raises(ValueError, match="index 0 is not a recorded frame"):
        recorder.seek(0)


def test_a_budget_below_one_frame_keeps_the_newest():
    recorder = recorded(3, 1)
    assert [f.index for f in recorder.frames] == [3] and recorder.dropped == 3


def test_a_frame_measures_its_arrays():
    """A frame holds each body's five arrays (position, velocity, rotation, angular
    velocity, inertia: 27 floats and an array header each) and its events'."""
    recorder = recorded(60)
    quiet = recorder.frame(1)
    assert quiet.events == () and quiet.nbytes > 2 * (27 * 8 + 5 * array_bytes(np.empty(0)))
    busy = max(recorder.frames, key=lambda frame: len(frame.events))
    assert busy.nbytes - busy.state.nbytes > len(busy.events) * 2 * array_bytes(np.empty(3))


@pytest.mark.parametrize("index", [-1, 4, 2.0, True, "1"])
def test_seek_outside_the_frames_is_a_value_error_and_changes_nothing(index):
    recorder = recorded(3)
    before = floats(recorder.world)
    with pytest.raises(ValueError, match=r"index .* is not a recorded frame \(frames 0 to 3\)"):
        recorder.seek(index)
    with pytest.raises(ValueError, match="is not a recorded frame"):
        recorder.frame(index)
    assert floats(recorder.world) == before and recorder.position == 3


def test_a_recorder_of_something_else_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="world must be a playground World, not dict"):
        Recorder({})  # type: ignore[arg-type]


@pytest.mark.parametrize("budget", [0, -5, 1.5, True, None])
def test_a_bad_budget_is_a_value_error_naming_it(budget):
    with pytest.raises(ValueError, match="budget_bytes must be a positive whole number"):
        Recorder(World([sphere_body("ball", [0.0, 0.0, 1.0], 0.5)], FLOOR), budget)


def resting_box_stats() -> list:
    """The stats of 40 steps of a box resting on the floor (asleep from step 31: 0.5 s still)."""
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    recorder = Recorder(World([box], FLOOR))
    stepped(recorder, 40)
    assert box.asleep
    return [recorder.frame(i).stats for i in range(41)]


def test_stats_of_a_sleeping_box_are_one_stretch_with_nothing_swept_or_solved():
    stats = resting_box_stats()
    assert all(s.contacts == 1 and s.solver_iterations > 0 for s in stats[2:31])
    assert all((s.substeps, s.sweeps, s.solver_iterations, s.contacts) == (1, 0, 0, 0) for s in stats[32:])


def test_stats_of_a_resting_box_are_a_short_solve():
    assert all(s.solver_iterations <= 2 for s in resting_box_stats()[2:31])


def test_an_edit_between_steps_amended_into_its_frame_replays():
    """A velocity set between steps 20 and 21: without ``amend`` frame 20 would not
    hold it and a seek there would replay another run; amended, it replays bit for bit."""
    recorder = recorded(20)
    world = recorder.world
    world.bodies[1].velocity = world.bodies[1].velocity + np.array([0.0, 0.7, 0.0])
    amended = recorder.amend()
    assert amended.index == 20 and amended.time == world.time and len(recorder.frames) == 21
    assert recorder.nbytes == sum(f.nbytes for f in recorder.frames)
    run = stepped(recorder, 15)
    recorder.seek(20)
    assert world.bodies[1].velocity[1] == amended.state.objects[1][1]["velocity"][1] != 0
    assert stepped(recorder, 15) == run


def test_amend_after_a_seek_drops_the_later_frames():
    recorder = recorded(10)
    recorder.seek(4)
    recorder.amend()
    assert recorder.last == 4 and recorder.nbytes == sum(f.nbytes for f in recorder.frames)


def pendulum() -> World:
    """A ball on a rod from a pivot at (0, 0, 2), let go level with it."""
    bob = sphere_body("bob", [1.0, 0.0, 2.0], 0.1)
    world = World([bob], {})
    world.add_joint(DistanceJoint("bob", None, bob.position.copy(), np.array([0.0, 0.0, 2.0])))
    return world


def test_a_frame_keeps_each_joints_error_and_anchors_and_a_seek_replays_the_joint():
    recorder = Recorder(pendulum())
    world = recorder.world
    swing = stepped(recorder, 20)
    joint = world.joints[0]
    kept = recorder.frame(20).joints
    assert len(kept) == 1 and (kept[0].first, kept[0].second) == ("bob", None)
    assert kept[0].error == world.joint_errors()[joint] and np.array_equal(
        kept[0].ends, np.array(joint.anchors(*world.joint_bodies(joint))))
    assert recorder.frame(0).joints[0].error == 0.0 and len(joint.impulse)
    recorder.seek(5)  # the joint's accumulated impulses (its warm start) go back too
    assert stepped(recorder, 15) == swing[5:]
