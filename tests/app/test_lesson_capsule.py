"""Lesson 9, capsules (#37): the candidates the picture lists are the ones the
kernels take, the earliest counted one is ``sweep``'s answer, and the exercise."""

import math

import numpy as np
import pytest

from sweeplab.view.exercises import judge
from sweeplab.view.lesson_capsule import capsule_sweep, motion_angle
from tests.app.test_exercises import with_args
from sweeplab.view.lessons import bundled_lessons, show_set

LESSONS, _ = bundled_lessons()
CAPSULES = next(lesson for lesson in LESSONS if lesson.number == 9)


def at_step(number: int):
    scene = CAPSULES.scene.copy()
    show_set(scene, CAPSULES.steps[number])
    return scene


def test_the_side_the_end_ball_and_the_parallel_fallback_at_the_lessons_steps():
    """R = 0.9.  Step 2: (-4, 0, 0) along (8, 0, 0) meets the cylinder about x = 1 at
    t = (5 - 0.9) / 8, beside the core's middle (s = 0.5).  Step 3: at z = 2.2 the same
    cylinder entry is past b (s = 3.7 / 3); the ball about b, 0.7 below the path, is met
    where (x - 1)² = 0.81 - 0.49: t = (5 - sqrt 0.32) / 8.  Step 4: the core along the
    motion: a = b = 0, no cylinder; the ball about a, 0.3 beside the path, at
    t = (5 - sqrt 0.72) / 8."""
    side = capsule_sweep(at_step(1))
    assert side.summed_radius == 0.9 and side.counted and side.along == 0.5
    assert side.cylinder.t == pytest.approx(4.1 / 8, abs=1e-15) and side.answer.feature.kind == "edge"
    assert float(side.answer.t) == pytest.approx(side.cylinder.t, abs=1e-15)
    past = capsule_sweep(at_step(2))
    assert not past.counted and past.along == pytest.approx(3.7 / 3, abs=1e-15)
    assert past.cylinder.t == pytest.approx(4.1 / 8, abs=1e-15) and past.ends[0] is None
    assert past.ends[1] == pytest.approx((5 - math.sqrt(0.32)) / 8, abs=1e-15)
    assert (past.answer.feature.kind, past.answer.feature.index) == ("vertex", 1) and past.answer.t == past.ends[1]
    parallel = capsule_sweep(at_step(3))
    assert parallel.parallel and parallel.cylinder.b == 0 and parallel.cylinder.t is None and not parallel.counted
    assert parallel.ends[0] == pytest.approx((5 - math.sqrt(0.72)) / 8, abs=1e-15)
    assert (parallel.answer.feature.kind, parallel.answer.feature.index) == ("vertex", 0)
    assert parallel.answer.t == parallel.ends[0]


def test_the_earliest_counted_candidate_is_the_sweeps_answer():
    """Random balls aimed at points near the lesson's upright post (its core runs from
    (1, 0, -1.5) to (1, 0, 1.5)), some falling short."""
    generator = np.random.default_rng(9)
    checked = 0
    for _ in range(60):
        scene = CAPSULES.scene.copy()
        centre = generator.uniform(-4.0, 4.0, 3)
        aim = np.array([1.0, 0.0, 0.0]) + generator.uniform(-1.5, 1.5, 3) * [1.0, 1.0, 1.6]
        scene.object("ball").params["center"] = centre.tolist()
        scene.direction = ((aim - centre) * generator.uniform(0.5, 1.5)).tolist()
        found = capsule_sweep(scene)
        if found.answer.hit and not found.answer.initially_overlapping:
            candidates = [t for t in (found.cylinder.t if found.counted else None, *found.ends) if t is not None]
            assert min(candidates) == pytest.approx(float(found.answer.t), abs=1e-12)
            checked += 1
        elif not found.answer.hit:
            assert not found.counted and found.ends == (None, None)
    assert checked >= 10


def lying_post(centre, direction):
    def edit(scene):
        scene.object("post").params.update(a=[1.0, 0.0, 0.0], b=[4.0, 0.0, 0.0])
        scene.object("ball").params["center"] = list(centre)
        scene.direction = list(direction)
    return edit


def verdict(edit, **args):
    scene = CAPSULES.scene.copy()
    edit(scene)
    return judge(with_args(CAPSULES, **args), scene)


def test_the_exercise_passes_on_the_side_hit_from_nearly_along_the_core():
    """(0, 1.2, 0) along (8, -0.8, 0), 5.71° from the core, crosses R = 0.9 from it at
    t = 0.375, x = 3: beside the core (s = 2/3)."""
    last = judge(CAPSULES, at_step(3))
    assert not last.passed and "vertex 0" in last.message and last.message.endswith(CAPSULES.exercise.hint)
    passed = verdict(lying_post([0.0, 1.2, 0.0], [8.0, -0.8, 0.0]))
    assert passed.passed and "edge 0 at t = 0.37" in passed.message
    steep = verdict(lying_post([2.0, 2.0, 0.0], [1.0, -8.0, 0.0]))  # the side, but from across
    assert not steep.passed and "more than 15° from the core" in steep.message


def test_the_exercises_angle_at_just_inside_and_just_outside():
    edit = lying_post([0.0, 1.2, 0.0], [8.0, -0.8, 0.0])
    scene = CAPSULES.scene.copy()
    edit(scene)
    angle = motion_angle(scene)
    assert angle == pytest.approx(math.degrees(math.atan(0.1)), abs=1e-12)
    assert verdict(edit, degrees=angle).passed  # at
    assert verdict(edit, degrees=angle + 1e-9).passed  # inside
    assert not verdict(edit, degrees=math.nextafter(angle, 0)).passed  # just outside
