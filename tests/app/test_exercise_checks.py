"""The checks of lessons 1–8's exercises (#37): each passes on a scene that solves
it, and fails with the hint on the lesson's starting scene and on a near miss just
outside its tolerance (at, just inside and just outside)."""

import math

import pytest

from sweeplab.view.exercise_checks import root_gap
from sweeplab.view.exercises import judge
from sweeplab.view.lessons import bundled_lessons

LESSONS, _ = bundled_lessons()


def lesson(number: int):
    return next(found for found in LESSONS if found.number == number)


def verdict_with(number: int, edit, **args):
    """The verdict of lesson ``number``'s exercise on its scene after ``edit(scene)``,
    with ``args`` over the lesson's."""
    found = lesson(number)
    scene = found.scene.copy()
    edit(scene)
    exercise = found.exercise.__class__(found.exercise.task, found.exercise.check,
                                        {**found.exercise.args, **args}, found.exercise.hint)
    return judge(found.__class__(found.number, found.title, found.scene, found.steps, found.picture, exercise),
                 scene)


def test_every_lesson_one_to_eight_has_an_exercise_that_fails_on_its_starting_scene():
    for number in range(1, 9):
        found = lesson(number)
        if found.exercise is None:
            continue
        verdict = judge(found, found.scene)
        assert not verdict.passed and verdict.message.endswith(found.exercise.hint), number


# --- lesson 1 -----------------------------------------------------------------------------

def point_at(y: float):
    return lambda scene: scene.object("point").params.update(p=[1.0, y, 0.0])


def test_lesson_one_passes_at_the_graze_and_fails_past_it():
    graze = verdict_with(1, point_at(1.0))
    assert graze.passed and "t = 0.625" in graze.message
    assert "(t2 - t1) / 2 = 0 " in graze.message
    beyond = verdict_with(1, point_at(1.0000000000000002))
    assert not beyond.passed and "the sweep misses" in beyond.message


def test_lesson_one_tolerance_at_just_inside_and_just_outside():
    """With the point at y the roots are 0.625 ± sqrt(1 - y²)/8: half their gap is
    sqrt(1 - y²)/8, and the tolerance 1e-3 is reached at y = sqrt(1 - 64e-6)."""
    tolerance = lesson(1).exercise.args["tolerance"]
    assert tolerance == 1e-3
    edge = math.sqrt(1 - 64 * tolerance ** 2)
    inside, outside = point_at(edge + 1e-7), point_at(edge - 1e-7)
    scene = lesson(1).scene.copy()
    point_at(edge)(scene)
    gap = root_gap(scene)
    assert gap == pytest.approx(tolerance, rel=1e-9)
    assert verdict_with(1, point_at(edge), tolerance=gap).passed  # at: the gap equal to the tolerance passes
    assert not verdict_with(1, point_at(edge), tolerance=math.nextafter(gap, 0)).passed
    assert verdict_with(1, inside).passed
    failed = verdict_with(1, outside)
    assert not failed.passed and "two distinct roots" in failed.message
    assert failed.message.endswith(lesson(1).exercise.hint)


def test_lesson_one_fails_when_the_ball_starts_on_the_point():
    touching = verdict_with(1, lambda scene: scene.object("point").params.update(p=[-4.0, 0.5, 0.0]))
    assert not touching.passed and "touches the point at t = 0" in touching.message
