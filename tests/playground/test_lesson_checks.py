"""The exercises of lessons 11 and 12 (``playground.lesson_checks``): each at, just
inside and just outside its tolerance."""

import math

import pytest

from sweeplab.playground.lesson_checks import corner_hit, judge_tunnelling, tunnelling_speed
from sweeplab.playground.tunnelling import Outcome
from sweeplab.view.lessons import bundled_lessons

LESSONS = {lesson.number: lesson for lesson in bundled_lessons()[0]}


def past_thirty(speed: float) -> Outcome:
    """A wall passed above exactly 30 m/s."""
    return Outcome(speed > 30.0, 3)


@pytest.mark.parametrize("speed, passed, ends", [
    (40.0, True, "to within 0.25."),  # at: 40·0.75 = 30 exactly, caught there
    (39.0, True, "to within 0.25."),  # inside: 29.25 caught
    (math.nextafter(40.0, 41.0), False, "lower still."),  # just outside: 30.000000000000004 passes
    (30.0, False, "it does not tunnel."),  # the edge itself does not pass
])
def test_the_tunnelling_edge_is_judged_within_the_tolerance(speed, passed, ends):
    verdict = judge_tunnelling(past_thirty, speed, 0.25)
    assert verdict[0] is passed and verdict[1].endswith(ends)


def lesson_scene(speed: float):
    scene = LESSONS[11].scene.copy()
    scene.direction = [speed, 0.0, 0.0]
    return scene


@pytest.mark.parametrize("speed, passed", [
    (33.0 * 1.005, True),  # x_5 past the wall; 1% slower x_5 = -0.014, caught
    (33.0 * 1.015, False),  # 1% slower is 33.16 m/s, which tunnels too
    (33.0 * 0.995, False),  # caught: x_5 = -0.014
    (0.0, False),
])
def test_lesson_elevens_exercise_on_the_lessons_scene(speed, passed):
    verdict = tunnelling_speed(lesson_scene(speed), "wall")
    assert verdict[0] is passed, verdict[1]


def test_the_tunnelling_message_says_both_runs():
    passed, message = tunnelling_speed(lesson_scene(33.0 * 1.005), "wall")
    assert message.startswith("At 33.165 m/s the ball passes the wall in step 5; 0.01 slower, at 32.8333 m/s, "
                              "it is caught (decided in step 5)")


def test_lesson_twelves_exercise_is_at_least_the_impulse():
    """The lesson's drop (3 m/s, friction 0) gives 2.1842820972298473 N·s at the corner."""
    scene = LESSONS[12].scene
    measured = 2.1842820972298473
    assert corner_hit(scene, "floor", measured, 0.5, 0.0)[0]  # at
    assert corner_hit(scene, "floor", math.nextafter(measured, 0.0), 0.5, 0.0)[0]  # inside
    passed, message = corner_hit(scene, "floor", math.nextafter(measured, 5.0), 0.5, 0.0)  # just outside
    assert not passed and message.startswith("The first impulse at the floor is 2.18428 N·s (the seed's j = 2.18428")


def test_a_box_that_never_lands_is_told_so():
    scene = LESSONS[12].scene.copy()
    scene.direction = [0.0, 0.0, 0.0]
    scene.object("floor").params["offset"] = -1e6
    passed, message = corner_hit(scene, "floor", 1.0, 0.5, 0.0, max_steps=5)
    assert not passed and message == "The box does not reach floor in 5 steps of 0.01667 s."
