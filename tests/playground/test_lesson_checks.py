"""The exercises of lessons 11, 12 and 13 (``playground.lesson_checks``): each at, just
inside and just outside its tolerance."""

import math

import numpy as np
import pytest

from sweeplab.playground.lesson_checks import judge_draft, judge_tunnelling
from sweeplab.playground.tunnelling import Outcome
from sweeplab.playground.world import turned
from sweeplab.view.exercises import checks, judge
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
    assert verdict.passed is passed and verdict.message.endswith(ends)


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
    verdict = checks()["tunnelling speed"](lesson_scene(speed), {})
    assert verdict.passed is passed, verdict.message


def test_the_tunnelling_message_says_both_runs():
    message = checks()["tunnelling speed"](lesson_scene(33.0 * 1.005), {}).message
    assert message.startswith("At 33.165 m/s the ball passes the wall in step 5; 0.01 slower, at 32.8333 m/s, "
                              "it is caught (decided in step 5)")


def test_lesson_twelves_exercise_is_at_least_the_impulse():
    """The lesson's drop (3 m/s, friction 0) gives 2.1842820972298473 N·s at the corner."""
    scene = LESSONS[12].scene
    measured = 2.1842820972298473
    corner = checks()["corner impulse"]
    assert corner(scene, {"impulse": measured}).passed  # at
    assert corner(scene, {"impulse": math.nextafter(measured, 0.0)}).passed  # inside
    verdict = corner(scene, {"impulse": math.nextafter(measured, 5.0)})  # just outside
    assert not verdict.passed and verdict.message.startswith(
        "At the first contact with the floor the seed's j = 2.18428 N·s (k = 3.39 1/kg, v_rel·n = -4.936 m/s; "
        "the solver applied 2.18428 N·s over the contact's points): less than 2.18428 N·s.")


def test_a_corner_turned_under_the_centre_passes_a_flat_landing_does_not():
    """Flat, the brick lands on four corners at once: the solver's 8.21 N·s is theirs
    together, the seed's j at the one contact point 1.41.  Turned so that its lowest
    corner lies under its centre (the diagonal (1.6, 1, 0.6) along -z), r is along n,
    k = 1/m, and j = (1 + e)·m·|v_rel·n| passes."""
    scene = LESSONS[12].scene.copy()
    scene.object("box").params["axes"] = np.eye(3).tolist()
    flat = checks()["corner impulse"](scene, {})
    assert not flat.passed and "seed's j = 1.40761 N·s" in flat.message and "applied 8.21482 N·s" in flat.message
    diagonal = np.array([0.8, 0.5, 0.3]) / np.linalg.norm([0.8, 0.5, 0.3])
    down = np.cross(diagonal, [0.0, 0.0, 1.0])  # the turn taking the diagonal onto +z
    angle = np.arccos(diagonal[2])
    scene.object("box").params["axes"] = turned(np.eye(3), down / np.linalg.norm(down) * angle).T.tolist()
    corner = checks()["corner impulse"](scene, {})
    assert corner.passed, corner.message


def test_a_box_that_never_lands_is_told_so():
    scene = LESSONS[12].scene.copy()
    scene.direction = [0.0, 0.0, 0.0]
    scene.object("floor").params["offset"] = -1e6
    verdict = checks()["corner impulse"](scene, {"impulse": 1.0, "max_steps": 5})
    assert not verdict.passed and verdict.message == "The box does not reach floor in 5 steps of 0.01667 s."


@pytest.mark.parametrize("number, change, missing", [
    (11, lambda scene: scene.objects.remove(scene.object("wall")), "The scene has no polygon target"),
    (11, lambda scene: setattr(scene, "moving", None), "The scene has no moving shape"),
    (12, lambda scene: scene.objects.remove(scene.object("floor")), "The scene has no plane target"),
    (13, lambda scene: setattr(scene, "moving", "ball"), "The moving shape ball is a sphere"),
])
def test_a_broken_scene_is_a_failed_verdict_saying_what_it_lacks(number, change, missing):
    scene = LESSONS[number].scene.copy()
    change(scene)
    verdict = judge(LESSONS[number], scene)
    assert not verdict.passed and verdict.message.startswith(missing)
    assert verdict.message.endswith(LESSONS[number].exercise.hint)


def test_the_lessons_exercises_fail_as_the_lessons_open():
    """The task is to change the scene: as bundled, 120 m/s tunnels at 118.8 too, the
    drop gives 2.18 N·s, under the 3 asked for, and the raft floats at 0.2 m, not 0.3."""
    for number in (11, 12, 13):
        assert not judge(LESSONS[number], LESSONS[number].scene).passed


@pytest.mark.parametrize("measured, passed, ends", [
    (0.3125, True, "within 0.0625 m."),  # at: |0.3125 - 0.25| = 0.0625 exactly
    (0.25, True, "within 0.0625 m."),  # inside
    (math.nextafter(0.3125, 1.0), False, "more than 0.0625 m."),  # just outside
    (math.nextafter(0.1875, 0.0), False, "more than 0.0625 m."),  # just outside, below
    (None, False, "It sinks: it is at least as dense as the water."),
])
def test_the_draft_is_judged_within_the_tolerance(measured, passed, ends):
    verdict = judge_draft(measured, 0.25, 0.0625)
    assert verdict.passed is passed and verdict.message.endswith(ends)


def raft_of_height(height: float):
    scene = LESSONS[13].scene.copy()
    scene.object("raft").params["vertices"] = [[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5)
                                               for z in (-height / 2, height / 2)]
    return scene


@pytest.mark.parametrize("height, passed", [(0.6, True), (0.609, True), (0.591, True), (0.612, False),
                                            (0.588, False), (0.4, False)])
def test_lesson_thirteens_raft_floats_at_half_its_height(height, passed):
    """Half the water's density: the draft is h/2; 0.3 ± 0.005 asked for."""
    verdict = checks()["floating draft"](raft_of_height(height), {})
    assert verdict.passed is passed, verdict.message


def test_the_drafts_message_and_a_raft_that_sinks():
    assert checks()["floating draft"](raft_of_height(0.4), {}).message == (
        "raft: m = 0.4 kg. It floats at a draft of 0.2 m, 0.1 m from 0.3 m: more than 0.005 m.")
    sinks = checks()["floating draft"](raft_of_height(0.6), {"water_density": 1.0})
    assert not sinks.passed and sinks.message.endswith("It sinks: it is at least as dense as the water.")
