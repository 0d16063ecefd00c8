"""The checks of lessons 1–8's exercises (#37): each passes on a scene that solves
it, and fails with the hint on the lesson's starting scene and on a near miss just
outside its tolerance (at, just inside and just outside)."""

import math

import pytest

from sweeplab.view.exercise_checks import root_gap
from sweeplab.view.exercises import judge
from sweeplab.view.lessons import bundled_lessons
from tests.app.test_exercises import with_args

LESSONS, _ = bundled_lessons()


def lesson(number: int):
    return next(found for found in LESSONS if found.number == number)


def verdict_with(number: int, edit, **args):
    """The verdict of lesson ``number``'s exercise on its scene after ``edit(scene)``,
    with ``args`` over the lesson's."""
    scene = lesson(number).scene.copy()
    edit(scene)
    return judge(with_args(lesson(number), **args), scene)


def test_every_lesson_one_to_eight_has_an_exercise_that_fails_on_its_starting_scene():
    for number in range(1, 9):
        found = lesson(number)
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


def at_and_around(number: int, edit, measure, name: str = "tolerance"):
    """The tolerance's edge: with ``args[name]`` equal to what ``measure(scene)`` reads
    after ``edit`` the check passes; one float below, it fails."""
    scene = lesson(number).scene.copy()
    edit(scene)
    measured = measure(scene)
    assert verdict_with(number, edit, **{name: measured}).passed
    below = verdict_with(number, edit, **{name: math.nextafter(measured, 0)})
    assert not below.passed and below.message.endswith(lesson(number).exercise.hint)


# --- lesson 2 -----------------------------------------------------------------------------

def deflated_with(ball_radius: float, rock_radius: float = 0.0):
    def edit(scene):
        scene.object("ball").params["radius"] = ball_radius
        scene.object("rock").params["radius"] = rock_radius
    return edit


def radius_for(t: float) -> float:
    """The ball's centre at t is (-4 + 8t, 0.3, 0); the rock's centre (1, 0, 0)."""
    return math.hypot(5 - 8 * t, 0.3)


def t_off(scene) -> float:
    from sweeplab.view.exercise_checks import answer

    return abs(float(answer(scene, scene.object("ball"), scene.object("rock")).t) - 0.25)


def test_lesson_two_passes_with_the_rock_a_point_and_the_summed_radius_on_the_ball():
    assert lesson(2).exercise.args == {"t": 0.25, "tolerance": 1e-3}
    passed = verdict_with(2, deflated_with(radius_for(0.25)))
    assert passed.passed and "rock's 0;" in passed.message
    split = verdict_with(2, deflated_with(radius_for(0.25) - 1e-6, 1e-6))  # the same sum, the rock not a point
    assert not split.passed and "rock is not yet a point" in split.message
    assert verdict_with(2, deflated_with(radius_for(0.25 - 0.999e-3))).passed  # inside
    outside = verdict_with(2, deflated_with(radius_for(0.25 - 1.001e-3)))
    assert not outside.passed and "> 0.001" in outside.message
    at_and_around(2, deflated_with(radius_for(0.2505)), t_off)
    assert "a miss" in verdict_with(2, deflated_with(0.2)).message


# --- lesson 3 -----------------------------------------------------------------------------

def post_moving(direction):
    def edit(scene):
        scene.moving = "post"
        scene.direction = list(direction)
    return edit


def test_lesson_three_passes_when_the_post_moves_by_minus_d():
    first = verdict_with(3, lambda scene: None)
    assert "the capsule is not the moving shape" in first.message
    passed = verdict_with(3, post_moving([-8.0, 0.0, 0.0]))
    assert passed.passed and "max(|t - t'|, |n + n'|) = 0:" in passed.message
    near = verdict_with(3, post_moving([-8.0, 1e-3, 0.0]))  # a slightly different question
    assert not near.passed and "not the same question" in near.message
    away = verdict_with(3, post_moving([8.0, 0.0, 0.0]))
    assert not away.passed and "Both must hit" in away.message


def test_lesson_three_tolerance_at_just_inside_and_just_outside():
    from sweeplab.view.exercise_checks import subject_mismatch

    def mismatch(scene):
        return subject_mismatch(scene, [8.0, 0.0, 0.0])[1]

    at_and_around(3, post_moving([-8.0, 1e-4, 0.0]), mismatch)
    scene = lesson(3).scene.copy()
    post_moving([-8.0, 1e-10, 0.0])(scene)
    assert 0 < mismatch(scene) < 1e-9  # just inside
    assert verdict_with(3, post_moving([-8.0, 1e-10, 0.0])).passed
    post_moving([-8.0, 1e-6, 0.0])(scene)
    assert mismatch(scene) > 1e-9  # just outside
    assert not verdict_with(3, post_moving([-8.0, 1e-6, 0.0])).passed


# --- lesson 4 -----------------------------------------------------------------------------

def ball_start_y(y: float):
    return lambda scene: scene.object("ball").params.update(center=[0.6, y, 3.0])


def test_lesson_four_passes_just_past_the_edge_and_fails_just_inside_the_face():
    """The ball touches the plane at t = 2.5/4 with its centre at y = start - 0.1875:
    over edge ab (y = -1) when the start is -0.8125."""
    start = verdict_with(4, lambda scene: None)
    assert not start.passed and "The first contact is face" in start.message
    assert not verdict_with(4, ball_start_y(-0.8125 + 1e-9)).passed  # inside the face
    past = verdict_with(4, ball_start_y(-0.8125 - 1e-9))
    assert past.passed and "edge 0" in past.message
    assert not verdict_with(4, ball_start_y(-3.0)).passed  # beyond the inflated edge: a miss
    corner = verdict_with(4, lambda scene: scene.object("ball").params.update(center=[-1.3, -1.0, 3.0]))
    assert not corner.passed and "The first contact is vertex 0" in corner.message


# --- lesson 5 -----------------------------------------------------------------------------

def skimming(z: float):
    """The ball level at height ``z`` across the hills' diagonal."""
    def edit(scene):
        scene.object("ball").params["center"] = [-5.0, -5.0, z]
        scene.direction = [10.0, 10.0, 0.0]
    return edit


def test_lesson_five_passes_on_a_miss_that_skims_the_hills():
    """Measured: the lesson's hit takes 107 node tests; skimming at z = 0.9, a miss,
    311; at z = 1.6, a miss well above the peaks, 45."""
    from sweeplab.view.exercise_checks import node_tests

    hit = verdict_with(5, lambda scene: None)
    assert not hit.passed and "the walk took 107 node tests" in hit.message and "must miss" in hit.message
    passed = verdict_with(5, skimming(0.9))
    assert passed.passed and "A miss; the walk took 311 node tests" in passed.message
    high = verdict_with(5, skimming(1.6))
    assert not high.passed and "45 node tests" in high.message and "< 200" in high.message
    scene = lesson(5).scene.copy()
    skimming(0.9)(scene)
    taken = sum(node_tests(scene)[1].values())
    assert verdict_with(5, skimming(0.9), least=taken).passed  # at
    assert verdict_with(5, skimming(0.9), least=taken - 1).passed  # inside
    assert not verdict_with(5, skimming(0.9), least=taken + 1).passed  # just outside


# --- lesson 6 -----------------------------------------------------------------------------

def boulder_at(y: float):
    return lambda scene: scene.object("boulder").params.update(origin=[1.5, y, 2.0])


def test_lesson_six_passes_where_the_contact_falls_between_two_samples():
    """Measured: at boulder y = 1.121 both samplings find the contact, at 1.1212 only
    the 1024 samples do, at 1.1216 neither (the rock passes by)."""
    assert not verdict_with(6, boulder_at(1.121)).passed
    passed = verdict_with(6, boulder_at(1.1212))
    assert passed.passed and "32 samples: no overlap found; 1024 samples: contact at t = 0.64" in passed.message
    assert not verdict_with(6, boulder_at(1.1216)).passed
    assert not verdict_with(6, boulder_at(1.1212), finer=32).passed  # the same stage twice cannot split


# --- lesson 7 -----------------------------------------------------------------------------

def ball_z(z: float):
    return lambda scene: scene.object("ball").params.update(center=[2.0, -5.0, z])


def test_lesson_seven_passes_one_ulp_above_the_graze_only():
    start = verdict_with(7, lambda scene: None)
    assert not start.passed and "float64: t = 0.5; float32: t = 0.5: they agree" in start.message
    passed = verdict_with(7, ball_z(math.nextafter(1.0, 2.0)))
    assert passed.passed and "float64: a miss; float32: t = 0.5" in passed.message
    assert not verdict_with(7, ball_z(1.0 + 1e-6)).passed  # float32 sees it too: both miss


# --- lesson 8 -----------------------------------------------------------------------------

def crate_at(x: float, y: float, z: float = 1.0):
    return lambda scene: scene.object("crate").params.update(origin=[x, y, z])


def test_lesson_eight_passes_with_the_crate_in_the_slide():
    """The slide runs up the wall with the capsule's axis at x = -0.4 and its radius
    0.4, from y = 2.7 to 3.6: a crate centred at x = -0.4, its bottom face at y = 3.3,
    stops it (the contact's normal -y takes all that is left); centred at
    x = -1.3 - 1e-6 the crate's side (x = -0.8 - 1e-6) is beside the capsule's
    (x = -0.8), and the slide passes it by to the back wall."""
    start = verdict_with(8, lambda scene: None)
    assert not start.passed and "it ends against back wall" in start.message
    passed = verdict_with(8, crate_at(-0.4, 3.8))
    assert passed.passed and "The move's sweeps: wall, crate; it ends against crate, 0 of motion left" \
        in passed.message
    beside = verdict_with(8, crate_at(-1.3 - 1e-6, 3.8))
    assert not beside.passed and "ends against back wall" in beside.message
    assert not verdict_with(8, crate_at(-0.4, 3.8), target="back wall").passed
    assert not verdict_with(8, crate_at(-0.4, 3.8), target="wall").passed  # it hit the wall, and slid on


def test_lesson_eight_tolerance_at_just_inside_and_just_outside():
    """Measured: with the crate at z = 0.5 the contact's normal leaves a remainder of
    rounding after the crate (the move then sweeps on, from the wall): it ends on the
    crate for a tolerance at or above that remainder, not below."""
    from sweeplab.view.exercise_checks import left_after
    from sweeplab.view.lessons import collide_and_slide

    low = crate_at(-0.4, 3.8, 0.5)
    scene = lesson(8).scene.copy()
    low(scene)
    steps = collide_and_slide(scene)
    assert [step.target for step in steps] == ["wall", "crate", "wall", None]
    rest = left_after(steps)[1] / 10.0  # |d| = 10
    assert 0 < rest < 1e-9
    assert verdict_with(8, low).passed  # inside the lesson's 1e-9
    assert verdict_with(8, low, tolerance=rest).passed  # at
    outside = verdict_with(8, low, tolerance=math.nextafter(rest, 0))
    assert not outside.passed and "it ends against wall" in outside.message
