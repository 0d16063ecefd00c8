"""The playground's recorded frames in the editor (#36): any frame shown (the world
sent back to it), drawn with its contacts, and any frame's step saved as a fixture."""

import warnings

import numpy as np
import pytest

from sweeplab.cli import example_scenes
from sweeplab.editor import Editor
from sweeplab.playground.joints import BallJoint
from sweeplab.playground.recorder import Recorder
from sweeplab.playground.run import PlaygroundRun
from sweeplab.scene.fixture import load_fixture, run_fixture
from sweeplab.scene.model import load
from sweeplab.view.frame import (ARROW, BROKEN_AT, FRAME_CONTACT, FRAME_IMPULSE, JOINT_BROKEN, JOINT_HELD,
                                 joint_colour, with_frame_contacts, with_joint_errors)
from sweeplab.view.model import ViewModel

DT = 1 / 60


def running(steps: int, dynamic=("crate", "log"), ccd: bool = True) -> Editor:
    editor = Editor(load(example_scenes()["playground"]))
    editor.start_playground(set(dynamic), restitution=0.3, friction=0.5, ccd=ccd)
    for _ in range(steps):
        editor.playground_step(DT)
    return editor


def test_seeking_shows_the_frames_scene_and_stepping_from_it_replays():
    editor = running(40)
    run = editor.playground
    at_40 = editor.scene.to_json()
    at_25 = run.frame_scene(25).to_json()  # (the world untouched)
    assert run.recorder.position == 40 and editor.scene.to_json() == at_40
    editor.playground_seek(25)
    assert editor.scene.to_json() == at_25 != at_40 and run.world.time == run.recorder.frame(25).time
    for _ in range(15):
        editor.playground_step(DT)
    assert editor.scene.to_json() == at_40 and run.recorder.last == 40
    assert not editor.dirty and not editor.history.can_undo()  # frames are not edits


@pytest.mark.parametrize("index", [-1, 41, 3.5])
def test_seeking_a_frame_not_recorded_says_so_and_keeps_the_scene(index):
    editor = running(40)
    shown = editor.scene.to_json()
    editor.playground_seek(index)
    assert "is not a recorded frame (frames 0 to 40)" in editor.message
    assert editor.scene.to_json() == shown and editor.playground.recorder.position == 40


def test_the_tunnelling_frame_saves_as_a_fixture_after_the_run_went_on(tmp_path):
    """CCD off: the ball passes the thin wall in one step; 20 steps later, the frame
    of that step saved is the same fixture as saved at the time."""
    editor = running(0, dynamic=(), ccd=False)
    crossed = None
    while crossed is None:
        before = editor.scene.object("ball").params["center"][0]
        editor.playground_step(DT)
        if before < 1.0 < editor.scene.object("ball").params["center"][0]:
            crossed = editor.playground.recorder.position
    at_the_time = load_fixture(editor.save_step_fixture("ball", tmp_path, "then"))
    for _ in range(20):
        editor.playground_step(DT)
    later = load_fixture(editor.save_step_fixture("ball", tmp_path, "later", frame=crossed))
    assert later.scene.to_json() == at_the_time.scene.to_json()
    assert later.expected["thin wall"]["hit"]["value"] is True and run_fixture(later).passed
    assert editor.playground.recorder.position == crossed + 20  # saving moves nothing


@pytest.mark.parametrize("frame, said", [(0, "no step of ball into frame 0"), (99, "index 99 is not a recorded")])
def test_a_frame_with_no_step_saves_nothing_and_says_why(tmp_path, frame, said):
    editor = running(3)
    assert editor.save_step_fixture("ball", tmp_path, "none", frame=frame) is None
    assert said in editor.message and not list(tmp_path.iterdir())


def test_the_view_draws_the_shown_frames_contacts():
    editor = running(0)
    while not editor.playground.recorder.frame(editor.playground.recorder.position).events:
        editor.playground_step(DT)
    events = editor.playground.recorder.frame(editor.playground.recorder.position).events
    view = editor.view()
    marked = [batch for batch in view.points if batch.color == FRAME_CONTACT]
    assert len(marked) == 1 and np.array_equal(marked[0].positions, [e.point for e in events])
    editor.playground_step(DT)
    editor.playground_seek(0)  # frame 0: no step, no contacts
    assert not [batch for batch in editor.view().points if batch.color == FRAME_CONTACT]


def test_impulse_arrows_are_the_largest_at_the_arrow_length_and_the_rest_in_proportion():
    """Three contacts carrying 2, 1 and 0: arrows of 1.5 and 0.75 scene lengths (the
    shaft), none for the third (its point alone)."""
    points = np.array([[0.0, 0, 0], [1.0, 0, 0], [2.0, 0, 0]])
    normals = np.array([[0.0, 0, 1], [0.0, 1, 0], [1.0, 0, 0]])
    view = with_frame_contacts(ViewModel(), points, normals, [2.0, 1.0, 0.0], 2.0)
    arrows = view.lines[-1]
    assert arrows.color == FRAME_IMPULSE and len(arrows.segments) == 10  # two arrows of five segments
    shafts = arrows.segments[::5]
    np.testing.assert_allclose(shafts[:, 1] - shafts[:, 0], [[0, 0, ARROW * 2.0], [0, ARROW * 1.0, 0]])
    assert np.array_equal(view.points[-1].positions, points)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no 0/0 for a frame whose contacts took nothing)
        nothing = with_frame_contacts(ViewModel(), points, normals, np.zeros(3), 2.0)
    assert len(nothing.lines[-1].segments) == 0 and len(nothing.points[-1].positions) == 3
    empty = ViewModel()
    assert with_frame_contacts(empty, np.zeros((0, 3)), np.zeros((0, 3)), [], 1.0) is empty


def test_the_same_view_at_another_frame_draws_that_frames_contacts():
    """The frame overlay is kept per view and frame: two frames whose scenes draw alike
    (the view kept) still show their own contacts."""
    editor = running(0)
    run = editor.playground
    while not run.recorder.frame(run.recorder.position).events:
        editor.playground_step(DT)
    plain = ViewModel()
    with_contacts = editor.with_playground_frame(plain)
    assert editor.with_playground_frame(plain) is with_contacts  # kept
    run.seek(0)  # (the world only: the editor's view is not rebuilt)
    assert editor.with_playground_frame(plain) is plain


def test_the_step_into_the_oldest_kept_frame_has_no_scene_to_start_from():
    """With the frames before it dropped for the budget, the oldest kept frame's step
    has no frame to begin at: None, and the next frame's step is there."""
    run = PlaygroundRun(load(example_scenes()["playground"]), {"crate"})
    run.recorder = Recorder(run.world, run.recorder.frame(0).nbytes * 3)  # two or three frames
    for _ in range(6):
        run.step(DT)
    first = run.recorder.first
    assert first > 0 and run.step_scene("ball", first) is None and run.step_scene("ball", first + 1) is not None


@pytest.mark.parametrize("error, share", [(0.0, 0.0), (BROKEN_AT / 2, 0.5), (BROKEN_AT * (1 - 1e-6), 1 - 1e-6),
                                          (BROKEN_AT, 1.0), (BROKEN_AT * (1 + 1e-6), 1.0), (1.0, 1.0)])
def test_a_joints_colour_goes_from_held_to_broken_at_broken_at(error, share):
    expected = [(1 - share) * h + share * b for h, b in zip(JOINT_HELD, JOINT_BROKEN, strict=True)]
    np.testing.assert_allclose(joint_colour(error), expected, rtol=1e-12)
    assert (joint_colour(error) == JOINT_BROKEN) == (share == 1.0)


def test_each_joint_is_a_segment_between_its_anchors_in_its_colour():
    ends = np.array([[[0.0, 0, 0], [1.0, 0, 0]], [[0.0, 1, 0], [0.0, 1, 1]]])
    view = with_joint_errors(ViewModel(), ends, [0.0, 1.0])
    assert [batch.color for batch in view.lines] == [JOINT_HELD, JOINT_BROKEN]
    assert all(np.array_equal(batch.segments[0], segment) for batch, segment in zip(view.lines, ends, strict=True))
    empty = ViewModel()
    assert with_joint_errors(empty, np.zeros((0, 2, 3)), []) is empty


def test_the_view_draws_the_shown_frames_joints():
    """A joint added to the run (amended into the frame it starts from) is drawn at each
    frame between its anchors there, in its error's colour."""
    editor = running(0)
    run = editor.playground
    crate = next(body for body in run.world.bodies if body.name == "crate")
    run.world.add_joint(BallJoint("crate", None, crate.position + np.array([0.0, 0.0, 0.5])))
    editor.playground_step(DT)
    kept = run.recorder.frame(1).joints
    assert len(kept) == 1 and len(run.recorder.frame(0).joints) == 1
    drawn = [batch for batch in editor.with_playground_frame(ViewModel()).lines
             if batch.color == joint_colour(kept[0].error)]
    assert len(drawn) == 1 and np.array_equal(drawn[0].segments[0], kept[0].ends)
