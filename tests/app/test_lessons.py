"""Lessons (#23): each bundled lesson loads, steps through every step and renders;
the pictures agree with the physics."""

import json
import math

import numpy as np
import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.editor.lessons import LESSON_DISPLAY
from sweeplab.scene.model import load
from sweeplab.view import lessons as lesson_files
from sweeplab.view.lessons import (LessonError, bundled_lessons, collide_and_slide, feature_candidates, inflated,
                                   lesson_from_json, quadratic, show_set, swapped)
from sweeplab.view.model import build_view_model
from tests.app.test_hostile_files import changed

LESSONS, PROBLEMS = bundled_lessons()
FIRST = json.loads(sorted(lesson_files.lesson_folder().glob("*.json"))[0].read_text())


def test_the_bundled_lessons_are_numbered_in_order():
    assert [lesson.number for lesson in LESSONS] == list(range(1, 14)) and PROBLEMS == []
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


# --- every step's picture shows that step (#37) ------------------------------------------

STEP_FRAME = (240, 150)
"""The frames the step-picture test renders: small (the test renders each step of every
lesson twice), yet a 1% change is 360 pixels."""

VISIBLE_SHARE = 0.01
"""The share of a frame's pixels a step's change must move to be seen at a glance (1%:
at 1280x800 a 100-pixel square; lesson 8's slide hidden behind the capsule at the wall
moved 0.80% of a 240x150 frame)."""


def visibly_changed(before: np.ndarray, after: np.ndarray) -> bool:
    """Whether at least ``VISIBLE_SHARE`` of the frame's pixels differ."""
    differing = int(np.any(before != after, axis=-1).sum())
    return differing >= VISIBLE_SHARE * before.shape[0] * before.shape[1]


@pytest.mark.parametrize("differing, seen", [(359, False), (360, True), (361, True)])
def test_a_change_is_seen_from_one_percent_of_the_frame(differing, seen):
    before = np.zeros(STEP_FRAME[::-1] + (3,), np.uint8)
    after = before.copy()
    after.reshape(-1, 3)[:differing, 1] = 1
    assert visibly_changed(before, after) is seen


def _panel_picture(lesson, scene) -> str:
    """The numbers the Lesson panel's picture shows for ``scene`` (``ui.lessons``): the
    walk and the slide are drawn in the 3D view itself."""
    target = scene.targets()[0].name
    pictures = {"quadratic": lambda: quadratic(scene), "swap": lambda: swapped(scene, target),
                "features": lambda: feature_candidates(scene, target),
                "inflate": lambda: [o.params["radius"] for o in scene.objects]}
    return repr(pictures.get(lesson.picture, lambda: None)())


def _says_changes(lesson, number: int, scene) -> tuple[bool, bool]:
    """(whether step ``number`` edits what is drawn: its ``set`` edits ``scene``, the
    scene as the previous step left it, or its display differs; whether it shows
    another picture: a new camera, another playground run, which may teach that
    nothing moves: lesson 13 step 2's bodies stay at their drafts, or another
    advancement iteration drawn: lesson 10)."""
    step, previous = lesson.steps[number], lesson.steps[number - 1]
    edits = lesson_files.step_changes(scene, step) or {**LESSON_DISPLAY, **step.display} != {
        **LESSON_DISPLAY, **previous.display}
    return edits, (step.camera != previous.camera or step.playground != previous.playground
                   or step.iteration != previous.iteration)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"lesson {lesson.number}")
def test_every_step_shows_what_it_says_changes(lesson, gl_context):
    """A step whose ``set`` edits the scene or whose ``display`` differs from the
    previous step's must show that change from its own camera (the previous step's
    content seen from this step's camera differs in at least ``VISIBLE_SHARE`` of the
    frame, or the panel's picture differs); a step with a new camera or another
    playground run shows another frame; a step that changes nothing shows the same
    frame and picture, bit for bit.  (Lesson 8's slide, hidden behind the capsule at
    the wall, moved 0.80%.)"""
    from sweeplab.render.headless import OffscreenRenderer

    renderer = OffscreenRenderer(STEP_FRAME, gl_context)
    reader, behind = (Editor(load(DEMO_SCENE), clock=lambda: 0.0) for _ in range(2))  # never still: no timed
    for editor in (reader, behind):  # second opinions; ``behind`` stays a step behind the reader
        editor.open_lesson(lesson)
    pixels, picture = renderer.render(reader.view(), reader.camera), _panel_picture(lesson, reader.scene)
    problems = []
    for number in range(1, len(lesson.steps)):
        edits, another = _says_changes(lesson, number, reader.scene)
        reader.show_step(number)
        previous_pixels, previous_picture = pixels, picture
        pixels, picture = renderer.render(reader.view(), reader.camera), _panel_picture(lesson, reader.scene)
        label = f"step {number + 1}"
        if edits:
            before = renderer.render(behind.view(), reader.camera)  # the previous step from this camera
            if not (visibly_changed(before, pixels) or picture != previous_picture):
                share = np.any(before != pixels, axis=-1).mean()
                problems.append(f"{label}: its change moves {share:.2%} of the frame from its camera")
        if another and not visibly_changed(previous_pixels, pixels):
            problems.append(f"{label}: a new camera or run, yet the same frame")
        if not edits and not another and (np.any(pixels != previous_pixels) or picture != previous_picture):
            problems.append(f"{label}: says nothing changes, yet the frame or the picture does")
        behind.show_step(number)
    assert not problems, problems


def test_the_walk_tones_the_mesh_down_so_its_colours_read():
    """#37: lesson 5's leaf colours drowned in the mesh's hit red (leaf hit is red too),
    under the white outline of every triangle edge (the mesh was selected).  While the
    walk's node spheres are drawn the mesh is filled ``WALKED``, and no step selects it."""
    from sweeplab.view.meshes import MeshDisplay
    from sweeplab.view.model import HIT, WALKED

    lesson = next(lesson for lesson in LESSONS if lesson.number == 5)

    def mesh_fill(display):
        view = build_view_model(lesson.scene, display=display)
        return next(d.fill for d in view.drawables if len(d.mesh.triangles) == 2 * 24 * 24)

    assert mesh_fill(MeshDisplay(bvh_depth=11))[:3] == WALKED[:3]
    assert mesh_fill(MeshDisplay(bvh_depth=11, traversal=False))[:3] == HIT[:3]  # grey nodes: no walk colours
    assert mesh_fill(MeshDisplay())[:3] == HIT[:3]
    assert all(step.select != "hills" for step in lesson.steps)


def test_lesson_one_states_its_numbers_as_computed():
    """#37: step 3 said m·m = 26.000000000000004 (the float after 26, 26 + 2^-48) and
    "the 2e-16 is gone"; one ulp past the graze m·m is exactly 26 + 2^-51 + 2^-104, and
    2^-51 = 4.4e-16 is under half the spacing of floats at 26, so it rounds to 26."""
    from fractions import Fraction

    text = LESSONS[0].steps[2].text
    y = 1.0000000000000002
    assert y == 1 + 2.0 ** -52  # one ulp past the graze
    exact = 25 + Fraction(y) ** 2
    assert exact == 26 + Fraction(2) ** -51 + Fraction(2) ** -104
    assert float(np.array([-5.0, -y, 0.0]) @ np.array([-5.0, -y, 0.0])) == 26.0 and math.ulp(26.0) == 2.0 ** -48
    assert Fraction(-40) ** 2 - 64 * (exact - 1) == -(Fraction(2) ** -45 + Fraction(2) ** -98)  # b² - a·c, exactly
    assert 1.0 - y * y == -(2.0 ** -51)  # r² - |m_perp|², as the kernels compute it
    for stated in (f"26 + 2^-51 + 2^-104 = 26 + {2.0 ** -51:.1e}", f"2^-48 = {2.0 ** -48:.1e} apart",
                   "exactly it is -2^-45 - 2^-98", "1 - (1 + 2^-51) = -2^-51 < 0"):
        assert stated in text, stated
    assert "26.000000000000004" not in text
    scene = LESSONS[0].scene.copy()
    scene.object("point").params["p"] = [1.0, y, 0.0]
    found = quadratic(scene)
    assert (found.a, found.b, found.c, found.roots, found.t) == (64.0, -40.0, 25.0, (0.625,), None)


@pytest.mark.parametrize("p, t, overlapping, said", [
    ([-4.0, 0.5, 0.0], 0.0, True, "c = -0.75 < 0: the ball holds the point at the start: t = 0, initially overlapping"),
    ([-4.0, 1.0, 0.0], 0.0, False, "c = 0: the ball touches the point at the start, t = 0"),
    ([1.0, 0.5, 0.0], (5 - math.sqrt(0.75)) / 8, False, "t = c / (-b + sqrt(b² - a·c))"),  # outside: the root
])
def test_lesson_one_step_two_says_what_the_sweep_answers_from_inside(p, t, overlapping, said):
    """#37: step 2 said the sweep answers "the first root in [0, 1]"; from inside the
    first root is negative, and the sweep answers t = 0, initially overlapping, with
    the depth r - |m|."""
    from sweeplab.scene.shape_kinds import build_shape
    from sweeplab.physics import sweep

    scene = LESSONS[0].scene.copy()
    scene.object("point").params["p"] = p
    found = quadratic(scene)
    answer = sweep(build_shape("sphere", scene.object("ball").params), build_shape("point", {"p": p}),
                   scene.direction)
    assert found.t == answer.t == pytest.approx(t, abs=1e-15) and answer.initially_overlapping is overlapping
    assert said in found.formula()
    if overlapping:
        assert found.roots[0] < 0 and answer.penetration_depth == 1.0 - 0.5  # r - |m|
    assert "initially overlapping" in LESSONS[0].steps[1].text and "r - |m|" in LESSONS[0].steps[1].text


def test_lesson_one_gives_each_letter_one_meaning():
    """#37: c was the ball's centre in the text ("c + t·d") and the constant term on the
    plot ("a t^2 + 2 b t + c"); the centre is s now, in the text and the plot."""
    import re

    from sweeplab.ui.lessons import QUADRATIC_PLOT

    for text in [step.text for step in LESSONS[0].steps] + list(QUADRATIC_PLOT):
        assert not re.search(r"\bc\s*\+\s*t|\bc'|=\s*c\s*-\s*p", text), text
    assert "s + t·d" in LESSONS[0].steps[0].text and "c = m·m - r²" in LESSONS[0].steps[0].text
    assert QUADRATIC_PLOT[0].startswith("|s + t d - p|")


def test_lesson_six_states_the_sampling_stage_and_its_limit_as_computed():
    """#37: lesson 6 went from the broadphase interval straight to bisection; the
    narrowphase first samples the interval at ``NARROWPHASE_SAMPLES`` + 1 even times
    (``physics.broadphase``), and a contact shorter than a sample's spacing is missed."""
    from sweeplab.physics.broadphase import NARROWPHASE_SAMPLES, NarrowphaseTrace, first_mesh_contact
    from sweeplab.scene.shape_kinds import mesh_shape

    lesson = next(lesson for lesson in LESSONS if lesson.number == 6)
    scene = lesson.scene
    trace = NarrowphaseTrace()
    answer = first_mesh_contact(mesh_shape(scene.object("rock").params), scene.direction,
                                mesh_shape(scene.object("boulder").params), np.zeros(3), trace=trace)
    (enter, exit_), speed = trace.interval, float(np.linalg.norm(scene.direction))
    spacing = (exit_ - enter) / NARROWPHASE_SAMPLES
    samples = [step for step in trace.steps if step.phase == "sample"]
    halvings = len(trace.steps) - len(samples)
    assert answer.hit and [step.overlap for step in samples] == [False, True]  # the second sample overlaps
    text = " ".join(step.text for step in lesson.steps)
    for stated in (f"[{enter:.3f}, {exit_:.3f}]", f"{NARROWPHASE_SAMPLES} even steps",
                   f"the {NARROWPHASE_SAMPLES + 1} times", f"/{NARROWPHASE_SAMPLES} = {spacing:.4f}",
                   f"(here the second, t = {samples[1].t:.4f})", f"(here {halvings} halvings)",
                   f"{speed:.2f} × {spacing:.4f} = {speed * spacing:.3f} units of travel"):
        assert stated in text, stated


def test_lessons_two_and_four_show_what_their_second_steps_say():
    """#37: lesson 2 step 2 ("all the radius on the moving ball") and lesson 4 step 2
    ("the face candidate disappears and an edge cylinder takes over") showed the first
    step's scene; they set it now."""
    inflate, features = (next(lesson for lesson in LESSONS if lesson.number == number) for number in (2, 4))
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(inflate)
    first_t = build_view_model(editor.scene).reports[0].result.t
    editor.show_step(1)
    radii = [editor.scene.object(name).params["radius"] for name in ("ball", "rock")]
    assert radii == [1.5, 0.0] and build_view_model(editor.scene).reports[0].result.t == pytest.approx(first_t,
                                                                                                     abs=1e-15)
    editor.open_lesson(features)
    editor.show_step(1)
    candidates, answer = feature_candidates(editor.scene, "triangle")
    assert candidates[0].feature == "face" and candidates[0].t is None
    assert min((c for c in candidates if c.t is not None), key=lambda c: c.t).feature == "edge 0 (ab)"
    assert answer.feature.kind == "edge" and answer.feature.index == 0


def test_lesson_seven_nudges_do_what_its_steps_say():
    """Lesson 7 step 2: z, then ] raises the ball one ulp (float64: miss), [ twice is one
    ulp below (a hit again); the float32 lens sees neither change (step 1: a graze)."""
    from sweeplab.view.reports import sweep_targets

    lesson = next(lesson for lesson in LESSONS if lesson.number == 7)
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(lesson)
    editor.show_step(1)
    editor.set_nudge_axis(2)
    answers = []
    for sign in (0, +1, -1, -1):
        if sign:
            editor.nudge(sign)
        report = sweep_targets(editor.scene, float32=True)[0]
        answers.append((editor.scene.object("ball").params["center"][2], report.result.hit, report.single.hit,
                        report.single.t))
    assert [answer[:2] for answer in answers] == [(1.0, True), (1 + 2.0 ** -52, False), (1.0, True),
                                                  (1 - 2.0 ** -53, True)]
    assert answers[0][1] and answers[0][2] and len({answer[2:] for answer in answers}) == 1  # float32: unchanged
    assert "press z (" in lesson.steps[1].text


def test_lesson_six_shows_the_overlapping_triangles_at_the_first_contact(gl_context, monkeypatch):
    """#37: lesson 6 step 2 says the overlapping triangles at the first contact are
    painted magenta; they lie inside the other mesh, and no pixel showed them.  Their
    edges are drawn on top now."""
    import itertools

    from sweeplab.physics import kernels
    from sweeplab.render.headless import OffscreenRenderer
    from sweeplab.view.meshes import MESH_OVERLAP

    monkeypatch.setattr(kernels, "DEFER_BUDGET_SECONDS", 600.0)  # as Python if not compiled: never "pending"
    lesson = next(lesson for lesson in LESSONS if lesson.number == 6)
    ticks = itertools.count(0.0, 100.0)
    editor = Editor(load(DEMO_SCENE), clock=lambda: next(ticks))  # still at every look: the narrowphase runs
    editor.open_lesson(lesson)
    editor.show_step(1)
    editor.view()
    pixels = OffscreenRenderer(STEP_FRAME, gl_context).render(editor.view(), editor.camera).astype(int)
    magenta = np.abs(pixels - np.round(np.array(MESH_OVERLAP[:3]) * 255)).max(axis=-1) <= 40
    assert magenta.sum() >= 100, int(magenta.sum())
