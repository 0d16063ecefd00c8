"""Lessons that run the playground (#37): a step's ``"playground"`` (validated, started
and run when the step is shown, reset when another step is), lesson 11's tunnelling step
saved as a fixture, lesson 12's corner impulse from the live run."""

import json

import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.playground.seed_impulse import first_impulse
from sweeplab.playground.tunnelling import passing_step
from sweeplab.scene.fixture import load_fixture, run_fixture
from sweeplab.scene.model import load
from sweeplab.view import lessons as lesson_files
from sweeplab.view.lesson_playground import MAX_STEPS, PlaygroundSetup
from sweeplab.view.lessons import LessonError, bundled_lessons, lesson_from_json
from tests.app.test_hostile_files import changed

LESSONS = {lesson.number: lesson for lesson in bundled_lessons()[0]}
TUNNEL = json.loads((lesson_files.lesson_folder() / "11-tunnel.json").read_text())
FIXTURE = "tests/fixtures/playground_ball_tunnels_a_thin_wall_with_ccd_off.json"


def lesson_editor(number: int, step: int) -> Editor:
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(LESSONS[number])
    editor.show_step(step)
    return editor


def test_a_step_reads_its_playground_run_with_defaults():
    assert LESSONS[11].steps[0].playground is None
    assert LESSONS[11].steps[1].playground == PlaygroundSetup(2, (), False, 0.5, 0.5, 1 / 60, True)
    minimal = lesson_from_json(changed(TUNNEL, ("steps", 0, "playground"), {"steps": 0}), "11.json")
    assert minimal.steps[0].playground == PlaygroundSetup(0)


@pytest.mark.parametrize("value, message", [
    ([1], "step 1 playground must be an object of dynamic, ccd"),
    ({"steps": 1, "speed": 3}, "step 1 playground has unknown field 'speed'"),
    ({}, "step 1 playground steps must be a whole number in [0, 600], got None"),
    ({"steps": -1}, "steps must be a whole number in [0, 600], got -1"),
    ({"steps": MAX_STEPS + 1}, "steps must be a whole number in [0, 600], got 601"),
    ({"steps": 2.5}, "steps must be a whole number"),
    ({"steps": 1, "dynamic": "wall"}, "dynamic must be a list of shape names, got 'wall'"),
    ({"steps": 1, "dynamic": ["ghost"]}, "dynamic names 'ghost', which is not in the scene"),
    ({"steps": 1, "ccd": "off"}, "ccd must be true or false, got 'off'"),
    ({"steps": 1, "show_step": 1}, "show_step must be true or false, got 1"),
    ({"steps": 1, "restitution": 1.0000000000000002}, "restitution must be a finite number in [0, 1]"),
    ({"steps": 1, "restitution": -1e-300}, "restitution must be a finite number in [0, 1]"),
    ({"steps": 1, "restitution": True}, "restitution must be a finite number"),
    ({"steps": 1, "friction": float("inf")}, "friction must be a finite number in [0, inf]"),
    ({"steps": 1, "friction": -0.1}, "friction must be a finite number"),
    ({"steps": 1, "dt": 0}, "dt must be a finite number in (0, 1] s, got 0"),
    ({"steps": 1, "dt": 1.0000000000000002}, "dt must be a finite number in (0, 1] s"),
    ({"steps": 1, "dt": "1/60"}, "dt must be a finite number in (0, 1] s, got '1/60'"),
    ({"steps": 1, "water": 2.0}, "water must be an object of level, density, linear_drag, angular_drag, got 2.0"),
    ({"steps": 1, "water": {"depth": 1.0}}, "water has unknown field 'depth'"),
    ({"steps": 1, "water": {"density": 0.0}}, "water density must be a finite number > 0, got 0.0"),
    ({"steps": 1, "water": {"density": -5e-324}}, "water density must be a finite number > 0"),
    ({"steps": 1, "water": {"linear_drag": -5e-324}}, "water linear_drag must be a finite number >= 0"),
    ({"steps": 1, "water": {"angular_drag": float("nan")}}, "water angular_drag must be a finite number >= 0"),
    ({"steps": 1, "water": {"level": float("inf")}}, "water level must be a finite number, got inf"),
    ({"steps": 1, "water": {"level": False}}, "water level must be a finite number, got False"),
])
def test_a_bad_playground_field_is_refused_naming_it(value, message):
    with pytest.raises(LessonError) as raised:
        lesson_from_json(changed(TUNNEL, ("steps", 0, "playground"), value), "11-bad.json")
    assert str(raised.value).startswith("11-bad.json: ") and message in str(raised.value)


@pytest.mark.parametrize("value", [{"steps": MAX_STEPS}, {"steps": 1, "restitution": 1.0, "friction": 0.0},
                                   {"steps": 1, "restitution": 0.0, "dt": 1.0}, {"steps": 1, "dt": 5e-324},
                                   {"steps": 1, "water": {"density": 5e-324, "linear_drag": 0.0, "angular_drag": 0.0,
                                                          "level": -1e300}}])
def test_the_playground_fields_bounds_are_accepted(value):
    assert lesson_from_json(changed(TUNNEL, ("steps", 0, "playground"), value), "11.json").steps[0].playground


def test_show_step_needs_a_moving_shape():
    still = changed(TUNNEL, ("scene", "moving"), None)
    with pytest.raises(LessonError, match="step 2 playground show_step needs a moving shape"):
        lesson_from_json(still, "11-bad.json")


def test_showing_a_step_runs_its_playground_and_the_next_step_resets_it():
    editor = lesson_editor(11, 1)
    run = editor.playground
    assert run is not None and run.recorder.position == 2 and not run.world.ccd
    # show_step: the view shows the step into frame 2 as a sweep, from x = -0.75 along its chord
    assert editor.scene.object("ball").params["center"][0] == -0.75 and editor.scene.direction[0] == 2.0
    editor.show_step(0)
    assert editor.playground is None and editor.scene.object("ball").params["center"] == [-2.75, 0.0, 1.5]
    assert editor.scene.direction == [120.0, 0.0, 0.0] and not editor.dirty
    editor.show_step(2)
    assert editor.playground is not None and editor.playground.world.ccd
    assert editor.scene.object("ball").params["center"][0] == pytest.approx(-1.375, abs=1e-12)  # bounced


def test_a_step_whose_run_cannot_start_says_why_and_keeps_the_lesson():
    """A ball of radius 0 is a valid shape but no body (no volume): the step is shown,
    its run is not, and the status line says why."""
    broken = changed(TUNNEL, ("steps", 1, "set"), {"ball": {"radius": 0.0}})
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(lesson_from_json(broken, "11.json"))
    editor.show_step(1)
    assert editor.lesson_step == 1 and editor.playground is None
    assert editor.message.startswith("the playground did not start: scene_object 'ball'")
    assert editor.scene.object("ball").params["radius"] == 0.0


def test_the_tunnelling_step_saved_from_the_lesson_is_the_committed_fixture(tmp_path):
    """Lesson 11 step 2 (CCD off): the ball passed the wall in step 2; saved as a
    fixture, that step's sweep reports the hit the discrete step missed (t = 0.125)."""
    editor = lesson_editor(11, 1)
    passing = passing_step(editor.playground, "ball", "wall")
    assert passing is not None and passing.frame == 2 and passing.jumped
    path = editor.save_step_fixture("ball", tmp_path, "tunnel", passing.frame)
    assert path is not None
    saved, committed = load_fixture(path), load_fixture(FIXTURE)
    assert saved.scene.to_json() == committed.scene.to_json() and saved.expected == committed.expected
    report = run_fixture(committed)
    assert report.passed
    actual = {(check.target, check.field): check.actual for check in report.checks}
    assert actual["wall", "hit"] is True and actual["wall", "t"] == 0.125


def test_lesson_twelve_shows_the_seeds_impulse_equal_to_the_solvers_without_friction():
    without, with_friction = (first_impulse(lesson_editor(12, step).playground, "box", "floor") for step in (1, 2))
    assert without.j == without.event.impulse
    assert with_friction.j == without.j and with_friction.event.impulse > 1.4 * without.j


def test_lesson_thirteen_floats_its_bodies_in_the_steps_water():
    """Placed at their equilibrium drafts in water of density 2 (0.2 m and 0.3 m), the
    raft and the ball stay there to the last digit and fall asleep within the second;
    in water of density 4 they rise."""
    from sweeplab.playground.buoyancy import Water
    from sweeplab.playground.floating import draft

    up = [0.0, 0.0, 1.0]
    editor = lesson_editor(13, 0)
    assert editor.playground.world.water == Water(0.0, 2.0, 2.0, 2.0) and editor.playground.recorder.position == 0
    editor.show_step(1)
    world = editor.playground.world
    assert [(body.name, draft(body, world.water, up), body.asleep) for body in world.bodies] == [
        ("ball", 0.3, True), ("raft", 0.2, True)]
    editor.show_step(2)
    world = editor.playground.world
    assert world.water.density == 4.0 and all(draft(body, world.water, up) < 0.15 for body in world.bodies)


def test_regression_the_check_judges_the_students_scene_not_the_runs_frame():
    """Found in review: the exercise was judged on the scene shown, which during a
    lesson step's run is the run's frame (lesson 11 step 2 shows its step as a sweep,
    direction the chord 0.55 per step): a speed of 33.165 m/s set by the student read
    0.553 m/s and failed.  The student's scene is the one the run began from."""
    editor = lesson_editor(11, 0)
    editor.set_direction([33.0 * 1.005, 0.0, 0.0])
    editor.show_step(1)
    assert editor.playground is not None and editor.scene.direction[0] < 1.0  # the step's chord, shown
    verdict = editor.check_exercise()
    assert verdict is not None and verdict.passed, verdict.message
