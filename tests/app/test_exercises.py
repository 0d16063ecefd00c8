"""Exercises (#37): the lesson format's "exercise" field, ``judge``, and the editor's
Check — a pass, or what was measured and the hint; never a crash on a scene the
student broke."""

import dataclasses
import json

import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.scene.model import load
from sweeplab.view import lessons as lesson_files
from sweeplab.view.exercises import CHECKS, Exercise, Verdict, check, checks, judge
from sweeplab.view.lessons import LessonError, bundled_lessons, lesson_from_json
from tests.app.test_hostile_files import changed

LESSONS, _ = bundled_lessons()
FIRST = json.loads(sorted(lesson_files.lesson_folder().glob("*.json"))[0].read_text())


def lesson(number: int):
    return next(found for found in LESSONS if found.number == number)


def with_args(found, **args):
    """``found`` (a lesson) with ``args`` over its exercise's arguments (a tolerance
    moved to the edge a test measures)."""
    exercise = dataclasses.replace(found.exercise, args={**found.exercise.args, **args})
    return dataclasses.replace(found, exercise=exercise)


def test_lesson_one_has_its_exercise_with_the_checks_defaults_under_the_lessons_values():
    exercise = lesson(1).exercise
    assert isinstance(exercise, Exercise) and exercise.check == "graze" and exercise.task and exercise.hint
    assert exercise.args == {**checks()["graze"].defaults, **FIRST["exercise"]["args"]}


@pytest.mark.parametrize("path, value, message", [
    (("exercise",), "graze", "exercise must be an object with task, check, args and hint, got 'graze'"),
    (("exercise", "check"), "grace", "exercise check must be one of "),
    (("exercise", "check"), None, "exercise check must be one of "),
    (("exercise", "args"), [1], "exercise args must be an object, got [1]"),
    (("exercise", "args"), {"radius": 1.0}, "exercise args has 'radius', which check 'graze' does not take"),
    (("exercise", "args"), {"tolerance": "small"}, "exercise args 'tolerance' must be a finite number, got 'small'"),
    (("exercise", "args"), {"tolerance": True}, "exercise args 'tolerance' must be a finite number, got True"),
    (("exercise", "task"), "", "exercise needs a \"task\" (a non-empty string)"),
    (("exercise", "hint"), 3, "exercise needs a \"hint\" (a non-empty string), got 3"),
    (("exercise", "answer"), 0.625, "exercise has unknown field 'answer'"),
])
def test_a_bad_exercise_is_refused_naming_the_field_and_file(path, value, message):
    with pytest.raises(LessonError) as raised:
        lesson_from_json(changed(FIRST, path, value), "1-bad.json")
    assert str(raised.value).startswith("1-bad.json: ") and message in str(raised.value)


def test_a_missing_task_or_hint_and_an_infinite_argument_are_refused():
    for field in ("task", "hint"):
        data = json.loads(json.dumps(FIRST))
        del data["exercise"][field]
        with pytest.raises(LessonError, match=f"exercise needs a \"{field}\""):
            lesson_from_json(data, "1.json")
    with pytest.raises(LessonError, match="'tolerance' must be a finite number, got inf"):
        lesson_from_json(changed(FIRST, ("exercise", "args"), {"tolerance": float("inf")}), "1.json")


def test_a_lesson_without_an_exercise_has_none_and_judging_it_says_so():
    data = json.loads(json.dumps(FIRST))
    del data["exercise"]
    plain = lesson_from_json(data, "1.json")
    assert plain.exercise is None
    with pytest.raises(ValueError, match="lesson 1 has no exercise"):
        judge(plain, plain.scene)


def test_a_check_registered_twice_is_refused():
    with pytest.raises(ValueError, match="check 'graze' is registered twice"):
        check("graze")(lambda scene, args: Verdict(True, ""))
    assert CHECKS["graze"].function.__name__ == "graze"


def test_a_failed_verdict_ends_with_the_hint_and_a_pass_does_not():
    first = lesson(1)
    failed = judge(first, first.scene)
    assert not failed.passed and failed.message.endswith(first.exercise.hint)
    grazing = first.scene.copy()
    grazing.object("point").params["p"] = [1.0, 1.0, 0.0]
    passed = judge(first, grazing)
    assert passed.passed and first.exercise.hint not in passed.message


@pytest.mark.parametrize("broken", ["point deleted", "ball deleted", "point made a sphere"])
def test_a_scene_the_student_broke_is_a_failed_verdict_saying_what_is_missing(broken):
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(lesson(1))
    if broken == "point made a sphere":
        editor.edit(lambda scene: setattr(scene.object("point"), "kind", "sphere")
                    or scene.object("point").params.update(center=[1.0, 1.0, 0.0], radius=0.0))
    else:
        editor.select(broken.split()[0])
        editor.delete()
    verdict = editor.check_exercise()
    assert verdict is not None and not verdict.passed
    needs = "the exercise needs a moving sphere" if broken == "ball deleted" else "no point target"
    assert needs in verdict.message and verdict.message.endswith(lesson(1).exercise.hint)
    assert editor.scene.names() and editor.lesson is lesson(1)  # the scene and the lesson stay


def test_the_editors_verdict_is_kept_until_the_scene_changes():
    editor = Editor(load(DEMO_SCENE))
    assert editor.check_exercise() is None and editor.exercise_verdict is None  # no lesson open
    editor.open_lesson(lesson(1))
    assert editor.exercise_verdict is None
    verdict = editor.check_exercise()
    assert editor.exercise_verdict is verdict and not verdict.passed and editor.message == "exercise: not yet"
    editor.edit(lambda scene: scene.object("point").params.update(p=[1.0, 1.0, 0.0]))
    assert editor.exercise_verdict is None  # judged on another scene
    assert editor.check_exercise().passed and editor.message == "exercise: passed"
    editor.undo()
    assert editor.exercise_verdict is None
    editor.close_lesson()
    assert editor.check_exercise() is None and editor.exercise_verdict is None


@pytest.mark.parametrize("value", [1.5, 0, True, "200"])
def test_a_count_argument_must_be_a_whole_number_of_at_least_one(value):
    fifth = json.loads((lesson_files.lesson_folder() / "5-tree.json").read_text())
    with pytest.raises(LessonError, match="exercise args 'least' must be a whole number >= 1"):
        lesson_from_json(changed(fifth, ("exercise", "args", "least"), value), "5.json")


@pytest.mark.parametrize("raised, says", [
    ("pending", "The check needs kernels that are still compiling"),
    ("refused", "The check could not measure the scene: radius must be >= 0."),
])
def test_a_check_the_physics_cannot_answer_now_is_a_failed_verdict(raised, says, monkeypatch):
    """Under the window's ``defer`` policy a large check (lesson 6's 1024 samples) may
    find its kernels uncompiled; the physics may refuse a shape: neither is a crash."""
    from sweeplab.physics.kernels import KernelsPending

    def refuse(scene, args):
        raise KernelsPending("compile first") if raised == "pending" else ValueError("radius must be >= 0")

    monkeypatch.setitem(CHECKS, "graze", dataclasses.replace(CHECKS["graze"], function=refuse))
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(lesson(1))
    verdict = editor.check_exercise()
    assert not verdict.passed and verdict.message.startswith(says)
    assert verdict.message.endswith(lesson(1).exercise.hint) and editor.exercise_verdict is verdict


def test_a_lessons_picture_without_its_shapes_says_what_is_missing_as_a_value_error():
    """The Lesson panel shows a ValueError in place of the picture (``ui.lessons``)."""
    from sweeplab.view.lesson_capsule import capsule_sweep

    scene = lesson(9).scene.copy()
    scene.objects = [o for o in scene.objects if o.name != "post"]
    with pytest.raises(ValueError, match="The scene has no capsule target"):
        capsule_sweep(scene)
