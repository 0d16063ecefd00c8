"""Lesson 10, conservative advancement (#37): its steps draw the iterations they talk
about, its numbers are the scene's, and its exercise."""

import json

import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.scene.model import load
from sweeplab.view import lessons as lesson_files
from sweeplab.view.advancement import advancement_report
from sweeplab.view.exercises import judge
from sweeplab.view.lesson_advancement import lesson_report
from tests.app.test_exercises import with_args
from sweeplab.view.lessons import LessonError, bundled_lessons, lesson_from_json
from tests.app.test_hostile_files import changed

LESSONS, _ = bundled_lessons()
ADVANCEMENT = next(lesson for lesson in LESSONS if lesson.number == 10)


def test_the_steps_numbers_are_the_scenes_iterations():
    """The texts quote these: iteration 0 at distance 9.05 with bound 16.06 advances
    0.5637; the seventh and last is the contact at t = 0.947007336."""
    report = advancement_report(ADVANCEMENT.scene, "wall")
    first, last = report.steps[0], report.steps[-1]
    assert (first.distance, round(first.bound, 2), round(first.advance, 4)) == (9.05, 16.06, 0.5637)
    assert len(report.steps) == 7 and round(report.answer.t, 9) == 0.947007336 and last.distance < 1e-10
    assert f"{report.steps[1].t:.4f}" in ADVANCEMENT.steps[2].text and f"{report.steps[2].t:.4f}" in \
        ADVANCEMENT.steps[2].text
    assert "9.05 / 16.06 = 0.5637" in ADVANCEMENT.steps[1].text and "0.947007336" in ADVANCEMENT.steps[3].text


def test_each_step_draws_its_iteration():
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(ADVANCEMENT)
    shown = []
    for number in range(len(ADVANCEMENT.steps)):
        editor.show_step(number)
        shown.append(editor.advancement_step)
    assert shown == [None, 1, 2, 6]
    editor.show_step(0)
    plain = len(editor.view().lines)
    editor.show_step(1)
    assert len(editor.view().lines) == plain + 1  # the pose at iteration 1 outlined
    editor.open_lesson(LESSONS[0])
    assert editor.advancement_step is None  # another lesson draws no iteration


@pytest.mark.parametrize("value", [-1, 1.5, "last"])
def test_a_bad_iteration_is_refused_naming_the_step(value):
    data = json.loads((lesson_files.lesson_folder() / "10-advancement.json").read_text())
    with pytest.raises(LessonError, match="step 2 iteration must be a whole number >= 0 or null"):
        lesson_from_json(changed(data, ("steps", 1, "iteration"), value), "10.json")


def verdict(edit, **args):
    scene = ADVANCEMENT.scene.copy()
    edit(scene)
    return judge(with_args(ADVANCEMENT, **args), scene)


def turned(angle: float):
    return lambda scene: setattr(scene, "rotation", [0.0, 0.0, angle])


def test_the_exercise_passes_on_a_faster_turn_that_still_hits():
    """Measured: turning 2.4 rad takes 7 iterations; 12 rad, 13 and a contact; 6 rad,
    7 and no contact (the bat's far end passes the wall)."""
    start = judge(ADVANCEMENT, ADVANCEMENT.scene)
    assert not start.passed and "7 iterations" in start.message and "7 < 10" in start.message
    passed = verdict(turned(12.0))
    assert passed.passed and "13 iterations" in passed.message and "13 >= 10" in passed.message
    missed = verdict(turned(6.0), least=1)
    assert not missed.passed and "must still end in a contact" in missed.message
    still = verdict(turned(0.0))
    assert not still.passed and "The sweep does not turn" in still.message


def test_the_exercises_count_at_just_inside_and_just_outside():
    scene = ADVANCEMENT.scene.copy()
    turned(12.0)(scene)
    count = len(lesson_report(scene).steps)
    assert verdict(turned(12.0), least=count).passed  # at
    assert verdict(turned(12.0), least=count - 1).passed  # inside
    assert not verdict(turned(12.0), least=count + 1).passed  # just outside
