"""Lessons (#23): each bundled lesson loads, steps through every step and renders;
the pictures agree with the physics."""

import json
import math

import numpy as np
import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.scene.model import load
from sweeplab.view import lessons as lesson_files
from sweeplab.view.lessons import (LessonError, bundled_lessons, collide_and_slide, feature_candidates, inflated,
                                   lesson_from_json, quadratic, show_set, swapped)
from sweeplab.view.model import build_view_model
from tests.app.test_hostile_files import changed

LESSONS, PROBLEMS = bundled_lessons()
FIRST = json.loads(sorted(lesson_files.lesson_folder().glob("*.json"))[0].read_text())


def test_the_bundled_lessons_are_numbered_in_order():
    assert [lesson.number for lesson in LESSONS] == [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13] and PROBLEMS == []
    assert all(lesson.title and lesson.steps for lesson in LESSONS)


@pytest.mark.parametrize("path, value, message", [
    (("number",), "one", "\"number\" must be a whole number, got 'one'"),
    (("number",), [1], "\"number\" must be a whole number, got [1]"),
    (("title",), {"en": "x"}, "\"title\" must be a string"),
    (("steps", 0, "camera"), 5, "step 1 camera must be a string"),
    (("steps", 0, "camera"), "a,b,c", "step 1 camera must be numbers"),
    (("steps", 0, "display"), ["minkowski"], "step 1 display must be an object"),
    (("steps", 0, "display"), {"colour": True}, "step 1 display has unknown field 'colour'"),
    (("steps", 0, "display"), {"minkowski": "yes"}, "step 1 display 'minkowski' must be true or false, got 'yes'"),
    (("steps", 0, "display"), {"bvh_depth": -1}, "step 1 display 'bvh_depth' must be a whole number >= 0 or null"),
    (("steps", 0, "display"), {"slide_sweeps": 1.5}, "step 1 display 'slide_sweeps' must be a whole number >= 0"),
    (("steps", 0, "set"), ["point"], "step 1 set must be an object {shape: {parameter: value}}, got ['point']"),
    (("steps", 0, "set"), {"point": 5}, "step 1 set must be an object {shape: {parameter: value}}"),
    (("steps", 0, "set"), {"ghost": {"p": [0.0, 0.0, 0.0]}}, "step 1 sets 'ghost', which is not in the scene"),
    (("steps", 0, "set"), {"point": {"q": [0.0, 0.0, 0.0]}}, "step 1 sets 'q' of point, which has no such parameter"),
    (("steps", 0, "set"), {"point": {"p": [0.0, math.nan, 0.0]}}, "step 1 sets point: "),
    (("steps", 0, "set"), {"ball": {"radius": -1.0}}, "step 1 sets ball: "),
])
def test_a_bad_lesson_field_is_refused_naming_the_field_and_file(path, value, message):
    """They reached ValueError, TypeError or AttributeError in int(), dict() or the
    camera's parser (or later, in the editor, on showing the step)."""
    with pytest.raises(LessonError) as raised:
        lesson_from_json(changed(FIRST, path, value), "9-bad.json")
    assert str(raised.value).startswith("9-bad.json: ") and message in str(raised.value)


def test_a_bad_bundled_lesson_is_left_out_with_a_line_not_raised(tmp_path, monkeypatch):
    (tmp_path / "1-good.json").write_text(json.dumps(FIRST))
    (tmp_path / "2-bad.json").write_text(json.dumps(changed(FIRST, ("number",), "two")))
    (tmp_path / "3-broken.json").write_text("{")
    monkeypatch.setattr(lesson_files, "lesson_folder", lambda: tmp_path)
    lessons, problems = bundled_lessons()
    assert [lesson.number for lesson in lessons] == [1]
    assert problems[0].startswith("2-bad.json: \"number\"")
    assert problems[1].startswith(f"{tmp_path / '3-broken.json'} is not valid JSON")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"lesson {lesson.number}")
def test_every_step_of_every_lesson_opens_and_renders(lesson, gl_context):
    from sweeplab.render.headless import OffscreenRenderer

    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(lesson)
    renderer = OffscreenRenderer((320, 200), gl_context)
    for number in range(len(lesson.steps)):
        editor.show_step(number)
        assert editor.lesson_step == number and editor.path is None
        pixels = renderer.render(editor.view(), editor.camera)
        assert pixels.shape == (200, 320, 3) and len(np.unique(pixels.reshape(-1, 3), axis=0)) > 20
    editor.show_step(99)
    assert editor.lesson_step == len(lesson.steps) - 1


def test_the_quadratic_roots_are_where_the_ball_touches_the_point():
    scene = LESSONS[0].scene.copy()
    found = quadratic(scene)
    assert len(found.roots) == 2 and found.t == pytest.approx(found.roots[0], abs=1e-15)
    for root in found.roots:
        centre = np.array([-4.0, 0.0, 0.0]) + root * np.array([8.0, 0.0, 0.0])
        assert np.linalg.norm(centre - [1.0, 0.5, 0.0]) == pytest.approx(1.0, abs=1e-14)
    assert "t = c / (-b + sqrt(b² - a·c))" in found.formula()
    scene.object("point").params["p"] = [1.0, 1.0, 0.0]  # the graze: one root
    graze = quadratic(scene)
    assert len(graze.roots) == 1 and graze.t == 0.625
    scene.object("point").params["p"] = [1.0, 1.0000000000000002, 0.0]  # one ulp further: the sweep misses,
    assert quadratic(scene).t is None and quadratic(scene).roots == (0.625,)  # the rounded quadratic cannot tell


def test_moving_radius_between_the_spheres_keeps_the_time_of_impact():
    scene = LESSONS[1].scene
    times = [build_view_model(inflated(scene, share)).reports[0].result.t for share in (0.0, 0.25, 0.5, 1.0)]
    assert max(times) - min(times) <= 1e-15 and inflated(scene, 1.0).object("rock").params["radius"] == 0.0


def test_changing_the_subject_keeps_t_and_flips_the_normal():
    forward, backward = swapped(LESSONS[2].scene, "post")
    assert forward.hit and backward.hit and forward.t == pytest.approx(backward.t, abs=1e-15)
    np.testing.assert_allclose(forward.normal, -np.asarray(backward.normal), atol=1e-15)


def test_the_earliest_feature_candidate_is_the_sweeps_answer():
    scene = LESSONS[3].scene.copy()
    for centre, expected in (([0.6, -0.4, 3.0], "face"), ([0.6, -1.0, 3.0], "edge 0 (ab)"),
                             ([-1.3, -1.0, 3.0], "vertex 0 (a)")):
        scene.object("ball").params["center"] = centre
        candidates, answer = feature_candidates(scene, "triangle")
        hits = [c for c in candidates if c.t is not None]
        earliest = min(hits, key=lambda c: c.t)
        assert earliest.feature == expected and math.isclose(earliest.t, answer.t, abs_tol=1e-12)
        assert expected.startswith(answer.feature.kind)


def test_collide_and_slide_stops_at_the_wall_slides_along_it_and_stops_in_the_corner():
    """Lesson 8: (-4, 0) moving by (8, 6) with radius 0.4 reaches x = -0.4 at t = 3.6 / 8,
    slides along the wall (the x part removed) and stops at y = 4 - 0.4."""
    steps = collide_and_slide(LESSONS[7].scene)
    assert [step.target for step in steps] == ["wall", "back wall"]
    assert steps[0].t == pytest.approx(0.45, abs=1e-15)
    np.testing.assert_allclose(steps[0].stop, [-0.4, 2.7, 1.0], atol=1e-14)
    np.testing.assert_allclose(steps[1].motion, [0.0, 3.3, 0.0], atol=1e-14)  # only the part along the wall
    np.testing.assert_allclose(steps[1].stop, [-0.4, 3.6, 1.0], atol=1e-14)
    for step in steps:  # each stop touches, never passes into, the surface it hit
        assert step.normal @ step.motion < 0


def test_the_tree_walk_is_drawn_a_node_test_at_a_time():
    """Lesson 5: with ``walk_steps`` the view draws the walk's first k node tests."""
    from sweeplab.view.meshes import MeshDisplay

    lesson = next(lesson for lesson in LESSONS if lesson.number == 5)
    report = next(r for r in build_view_model(lesson.scene).reports if r.mesh is not None)
    total = len(report.mesh.trace.node)
    drawn = []
    for steps in (1, total // 2, total):
        view = build_view_model(lesson.scene, display=MeshDisplay(bvh_depth=0, walk_steps=steps))
        drawn.append(sum(len(batch.segments) for batch in view.lines))
    assert drawn[0] < drawn[1] < drawn[2]  # one sphere, then half the walk, then all of it


def test_regression_the_roots_of_a_touching_start_moving_away():
    """Review find: with c = 0 and b > 0 the other root came out as -b/a (-1 for a
    sphere touching the point and moving away; the roots are 0 and -2)."""
    from sweeplab.scene.model import Scene, SceneObject

    scene = Scene([SceneObject("ball", "sphere", {"center": [0.0, 0.0, 1.0], "radius": 1.0}),
                   SceneObject("point", "point", {"p": [0.0, 0.0, 0.0]})], "ball", [0.0, 0.0, 1.0])
    assert quadratic(scene).roots == (-2.0, 0.0)


@pytest.mark.parametrize("center, radius, direction, roots", [
    ([0.0, 0.0, 1e10], 1e10, [0.0, 0.0, -1e150], (0.0, 2e-140)),  # b² overflowed: roots (0, inf)
    ([0.0, 0.0, 1e-170], 1e-170, [0.0, 0.0, -1e-170], (0.0, 2.0)),  # a underflowed to 0: no roots
    ([0.0, 0.0, 2.0], 1.0, [0.0, 0.0, -1e-160], (1e160, 3e160)),  # a subnormal: off by 1e-5
])
def test_regression_the_roots_are_found_at_unit_size(center, radius, direction, roots):
    """Review finds: unscaled, b*b overflowed, a underflowed or went subnormal."""
    from sweeplab.scene.model import Scene, SceneObject

    scene = Scene([SceneObject("ball", "sphere", {"center": center, "radius": radius}),
                   SceneObject("point", "point", {"p": [0.0, 0.0, 0.0]})], "ball", direction)
    found = quadratic(scene).roots
    assert len(found) == 2 and all(abs(x - y) <= 1e-15 * abs(y) for x, y in zip(found, roots, strict=True))


def test_a_step_sets_what_its_picture_is_of():
    """#33 item 9: lesson 1 step 3 ("at y = 1 exactly the roots meet") showed the two
    roots of y = 0.5.  A step's ``set`` is an edit when shown; a step that sets what is
    already there is none (a lesson just opened has no unsaved changes)."""
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(LESSONS[0])
    assert not editor.dirty and editor.scene.object("point").params["p"] == [1.0, 0.5, 0.0]
    assert len(quadratic(editor.scene).roots) == 2
    editor.show_step(2)
    assert editor.scene.object("point").params["p"] == [1.0, 1.0, 0.0] and quadratic(editor.scene).roots == (0.625,)
    assert editor.dirty
    editor.undo()
    assert editor.scene.object("point").params["p"] == [1.0, 0.5, 0.0] and not editor.dirty
    editor.show_step(2)
    editor.show_step(3)
    assert len(quadratic(editor.scene).roots) == 2


def test_a_step_passes_over_a_shape_the_reader_removed():
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(LESSONS[0])
    editor.select("point")
    editor.delete()
    revision = editor.history.revision
    editor.show_step(2)
    assert editor.scene.names() == ["ball"] and editor.history.revision == revision


def test_lesson_eight_draws_the_slide_a_sweep_at_a_time():
    """#33 item 9: lesson 8's three steps drew one picture.  ``slide_sweeps`` draws the
    move's first k sweeps: one to the wall, then the slide into the corner."""
    from sweeplab.view.meshes import MeshDisplay
    from sweeplab.view.model import SLIDE

    lesson = LESSONS[7]

    def slide_lines(sweeps):
        view = build_view_model(lesson.scene, display=MeshDisplay(slide_sweeps=sweeps), slide=True)
        return [batch.segments for batch in view.lines if batch.color == SLIDE]

    assert [len(lines[0]) for lines in (slide_lines(1), slide_lines(2), slide_lines(None))] == [1, 2, 2]
    np.testing.assert_allclose(slide_lines(1)[0][0][1], [-0.4, 2.7, 1.0], atol=1e-14)  # stops at the wall
    assert slide_lines(0) == []
    crate_in_path = lesson.scene.copy()
    show_set(crate_in_path, lesson.steps[2])
    assert [step.target for step in collide_and_slide(crate_in_path)] == ["crate", "wall", None]
